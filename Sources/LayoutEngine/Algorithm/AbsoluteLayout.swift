// Absolutely positioned children (CSS Flexbox §4.1, CSS Position §4): sized from their own
// size or insets, placed by insets or by the container's justify/align (Yoga's
// AbsoluteLayout.cpp). A `position: static` child is no containing block, so its absolute
// descendants are placed against the nearest ancestor that is.

extension LayoutPass {
    @inline(__always) private var excludesPadding: Bool { errata.contains(.absolutePositionWithoutInsetsExcludesPadding) }

    private func setFlexStartLayoutPosition(_ parent: Int, _ child: Int, _ direction: Direction,
                                            _ axis: FlexDirection, _ containingBlockWidth: Float) {
        let edge = axis.flexStartEdge
        var position = styles[child].flexStartMargin(axis, direction, containingBlockWidth) + layouts[parent].border[edge]
        if !excludesPadding { position += layouts[parent].padding[edge] }
        layouts[child].position[edge] = position
    }

    private func setFlexEndLayoutPosition(_ parent: Int, _ child: Int, _ direction: Direction,
                                          _ axis: FlexDirection, _ containingBlockWidth: Float) {
        let edge = axis.flexEndEdge
        var flexEndPosition = layouts[parent].border[edge] + styles[child].flexEndMargin(axis, direction, containingBlockWidth)
        if !excludesPadding { flexEndPosition += layouts[parent].padding[edge] }
        layouts[child].position[axis.flexStartEdge] = positionOfOppositeEdge(flexEndPosition, axis, parent, child)
    }

    private func setCenterLayoutPosition(_ parent: Int, _ child: Int, _ direction: Direction,
                                         _ axis: FlexDirection, _ containingBlockWidth: Float) {
        let pl = layouts[parent]
        let startEdge = axis.flexStartEdge
        let endEdge = axis.flexEndEdge
        var parentContentBoxSize = pl.measured(axis) - pl.border[startEdge] - pl.border[endEdge]
        if !excludesPadding {
            parentContentBoxSize -= pl.padding[startEdge] + pl.padding[endEdge]
        }
        let cs = style(child)
        let childOuterSize = layouts[child].measured(axis) + marginForAxis(child, axis, containingBlockWidth)
        var position = (parentContentBoxSize - childOuterSize) / 2 + pl.border[startEdge]
            + cs.pointee.flexStartMargin(axis, direction, containingBlockWidth)
        if !excludesPadding { position += pl.padding[startEdge] }
        layouts[child].position[startEdge] = position
    }

    private func justifyAbsoluteChild(_ parent: Int, _ child: Int, _ direction: Direction,
                                      _ mainAxis: FlexDirection, _ containingBlockWidth: Float) {
        switch styles[parent].justifyContent {
        case .flexStart, .spaceBetween:
            setFlexStartLayoutPosition(parent, child, direction, mainAxis, containingBlockWidth)
        case .flexEnd:
            setFlexEndLayoutPosition(parent, child, direction, mainAxis, containingBlockWidth)
        case .center, .spaceAround, .spaceEvenly:
            setCenterLayoutPosition(parent, child, direction, mainAxis, containingBlockWidth)
        }
    }

    private func alignAbsoluteChild(_ parent: Int, _ child: Int, _ direction: Direction,
                                    _ crossAxis: FlexDirection, _ containingBlockWidth: Float) {
        var itemAlign = childAlignment(parent, child)
        if styles[parent].flexWrap == .wrapReverse {
            if itemAlign == .flexEnd {
                itemAlign = .flexStart
            } else if itemAlign != .center {
                itemAlign = .flexEnd
            }
        }
        switch itemAlign {
        case .flexEnd:
            setFlexEndLayoutPosition(parent, child, direction, crossAxis, containingBlockWidth)
        case .center:
            setCenterLayoutPosition(parent, child, direction, crossAxis, containingBlockWidth)
        default:
            setFlexStartLayoutPosition(parent, child, direction, crossAxis, containingBlockWidth)
        }
    }

