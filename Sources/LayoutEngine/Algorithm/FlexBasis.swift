// §9.2 step 3: determine the flex base size and hypothetical main size of each item
// (Yoga's computeFlexBasisForChild / computeFlexBasisForChildren).

extension LayoutPass {
    func computeFlexBasisForChild(_ node: Int, _ child: Int,
                                  _ width: Float, _ widthMode: SizingMode,
                                  _ height: Float, _ ownerWidth: Float, _ ownerHeight: Float,
                                  _ heightMode: SizingMode, _ direction: Direction, _ depth: Int,
                                  sizedLikeCSS: Bool) {
        let ns = style(node)
        let cs = style(child)
        let cl = layouts + child
        let mainAxis = ns.pointee.flexDirection.resolved(direction)
        let isMainAxisRow = mainAxis.isRow
        let mainAxisSize = isMainAxisRow ? width : height
        let mainAxisOwnerSize = isMainAxisRow ? ownerWidth : ownerHeight

        let resolvedFlexBasis = resolveFlexBasis(child, direction, mainAxis, mainAxisOwnerSize, ownerWidth)
        let isRowStyleDimDefined = cs.pointee.hasDefiniteLength(true, ownerWidth)
        let isColumnStyleDimDefined = cs.pointee.hasDefiniteLength(false, ownerHeight)

        var useBasis = !resolvedFlexBasis.isNaN && !mainAxisSize.isNaN
        // fix-flex-basis-fit-content: a positive definite basis is used even when the
        // container's main size is not known (checked by flex_basis_in_scroll_content_container).
        if experimental.contains(.fixFlexBasisFitContent) && !resolvedFlexBasis.isNaN && resolvedFlexBasis > 0 {
            useBasis = true
        }

        if useBasis {
            // §9.2.3 A: a definite flex-basis is the flex base size.
            // Yoga keeps a definite basis until the node is dirtied, so a percentage basis
            // would go stale when only the available size changes; recompute it once per
            // layout call instead (what Yoga's web-flex-basis feature does), which makes
            // results independent of earlier calls.
            if cl.pointee.computedFlexBasis.isNaN || cl.pointee.computedFlexBasisGeneration != generation {
                let pb = paddingAndBorderForAxis(child, mainAxis, direction, ownerWidth)
                cl.pointee.computedFlexBasis = maxOrDefined(resolvedFlexBasis, pb)
            }
        } else if isMainAxisRow && isRowStyleDimDefined {
            // The width is definite, so use that as the flex basis.
            let pb = paddingAndBorderForAxis(child, .row, direction, ownerWidth)
            cl.pointee.computedFlexBasis = maxOrDefined(cs.pointee.resolvedDimension(true, direction, ownerWidth, ownerWidth), pb)
        } else if !isMainAxisRow && isColumnStyleDimDefined {
            // The height is definite, so use that as the flex basis.
            let pb = paddingAndBorderForAxis(child, .column, direction, ownerWidth)
            cl.pointee.computedFlexBasis = maxOrDefined(cs.pointee.resolvedDimension(false, direction, ownerHeight, ownerWidth), pb)
        } else {
            // §9.2.3 E: size the item as max-content (Yoga: fit-content against a definite
            // owner; `FlexItemSizing.css` and its siblings: max-content in the main axis,
            // `flex-basis: content`).
            let css = sizesLikeCSS(child)
            let offer = measureItemContent(node, child, width, widthMode, height, ownerWidth, ownerHeight, heightMode,
                                           direction, depth, main: sizedLikeCSS ? .maxContent : .yoga)
            var base = cl.pointee.measured(mainAxis)
            // §9.2 step 3: the flex base size ignores the item's min and max; only the
            // hypothetical main size is clamped (where lines are collected), and §9.7 scales
            // shrinking by the unclamped base and counts unfrozen items' free space from it.
            // The measure clamped it, so take the content's size again (Yoga keeps the clamp).
            if css && flags[child].contains(.minOrMax) {
                base = unclampedContentMainSize(child, offer, mainAxis, direction, ownerWidth)
            }
            cl.pointee.computedFlexBasis = maxOrDefined(base, paddingAndBorderForAxis(child, mainAxis, direction, ownerWidth))
        }
        cl.pointee.computedFlexBasisGeneration = generation
    }

