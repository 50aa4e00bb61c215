// §9.2 step 4 and §9.6 step 15: the flex container's main and cross size (Yoga's STEP 5
// preamble and STEP 9).

extension LayoutPass {
    /// §9.2 step 4, as Yoga does it: line by line. Without a definite main size (stretch-fit)
    /// the container takes its line's content size, clamped by min/max; the free space left
    /// for the line's items follows from it.
    @inline(always) func determineMainSize(_ flex: FlexContainer, _ line: inout FlexLine) {
        let node = flex.node
        let offeredMainDim = line.availableInnerMainDim
        var sizeBasedOnContent = false
        if flex.mainMode != .stretchFit {
            let ns = style(node)
            let (direction, ownerWidth, ownerHeight) = (flex.direction, flex.ownerWidth, flex.ownerHeight)
            let minInnerWidth = ns.pointee.resolvedMinDimension(true, direction, ownerWidth, ownerWidth) - flex.paddingAndBorderRow
            let maxInnerWidth = ns.pointee.resolvedMaxDimension(true, direction, ownerWidth, ownerWidth) - flex.paddingAndBorderRow
            let minInnerHeight = ns.pointee.resolvedMinDimension(false, direction, ownerHeight, ownerWidth)
                - flex.paddingAndBorderColumn
            let maxInnerHeight = ns.pointee.resolvedMaxDimension(false, direction, ownerHeight, ownerWidth)
                - flex.paddingAndBorderColumn
            let minInnerMainDim = flex.isMainAxisRow ? minInnerWidth : minInnerHeight
            let maxInnerMainDim = flex.isMainAxisRow ? maxInnerWidth : maxInnerHeight
            if !minInnerMainDim.isNaN && line.sizeConsumed < minInnerMainDim {
                line.availableInnerMainDim = minInnerMainDim
            } else if !maxInnerMainDim.isNaN && line.sizeConsumed > maxInnerMainDim {
                line.availableInnerMainDim = maxInnerMainDim
            } else {
                let useLegacyStretchBehaviour = errata.contains(.stretchFlexBasis)
                if !useLegacyStretchBehaviour
                    && ((!line.totalFlexGrowFactors.isNaN && line.totalFlexGrowFactors == 0)
                        || resolveFlexGrow(node) == 0) {
                    // Nothing can grow: the space used is all the space needed.
                    line.availableInnerMainDim = line.sizeConsumed
                }
                sizeBasedOnContent = !useLegacyStretchBehaviour
            }
        }
        if !sizeBasedOnContent && !line.availableInnerMainDim.isNaN {
            line.remainingFreeSpace = line.availableInnerMainDim - line.sizeConsumed
        } else if line.sizeConsumed < 0 {
            // Content-sized with negative consumption: the node allocates 0 for its content.
            line.remainingFreeSpace = -line.sizeConsumed
        }
        // A line with items sized by `FlexItemSizing.css`: CSS sizes a fit-content container
        // (§9.2 step 4) as min(max-content, max(min-content, available)) (CSS Sizing 3 §5.1;
        // the max-content main size is the line's outer hypothetical sizes, §9.9.1) and
        // shrinks its items into that (§9.7): no larger than the space offered, nor smaller
        // than its min-content size. Yoga's container takes its items' sizes instead and never
        // shrinks them, as their bases were measured in at most that space; these items' bases
        // are max-content.
        if sizeBasedOnContent && line.resolvesLikeCSS && flex.mainMode == .fitContent
            && line.sizeConsumed > offeredMainDim {
            let room = maxOrDefined(offeredMainDim, minContentMainSize(flex, line, offeredMainDim))
            line.availableInnerMainDim = room
            line.remainingFreeSpace = room - line.sizeConsumed
            line.fitContentMainSize = room
        }
    }

    /// §9.9.1 (as Chromium computes it for a single line): the min-content main size of
    /// `line`, the sum of its items' outer min-content contributions and the gaps between
    /// them. Every item contributes its definite main size, else its min-content size, clamped
    /// by its min and max (CSS Sizing 3 §5.1), whether it can shrink or not and whatever its
    /// automatic minimum (as Chromium does). Only for a line of a container that
    /// `laysOutLikeCSS` (its items' `minContentBase` is set). Percentages resolve against
    /// `mainSpace`, the space offered.
    func minContentMainSize(_ flex: FlexContainer, _ line: FlexLine, _ mainSpace: Float) -> Float {
        let node = flex.node
        var size = style(node).pointee.gapForAxis(flex.mainAxis, mainSpace) * Float(max(0, line.itemCount - 1))
        var c = nextItem(line, after: -1, node)
        while c >= 0 {
            size += minContentContribution(flex, c, mainSpace)
            c = nextItem(line, after: c, node)
        }
        return size
    }

