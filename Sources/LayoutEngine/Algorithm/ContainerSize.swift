// §9.2 step 4 and §9.6 step 15: the flex container's main and cross size (Yoga's STEP 5
// preamble and STEP 9).

extension LayoutPass {
    /// §9.2 step 4, as Yoga does it: line by line. Without a definite main size (stretch-fit)
    /// the container takes its line's content size, clamped by min/max; the free space left
    /// for the line's items follows from it.
    @inline(__always) func determineMainSize(_ flex: inout FlexContainer, _ line: inout FlexLine) {
        let node = flex.node
        var sizeBasedOnContent = false
        if flex.mainMode != .stretchFit {
            let ns = style(node)
            let direction = flex.direction
            let ownerWidth = flex.ownerWidth
            let ownerHeight = flex.ownerHeight
            let minInnerWidth = ns.pointee.resolvedMinDimension(true, direction, ownerWidth, ownerWidth) - flex.paddingAndBorderRow
            let maxInnerWidth = ns.pointee.resolvedMaxDimension(true, direction, ownerWidth, ownerWidth) - flex.paddingAndBorderRow
            let minInnerHeight = ns.pointee.resolvedMinDimension(false, direction, ownerHeight, ownerWidth) - flex.paddingAndBorderColumn
            let maxInnerHeight = ns.pointee.resolvedMaxDimension(false, direction, ownerHeight, ownerWidth) - flex.paddingAndBorderColumn
            let minInnerMainDim = flex.isMainAxisRow ? minInnerWidth : minInnerHeight
            let maxInnerMainDim = flex.isMainAxisRow ? maxInnerWidth : maxInnerHeight
            if !minInnerMainDim.isNaN && line.sizeConsumed < minInnerMainDim {
                flex.availableInnerMainDim = minInnerMainDim
            } else if !maxInnerMainDim.isNaN && line.sizeConsumed > maxInnerMainDim {
                flex.availableInnerMainDim = maxInnerMainDim
            } else {
                let useLegacyStretchBehaviour = errata.contains(.stretchFlexBasis)
                if !useLegacyStretchBehaviour
                    && ((!line.totalFlexGrowFactors.isNaN && line.totalFlexGrowFactors == 0)
                        || resolveFlexGrow(node) == 0) {
                    // Nothing can grow: the space used is all the space needed.
                    flex.availableInnerMainDim = line.sizeConsumed
                }
                sizeBasedOnContent = !useLegacyStretchBehaviour
            }
        }
        if !sizeBasedOnContent && !flex.availableInnerMainDim.isNaN {
            line.remainingFreeSpace = flex.availableInnerMainDim - line.sizeConsumed
        } else if line.sizeConsumed < 0 {
            // Content-sized with negative consumption: the node allocates 0 for its content.
            line.remainingFreeSpace = -line.sizeConsumed
        }
    }

    /// §9.2 step 4 and §9.6 step 15, after all lines: the container's used size. An imposed
    /// size is kept (clamped by min/max); otherwise the longest line decides the main size and
    /// the lines' cross sizes the cross size. A scroll container offered a fit-content size
    /// takes its content's size only up to the space offered (Yoga's rule, not the spec's).
    @inline(__always) func determineContainerSize(_ flex: FlexContainer, _ lines: FlexLineTotals) {
        let node = flex.node
        let nl = layouts + node
        let direction = flex.direction
        let ownerWidth = flex.ownerWidth
        let mainAxis = flex.mainAxis
        let crossAxis = flex.crossAxis
        let mainMode = flex.mainMode
        let crossMode = flex.crossMode
        let paddingAndBorderMain = flex.paddingAndBorderMain
        let paddingAndBorderCross = flex.paddingAndBorderCross
        nl.pointee.measuredWidth = boundAxis(node, .row, direction, flex.request.availableWidth, ownerWidth, ownerWidth)
        nl.pointee.measuredHeight = boundAxis(node, .column, direction, flex.request.availableHeight, flex.ownerHeight, ownerWidth)
        let overflow = style(node).pointee.overflow
        if mainMode == .maxContent || (overflow != .scroll && mainMode == .fitContent) {
            // Size by content, clamped by min/max and never below padding and border.
            nl.pointee.setMeasured(mainAxis, boundAxis(node, mainAxis, direction, lines.maxMainDim,
                                                       flex.mainAxisOwnerSize, ownerWidth))
        } else if mainMode == .fitContent && overflow == .scroll {
            nl.pointee.setMeasured(mainAxis, maxOrDefined(
                minOrDefined(flex.availableInnerMainDim + paddingAndBorderMain,
                             boundAxisWithinMinAndMax(node, direction, mainAxis, lines.maxMainDim,
                                                      flex.mainAxisOwnerSize, ownerWidth)),
                paddingAndBorderMain))
        }
        if crossMode == .maxContent || (overflow != .scroll && crossMode == .fitContent) {
            nl.pointee.setMeasured(crossAxis, boundAxis(node, crossAxis, direction, lines.crossDim + paddingAndBorderCross,
                                                        flex.crossAxisOwnerSize, ownerWidth))
        } else if crossMode == .fitContent && overflow == .scroll {
            nl.pointee.setMeasured(crossAxis, maxOrDefined(
                minOrDefined(flex.availableInnerCrossDim + paddingAndBorderCross,
                             boundAxisWithinMinAndMax(node, direction, crossAxis, lines.crossDim + paddingAndBorderCross,
                                                      flex.crossAxisOwnerSize, ownerWidth)),
                paddingAndBorderCross))
        }
    }
}