    /// Whether `child` is sized as a flex item the CSS way (`FlexItemSizing.css`).
    @inline(__always) func sizesLikeCSS(_ child: Int) -> Bool {
        guard hasMeasureFunc(child), case .custom(_, .css) = contents[child] else { return false }
        return true
    }

    /// CSS Flexbox §4.5: the automatic minimum size of `child` in the main axis of flex container
    /// `node` (what `min-width` / `min-height: auto` computes to), for an item of a container
    /// that lays out its items as CSS does (`sizedLikeCSS`, `FlexContainer.laysOutLikeCSS`);
    /// NaN for every other item (Yoga has none) and where CSS gives none:
    /// a min size the style sets, or an item that is a scroll container (`overflow` not
    /// `visible`, whose automatic minimum is 0). The arguments are `computeFlexBasisForChild`'s.
    /// Also sets the item's `minContentBase`, which every such item has.
    func automaticMinimumSize(_ node: Int, _ child: Int, _ width: Float, _ widthMode: SizingMode,
                              _ height: Float, _ ownerWidth: Float, _ ownerHeight: Float,
                              _ heightMode: SizingMode, _ direction: Direction, _ depth: Int,
                              sizedLikeCSS: Bool) -> Float {
        guard sizedLikeCSS else { return .nan }
        let cs = style(child)
        let isMainAxisRow = style(node).pointee.flexDirection.resolved(direction).isRow
        // The content size suggestion: the min-content main size. In a row, the width at which
        // the content breaks at every opportunity; in a column, the content's height at the
        // item's width (its min-content and max-content heights are the same). The measure
        // clamps it by the item's max size, as §4.5 clamps the result.
        measureItemContent(node, child, width, widthMode, height, ownerWidth, ownerHeight, heightMode, direction, depth,
                           main: isMainAxisRow ? .minContent : .maxContent)
        let contentSize = layouts[child].measured(isMainAxisRow ? .row : .column)
        // The specified size suggestion: a definite main size caps it.
        let mainOwnerSize = isMainAxisRow ? ownerWidth : ownerHeight
        let specified: Float = cs.pointee.hasDefiniteLength(isMainAxisRow, mainOwnerSize)
            ? cs.pointee.resolvedDimension(isMainAxisRow, direction, mainOwnerSize, ownerWidth) : .nan
        // The min-content contribution (CSS Sizing 3 §5.1) starts from the specified size where
        // there is one, whether or not the item has an automatic minimum (Chromium agrees).
        layouts[child].minContentBase = specified.isNaN ? contentSize : specified
        let minimum = isMainAxisRow ? cs.pointee.minWidth : cs.pointee.minHeight
        guard cs.pointee.overflow == .visible, minimum.isUndefined || minimum.isAuto else { return .nan }
        return minOrDefined(contentSize, specified)
    }

    /// Whether an in-flow child of `node` is sized by `FlexItemSizing.css`.
    func holdsItemSizedLikeCSS(_ node: Int) -> Bool {
        var c = firstLayoutChild(node)
        while c >= 0 {
            if sizesLikeCSS(c) && isInFlow(c) { return true }
            c = nextLayoutChild(c, node)
        }
        return false
    }

    /// What `measureItemContent` offers an item in its container's main axis.
    enum ItemMainOffer {
        /// Yoga's: the item's definite size, else the container's main size as an at-most limit.
        case yoga
        /// No limit: the item's max-content main size.
        case maxContent
        /// An at-most limit of 0: the item's min-content main size (content that breaks at
        /// every opportunity and overflows the limit, as text does).
        case minContent
    }

    /// The sizes (margins included) and modes `measureItemContent` offers an item's content:
    /// the cross axis limited by the item's max size, the main axis not.
    struct ItemOffer {
        var width: Float
        var widthMode: SizingMode
        var height: Float
        var heightMode: SizingMode
    }