    /// Places an absolute child on one axis: by its inline-start inset, else its inline-end
    /// inset, else the parent's justify-content (main axis) or align-items (cross axis).
    private func positionAbsoluteChild(_ containingNode: Int, _ parent: Int, _ child: Int, _ direction: Direction,
                                       _ axis: FlexDirection, _ isMainAxis: Bool,
                                       _ containingBlockWidth: Float, _ containingBlockHeight: Float) {
        let containingBlockSize = axis.isRow ? containingBlockWidth : containingBlockHeight
        let cs = style(child)
        let inlineStart = axis.inlineStartEdge(direction)
        let inlineEnd = axis.inlineEndEdge(direction)
        if cs.pointee.isPositionDefinite(inlineStart, direction) {
            let relativeToInlineStart = cs.pointee.position(inlineStart, direction, containingBlockSize)
                + styles[containingNode].border(inlineStart, direction)
                + cs.pointee.margin(inlineStart, direction, containingBlockSize)
            let relativeToFlexStart = inlineStart != axis.flexStartEdge
                ? positionOfOppositeEdge(relativeToInlineStart, axis, containingNode, child) : relativeToInlineStart
            layouts[child].position[axis.flexStartEdge] = relativeToFlexStart
        } else if cs.pointee.isPositionDefinite(inlineEnd, direction) {
            let relativeToInlineStart = layouts[containingNode].measured(axis) - layouts[child].measured(axis)
                - styles[containingNode].border(inlineEnd, direction)
                - cs.pointee.margin(inlineEnd, direction, containingBlockSize)
                - cs.pointee.position(inlineEnd, direction, containingBlockSize)
            let relativeToFlexStart = inlineStart != axis.flexStartEdge
                ? positionOfOppositeEdge(relativeToInlineStart, axis, containingNode, child) : relativeToInlineStart
            layouts[child].position[axis.flexStartEdge] = relativeToFlexStart
        } else if isMainAxis {
            justifyAbsoluteChild(parent, child, direction, axis, containingBlockWidth)
        } else {
            alignAbsoluteChild(parent, child, direction, axis, containingBlockWidth)
        }
    }

    /// An absolute child's outer size on the physical `axis` (.row or .column): its definite
    /// size plus `margin`, or without one, the containing block's inner size between both
    /// insets, clamped by min/max; NaN when neither is known.
    @inline(__always) private func absoluteChildSize(_ containingNode: Int, _ child: Int, _ axis: FlexDirection,
                                                     _ direction: Direction, _ containingBlockSize: Float,
                                                     _ containingBlockWidth: Float, _ margin: Float) -> Float {
        let cs = style(child)
        let row = axis.isRow
        if cs.pointee.hasDefiniteLength(row, containingBlockSize) {
            return cs.pointee.resolvedDimension(row, direction, containingBlockSize, containingBlockWidth) + margin
        }
        let startEdge: PhysicalEdge = row ? .left : .top
        let endEdge: PhysicalEdge = row ? .right : .bottom
        guard cs.pointee.isPositionDefinite(startEdge, direction) && cs.pointee.isPositionDefinite(endEdge, direction) else {
            return .nan
        }
        // No size: stretch between the two insets.
        let containing = style(containingNode)
        let size = layouts[containingNode].measured(axis)
            - (containing.pointee.border(startEdge, direction) + containing.pointee.border(endEdge, direction))
            - (cs.pointee.position(startEdge, direction, containingBlockSize)
               + cs.pointee.position(endEdge, direction, containingBlockSize))
        return boundAxis(child, axis, direction, size, containingBlockSize, containingBlockWidth)
    }

    /// Sizes and places one absolute child of `node` against `containingNode`'s padding box.
    func layoutAbsoluteChild(_ containingNode: Int, _ node: Int, _ child: Int,
                             _ containingBlockWidth: Float, _ containingBlockHeight: Float,
                             _ widthMode: SizingMode, _ direction: Direction, _ depth: Int) {
        let mainAxis = styles[node].flexDirection.resolved(direction)
        let crossAxis = mainAxis.crossAxis(direction)
        let isMainAxisRow = mainAxis.isRow
        let cs = style(child)
        let marginRow = marginForAxis(child, .row, containingBlockWidth)
        let marginColumn = marginForAxis(child, .column, containingBlockWidth)

        var childWidth = absoluteChildSize(containingNode, child, .row, direction, containingBlockWidth,
                                           containingBlockWidth, marginRow)
        var childHeight = absoluteChildSize(containingNode, child, .column, direction, containingBlockHeight,
                                            containingBlockWidth, marginColumn)

        // With exactly one size known, the aspect ratio gives the other.
        let aspectRatio = cs.pointee.resolvedAspectRatio
        if childWidth.isNaN != childHeight.isNaN && !aspectRatio.isNaN {
            if childWidth.isNaN {
                childWidth = marginRow + (childHeight - marginColumn) * aspectRatio
            } else {
                childHeight = marginColumn + (childWidth - marginRow) / aspectRatio
            }
        }

        // Still missing a size: measure the content.
        if childWidth.isNaN || childHeight.isNaN {
            var childWidthMode: SizingMode = childWidth.isNaN ? .maxContent : .stretchFit
            let childHeightMode: SizingMode = childHeight.isNaN ? .maxContent : .stretchFit
            // Let text wrap at the containing block's width, as browsers do.
            if !isMainAxisRow && childWidth.isNaN && widthMode != .maxContent
                && !containingBlockWidth.isNaN && containingBlockWidth > 0 {
                childWidth = containingBlockWidth
                childWidthMode = .fitContent
            }
            calculateLayoutInternal(child, childWidth, childHeight, direction, childWidthMode, childHeightMode,
                                    containingBlockWidth, containingBlockHeight, false, depth)
            childWidth = layouts[child].measuredWidth + marginRow
            childHeight = layouts[child].measuredHeight + marginColumn
        }

        calculateLayoutInternal(child, childWidth, childHeight, direction, .stretchFit, .stretchFit,
                                containingBlockWidth, containingBlockHeight, true, depth)
        positionAbsoluteChild(containingNode, node, child, direction, mainAxis, true,
                              containingBlockWidth, containingBlockHeight)
        positionAbsoluteChild(containingNode, node, child, direction, crossAxis, false,
                              containingBlockWidth, containingBlockHeight)
    }