    /// The largest outer min-content contribution (see `minContentMainSize`) of the in-flow
    /// items of a container that `laysOutLikeCSS`.
    func widestMinContentContribution(_ flex: FlexContainer) -> Float {
        var widest: Float = 0
        var c = firstLayoutChild(flex.node)
        while c >= 0 {
            if isInFlow(c) {
                widest = max(widest, minContentContribution(flex, c, flex.availableInnerMainDim))
            }
            c = nextLayoutChild(c, flex.node)
        }
        return widest
    }

    /// Item `c`'s outer min-content contribution, as `minContentMainSize` says; percentages
    /// against `mainSpace`.
    @inline(__always) func minContentContribution(_ flex: FlexContainer, _ c: Int, _ mainSpace: Float) -> Float {
        let (mainAxis, direction) = (flex.mainAxis, flex.direction)
        return boundAxis(c, mainAxis, direction, layouts[c].minContentBase, mainSpace, flex.availableInnerWidth)
            + marginForAxis(c, mainAxis, flex.availableInnerWidth)
    }

    /// §9.2 step 4 and §9.6 step 15, after all lines: the container's used size. An imposed
    /// size is kept (clamped by min/max); otherwise the longest line decides the main size and
    /// the lines' cross sizes the cross size. A scroll container offered a fit-content size
    /// takes its content's size only up to the space offered (Yoga's rule, not the spec's).
    @inline(always) func determineContainerSize(_ flex: FlexContainer, _ lines: FlexLineTotals) {
        let node = flex.node
        let nl = layouts + node
        nl.pointee.measuredWidth = boundAxis(node, .row, flex.direction, flex.input.availableWidth, flex.ownerWidth, flex.ownerWidth)
        nl.pointee.measuredHeight = boundAxis(node, .column, flex.direction, flex.input.availableHeight, flex.ownerHeight, flex.ownerWidth)
        let overflow = style(node).pointee.overflow
        if flex.grewToMinContent {
            // Step 3 found the container's min-content size larger than the space offered.
            nl.pointee.setMeasured(flex.mainAxis, boundAxis(node, flex.mainAxis, flex.direction,
                                                            flex.availableInnerMainDim + flex.paddingAndBorderMain,
                                                            flex.mainAxisOwnerSize, flex.ownerWidth))
        } else if flex.mainMode == .maxContent || (overflow != .scroll && flex.mainMode == .fitContent) {
            // Size by content, clamped by min/max and never below padding and border.
            nl.pointee.setMeasured(flex.mainAxis, boundAxis(node, flex.mainAxis, flex.direction, lines.maxMainDim,
                                                       flex.mainAxisOwnerSize, flex.ownerWidth))
        } else if flex.mainMode == .fitContent && overflow == .scroll {
            nl.pointee.setMeasured(flex.mainAxis, maxOrDefined(
                minOrDefined(lines.availableInnerMainDim + flex.paddingAndBorderMain,
                             boundAxisWithinMinAndMax(node, flex.direction, flex.mainAxis, lines.maxMainDim,
                                                      flex.mainAxisOwnerSize, flex.ownerWidth)),
                flex.paddingAndBorderMain))
        }
        if flex.crossMode == .maxContent || (overflow != .scroll && flex.crossMode == .fitContent) {
            nl.pointee.setMeasured(flex.crossAxis, boundAxis(node, flex.crossAxis, flex.direction,
                                                             lines.crossDim + flex.paddingAndBorderCross,
                                                             flex.crossAxisOwnerSize, flex.ownerWidth))
        } else if flex.crossMode == .fitContent && overflow == .scroll {
            nl.pointee.setMeasured(flex.crossAxis, maxOrDefined(
                minOrDefined(flex.availableInnerCrossDim + flex.paddingAndBorderCross,
                             boundAxisWithinMinAndMax(node, flex.direction, flex.crossAxis, lines.crossDim + flex.paddingAndBorderCross,
                                                      flex.crossAxisOwnerSize, flex.ownerWidth)),
                flex.paddingAndBorderCross))
        }
    }
}