    /// §9.2 step 3: the main size of `child`'s content under `offer`, not clamped by the item's
    /// min and max (`measureNodeWithMeasureFunc` clamps it). Only for a node with content.
    func unclampedContentMainSize(_ child: Int, _ offer: ItemOffer, _ mainAxis: FlexDirection,
                                  _ direction: Direction, _ ownerWidth: Float) -> Float {
        let width: Float = offer.widthMode == .maxContent ? .nan : offer.width - marginForAxis(child, .row, ownerWidth)
        let height: Float = offer.heightMode == .maxContent ? .nan : offer.height - marginForAxis(child, .column, ownerWidth)
        let size = contentBorderBox(child, width, offer.widthMode, height, offer.heightMode,
                                    paddingAndBorderForAxis(child, .row, direction, ownerWidth),
                                    paddingAndBorderForAxis(child, .column, direction, ownerWidth))
        return mainAxis.isRow ? size.width : size.height
    }

    /// Measures `child` of flex container `node` without laying it out, as §9.2 step 3 E sizes
    /// an item (Yoga's computeFlexBasisForChild): in the cross axis its definite size, the
    /// container's size when it stretches, else fit-content; in the main axis as `main` says.
    /// Leaves the sizes in `child`'s measured width and height; returns what it offered.
    @discardableResult
    func measureItemContent(_ node: Int, _ child: Int, _ width: Float, _ widthMode: SizingMode,
                            _ height: Float, _ ownerWidth: Float, _ ownerHeight: Float,
                            _ heightMode: SizingMode, _ direction: Direction, _ depth: Int,
                            main: ItemMainOffer) -> ItemOffer {
        let ns = style(node)
        let cs = style(child)
        let isMainAxisRow = ns.pointee.flexDirection.resolved(direction).isRow
        let isRowStyleDimDefined = cs.pointee.hasDefiniteLength(true, ownerWidth)
        let isColumnStyleDimDefined = cs.pointee.hasDefiniteLength(false, ownerHeight)
        var childWidth: Float = .nan
        var childHeight: Float = .nan
        var childWidthMode = SizingMode.maxContent
        var childHeightMode = SizingMode.maxContent
        let marginRow = marginForAxis(child, .row, ownerWidth)
        let marginColumn = marginForAxis(child, .column, ownerWidth)

        if isRowStyleDimDefined {
            childWidth = cs.pointee.resolvedDimension(true, direction, ownerWidth, ownerWidth) + marginRow
            childWidthMode = .stretchFit
        }
        if isColumnStyleDimDefined {
            childHeight = cs.pointee.resolvedDimension(false, direction, ownerHeight, ownerWidth) + marginColumn
            childHeightMode = .stretchFit
        }

        // Browsers do not constrain items by a scrolling container's main size.
        let overflow = ns.pointee.overflow
        if (!isMainAxisRow && overflow == .scroll) || overflow != .scroll {
            if childWidth.isNaN && !width.isNaN {
                childWidth = width
                childWidthMode = .fitContent
            }
        }
        if (isMainAxisRow && overflow == .scroll) || overflow != .scroll {
            if childHeight.isNaN && !height.isNaN {
                childHeight = height
                childHeightMode = .fitContent
            }
        }

        let aspectRatio = cs.pointee.resolvedAspectRatio
        if !aspectRatio.isNaN {
            if !isMainAxisRow && childWidthMode == .stretchFit {
                childHeight = marginColumn + (childWidth - marginRow) / aspectRatio
                childHeightMode = .stretchFit
            } else if isMainAxisRow && childHeightMode == .stretchFit {
                childWidth = marginRow + (childHeight - marginColumn) * aspectRatio
                childWidthMode = .stretchFit
            }
        }

        // A stretched item without a cross size is measured at the container's cross size.
        let alignment = childAlignment(node, child)
        let hasExactWidth = !width.isNaN && widthMode == .stretchFit
        let childWidthStretch = alignment == .stretch && childWidthMode != .stretchFit
        if !isMainAxisRow && !isRowStyleDimDefined && hasExactWidth && childWidthStretch {
            childWidth = width
            childWidthMode = .stretchFit
            if !aspectRatio.isNaN {
                childHeight = (childWidth - marginRow) / aspectRatio
                childHeightMode = .stretchFit
            }
        }
        let hasExactHeight = !height.isNaN && heightMode == .stretchFit
        let childHeightStretch = alignment == .stretch && childHeightMode != .stretchFit
        if isMainAxisRow && !isColumnStyleDimDefined && hasExactHeight && childHeightStretch {
            childHeight = height
            childHeightMode = .stretchFit
            if !aspectRatio.isNaN {
                childWidth = (childHeight - marginColumn) * aspectRatio
                childWidthMode = .stretchFit
            }
        }


        // `FlexItemSizing.css` (§9.2 step 3 E, §4.5): the content's own main size, the
        // container's size not limiting it (an aspect ratio still decides the main size from a
        // definite cross size, §9.2 step 3 B).
        let mainFromAspectRatio = !aspectRatio.isNaN && (isMainAxisRow ? childWidthMode : childHeightMode) == .stretchFit
        if main != .yoga && !mainFromAspectRatio {
            let offer: Float = main == .maxContent ? .nan : 0
            let mode: SizingMode = main == .maxContent ? .maxContent : .fitContent
            if isMainAxisRow { (childWidth, childWidthMode) = (offer + marginRow, mode) } else { (childHeight, childHeightMode) = (offer + marginColumn, mode) }
        }
        // The cross axis is offered at most the item's max size.
        if isMainAxisRow {
            constrainMaxSizeForMode(child, direction, .column, ownerHeight, ownerWidth, &childHeightMode, &childHeight)
        } else {
            constrainMaxSizeForMode(child, direction, .row, ownerWidth, ownerWidth, &childWidthMode, &childWidth)
        }
        let offer = ItemOffer(width: childWidth, widthMode: childWidthMode, height: childHeight, heightMode: childHeightMode)
        // So is the main axis when measuring: the measured size is clamped by the max anyway,
        // and the cross size must be the content's at that main size (the measure cache reuses
        // it for an imposed main size equal to it). `unclampedContentMainSize` takes `offer`.
        if isMainAxisRow {
            constrainMaxSizeForMode(child, direction, .row, ownerWidth, ownerWidth, &childWidthMode, &childWidth)
        } else {
            constrainMaxSizeForMode(child, direction, .column, ownerHeight, ownerWidth, &childHeightMode, &childHeight)
        }
        calculateLayoutInternal(child, childWidth, childHeight, direction, childWidthMode, childHeightMode,
                                ownerWidth, ownerHeight, false, depth)
        return offer
    }