    /// §4.1 for a laid-out container: when it is a containing block (positioned, or the root)
    /// it lays out its absolute descendants, through its `position: static` children.
    @inline(always) func layoutAbsoluteChildren(_ flex: FlexContainer) {
        let node = flex.node
        if styles[node].positionType != .static || flex.depth == 1 {
            layoutAbsoluteDescendants(node, node, flex.widthMode, flex.direction, flex.depth,
                                      0, 0, flex.availableInnerWidth, flex.availableInnerHeight)
        }
    }

    /// Lays out the absolute children of `currentNode` against `containingNode`, descending
    /// through `position: static` children, which form no containing block.
    func layoutAbsoluteDescendants(_ containingNode: Int, _ currentNode: Int, _ widthMode: SizingMode,
                                   _ currentNodeDirection: Direction, _ depth: Int,
                                   _ currentLeftOffset: Float, _ currentTopOffset: Float,
                                   _ containingAvailableInnerWidth: Float, _ containingAvailableInnerHeight: Float) {
        var child = firstLayoutChild(currentNode)
        while child >= 0 {
            defer { child = nextLayoutChild(child, currentNode) }
            let cs = style(child)
            if cs.pointee.display == .none { continue }
            if cs.pointee.positionType == .absolute {
                let percentAgainstInner = errata.contains(.absolutePercentAgainstInnerSize)
                let cbWidth = percentAgainstInner ? containingAvailableInnerWidth
                    : layouts[containingNode].measuredWidth - styles[containingNode].borderForAxis(.row)
                let cbHeight = percentAgainstInner ? containingAvailableInnerHeight
                    : layouts[containingNode].measuredHeight - styles[containingNode].borderForAxis(.column)
                layoutAbsoluteChild(containingNode, currentNode, child, cbWidth, cbHeight, widthMode,
                                    currentNodeDirection, depth)

                // The child is placed on the parent's flex-start edges; positions from insets are
                // relative to the containing block and must become relative to the parent.
                let parentMainAxis = styles[currentNode].flexDirection.resolved(currentNodeDirection)
                let parentCrossAxis = parentMainAxis.crossAxis(currentNodeDirection)
                if parentMainAxis.needsTrailingPosition {
                    let insets = parentMainAxis.isRow ? cs.pointee.horizontalInsetsDefined : cs.pointee.verticalInsetsDefined
                    setChildTrailingPosition(insets ? containingNode : currentNode, child, parentMainAxis)
                }
                if parentCrossAxis.needsTrailingPosition {
                    let insets = parentCrossAxis.isRow ? cs.pointee.horizontalInsetsDefined : cs.pointee.verticalInsetsDefined
                    setChildTrailingPosition(insets ? containingNode : currentNode, child, parentCrossAxis)
                }
                let cl = layouts + child
                if cs.pointee.horizontalInsetsDefined { cl.pointee.position.left -= currentLeftOffset }
                if cs.pointee.verticalInsetsDefined { cl.pointee.position.top -= currentTopOffset }
            } else if cs.pointee.positionType == .static {
                cleanupContentsNodesRecursively(child)
                let childDirection = resolveDirection(child, currentNodeDirection)
                layoutAbsoluteDescendants(containingNode, child, widthMode, childDirection, depth + 1,
                                          currentLeftOffset + layouts[child].position.left,
                                          currentTopOffset + layouts[child].position.top,
                                          containingAvailableInnerWidth, containingAvailableInnerHeight)
            }
        }
    }
}