    /// §9.2 step 3: every in-flow item's flex base size (its hypothetical main size is the
    /// base clamped by min/max, taken where lines are collected). When the items' outer bases
    /// overflow a wrapping container offered a fit-content main size, Yoga lays it out as if
    /// that size were imposed. Returns the container with its main sizing mode settled.
    @inline(always) func determineFlexBaseSizes(_ container: FlexContainer) -> FlexContainer {
        var flex = container
        let node = flex.node
        flex.laysOutLikeCSS = holdsItemSizedLikeCSS(node)
        var totalMainDim = computeFlexBasisForChildren(flex)
        let childCount = layoutChildCount(node)
        if childCount > 1 {
            totalMainDim += style(node).pointee.gapForAxis(flex.mainAxis, flex.availableInnerMainDim) * Float(childCount - 1)
        }
        flex.mainAxisOverflows = flex.mainMode != .maxContent && totalMainDim > flex.availableInnerMainDim
        if flex.isWrap && flex.mainAxisOverflows && flex.mainMode == .fitContent {
            flex.mainMode = .stretchFit
            // Holding items sized by `FlexItemSizing.css`, the container is CSS's fit-content
            // size: at least its min-content size, for a multi-line container its widest
            // item's outer min-content contribution (§9.9.1, as Chromium computes it).
            let widest = flex.laysOutLikeCSS ? widestMinContentContribution(flex) : 0
            if widest > flex.availableInnerMainDim {
                flex.availableInnerMainDim = widest
                flex.grewToMinContent = true
            }
        }
        return flex
    }

    /// Computes every in-flow child's flex basis (and, when laying out, its initial position);
    /// returns the sum of the bases plus margins.
    func computeFlexBasisForChildren(_ flex: FlexContainer) -> Float {
        let (direction, mainAxis) = (flex.direction, flex.mainAxis)
        let (availableInnerWidth, availableInnerHeight) = (flex.availableInnerWidth, flex.availableInnerHeight)
        let node = flex.node
        var totalOuterFlexBasis: Float = 0
        var singleFlexChild = -1
        let mainMode = flex.mainMode
        let sizedLikeCSS = flex.laysOutLikeCSS
        // A single child that can both grow and shrink in an exact container gets basis 0
        // instead of being measured and then flexed to fill the space anyway.
        if mainMode == .stretchFit {
            var c = firstLayoutChild(node)
            while c >= 0 {
                if isNodeFlexible(c) {
                    if singleFlexChild >= 0 || inexactEquals(resolveFlexGrow(c), 0) || inexactEquals(resolveFlexShrink(c), 0) {
                        singleFlexChild = -1
                        break
                    }
                    singleFlexChild = c
                }
                c = nextLayoutChild(c, node)
            }
        }

        var c = firstLayoutChild(node)
        while c >= 0 {
            defer { c = nextLayoutChild(c, node) }
            let cs = style(c)
            if cs.pointee.display == .none {
                zeroOutLayoutRecursively(c)
                layouts[c].isDirty = false
                continue
            }
            if flex.performLayout {
                // Set the initial position (relative to the owner).
                setPosition(c, resolveDirection(c, direction), availableInnerWidth, availableInnerHeight)
            }
            if cs.pointee.positionType == .absolute { continue }
            // §4.5 first: it measures the item too, and the basis's measurement (step 3 E) must
            // be the last one left in the item's measured size.
            layouts[c].automaticMinimum = automaticMinimumSize(node, c, availableInnerWidth, flex.widthMode,
                                                               availableInnerHeight, availableInnerWidth,
                                                               availableInnerHeight, flex.heightMode, direction, flex.depth,
                                                               sizedLikeCSS: sizedLikeCSS)
            if c == singleFlexChild {
                layouts[c].computedFlexBasisGeneration = generation
                layouts[c].computedFlexBasis = 0
            } else {
                computeFlexBasisForChild(node, c, availableInnerWidth, flex.widthMode, availableInnerHeight,
                                         availableInnerWidth, availableInnerHeight, flex.heightMode, direction, flex.depth,
                                         sizedLikeCSS: sizedLikeCSS)
            }
            totalOuterFlexBasis += layouts[c].computedFlexBasis + marginForAxis(c, mainAxis, availableInnerWidth)
        }
        return totalOuterFlexBasis
    }

    /// `display: none` subtrees get empty frames.
    func zeroOutLayoutRecursively(_ n: Int) {
        resetLayout(n)
        var c = Int(firstChildren[n].index)
        while c >= 0 {
            zeroOutLayoutRecursively(c)
            c = Int(nextSiblings[c].index)
        }
    }

    /// An empty layout. Unlike Yoga, the measured size is 0 too (not undefined), so hidden
    /// nodes never leak NaN into baselines, wrap-reverse or rounding.
    @inline(__always) func resetLayout(_ n: Int) {
        let l = layouts + n
        l.pointee = NodeLayout()
        l.pointee.width = 0
        l.pointee.height = 0
        l.pointee.measuredWidth = 0
        l.pointee.measuredHeight = 0
    }

    /// `display: contents` children of `n` have no box of their own: give them empty layouts.
    func cleanupContentsNodesRecursively(_ n: Int) {
        var c = Int(firstChildren[n].index)
        while c >= 0 {
            if styles[c].display == .contents {
                resetLayout(c)
                layouts[c].isDirty = false
                cleanupContentsNodesRecursively(c)
            }
            c = Int(nextSiblings[c].index)
        }
    }
}
