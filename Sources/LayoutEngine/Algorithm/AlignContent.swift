// §9.6 step 16, align-content: distributes the lines of a container on the cross axis,
// with §9.4 step 9 (align-content: stretch) and baseline alignment across a line, and aligns
// each line's items again within their final line (Yoga's STEP 8).

extension LayoutPass {
    /// §9.6 step 16: distributes the lines by align-content and aligns the items within each
    /// line again. Yoga re-aligns every item here (overwriting the cross positions of step 14)
    /// and re-measures stretched items against their line's final cross size.
    func alignFlexLines(_ flex: FlexContainer, _ lines: FlexLineTotals) {
        let (direction, crossAxis) = (flex.direction, flex.crossAxis)
        let availableInnerWidth = flex.availableInnerWidth
        let node = flex.node
        let ns = style(node)
        let isMainAxisRow = flex.mainAxis.isRow
        let crossIsRow = crossAxis.isRow
        var leadPerLine: Float = 0
        var currentLead = flex.leadingPaddingAndBorderCross
        var extraSpacePerLine: Float = 0

        let unclampedCrossDim: Float
        if flex.crossMode == .stretchFit {
            unclampedCrossDim = flex.availableInnerCrossDim + flex.paddingAndBorderCross
        } else if ns.pointee.hasDefiniteLength(crossIsRow, flex.crossAxisOwnerSize) {
            unclampedCrossDim = ns.pointee.resolvedDimension(crossIsRow, direction, flex.crossAxisOwnerSize, flex.ownerWidth)
        } else {
            unclampedCrossDim = lines.crossDim + flex.paddingAndBorderCross
        }
        let innerCrossDim = boundAxis(node, crossAxis, direction, unclampedCrossDim, flex.crossAxisOwnerSize, flex.ownerWidth)
            - flex.paddingAndBorderCross
        let remaining = innerCrossDim - lines.crossDim
        var alignContent = ns.pointee.alignContent
        if remaining < 0 {
            switch alignContent {
            case .spaceBetween, .stretch, .spaceAround, .spaceEvenly: alignContent = .flexStart
            default: break
            }
        }
        let lineCount = Float(lines.count)
        switch alignContent {
        case .flexEnd: currentLead += remaining
        case .center: currentLead += remaining / 2
        case .stretch: extraSpacePerLine = remaining / lineCount
        case .spaceAround:
            currentLead += remaining / (2 * lineCount)
            leadPerLine = remaining / lineCount
        case .spaceEvenly:
            currentLead += remaining / (lineCount + 1)
            leadPerLine = remaining / (lineCount + 1)
        case .spaceBetween:
            if lines.count > 1 { leadPerLine = remaining / (lineCount - 1) }
        case .auto, .flexStart, .baseline: break
        }

        let crossStart = crossAxis.flexStartEdge
        var endChild = firstLayoutChild(node)
        for i in 0..<lines.count {
            let startChild = endChild
            var c = startChild
            // Find the line's height and its end.
            var lineHeight: Float = 0
            var maxAscent: Float = 0
            var maxDescent: Float = 0
            while c >= 0 {
                defer { c = nextLayoutChild(c, node) }
                let cs = style(c)
                if cs.pointee.display == .none { continue }
                if cs.pointee.positionType == .absolute { continue }
                if layouts[c].lineIndex != Int32(truncatingIfNeeded: i) { break }
                if isLayoutDimensionDefined(c, crossAxis) {
                    lineHeight = maxOrDefined(lineHeight, layouts[c].measured(crossAxis)
                        + marginForAxis(c, crossAxis, availableInnerWidth))
                }
                if childAlignment(node, c) == .baseline {
                    let ascent = calculateBaseline(c, hiddenIsUndefined: true) + cs.pointee.flexStartMargin(.column, direction, marginReference(c, .column, availableInnerWidth))
                    let descent = layouts[c].measuredHeight + marginForAxis(c, .column, availableInnerWidth) - ascent
                    maxAscent = maxOrDefined(maxAscent, ascent)
                    maxDescent = maxOrDefined(maxDescent, descent)
                    lineHeight = maxOrDefined(lineHeight, maxAscent + maxDescent)
                }
            }
            // The loop above advanced one past the breaking child; step back to it.
            endChild = lineEnd(startChild, node, i)
            currentLead += i != 0 ? lines.crossGap : 0
            lineHeight += extraSpacePerLine

            c = startChild
            while c >= 0 && c != endChild {
                defer { c = nextLayoutChild(c, node) }
                let cs = style(c)
                if cs.pointee.display == .none || cs.pointee.positionType == .absolute { continue }
                let cl = layouts + c
                switch childAlignment(node, c) {
                case .flexStart:
                    cl.pointee.position[crossStart] = currentLead
                        + cs.pointee.flexStartPositionForAlign(crossAxis, direction, availableInnerWidth)
                case .flexEnd:
                    cl.pointee.position[crossStart] = currentLead + lineHeight
                        - cs.pointee.flexEndMargin(crossAxis, direction, marginReference(c, crossAxis, availableInnerWidth))
                        - cl.pointee.measured(crossAxis)
                case .center:
                    let childHeight = cl.pointee.measured(crossAxis)
                    cl.pointee.position[crossStart] = currentLead + (lineHeight - childHeight) / 2
                case .stretch:
                    cl.pointee.position[crossStart] = currentLead
                        + cs.pointee.flexStartMargin(crossAxis, direction, marginReference(c, crossAxis, availableInnerWidth))
                    // Re-measure with the line's cross size: it was measured against the owner's.
                    if !cs.pointee.hasDefiniteLength(crossIsRow, flex.availableInnerCrossDim) {
                        let childWidth = isMainAxisRow
                            ? cl.pointee.measuredWidth + marginForAxis(c, flex.mainAxis, availableInnerWidth)
                            : leadPerLine + lineHeight
                        let childHeight = !isMainAxisRow
                            ? cl.pointee.measuredHeight + marginForAxis(c, crossAxis, availableInnerWidth)
                            : leadPerLine + lineHeight
                        if !(inexactEquals(childWidth, cl.pointee.measuredWidth)
                             && inexactEquals(childHeight, cl.pointee.measuredHeight)) {
                            calculateLayoutInternal(c, childWidth, childHeight, direction, .stretchFit, .stretchFit,
                                                    availableInnerWidth, flex.availableInnerHeight, true, flex.depth)
                        }
                    }
                case .baseline:
                    cl.pointee.position.top = currentLead + maxAscent - calculateBaseline(c)
                        + cs.pointee.position(PhysicalEdge.top, direction, flex.availableInnerCrossDim)
                case .auto, .spaceBetween, .spaceAround, .spaceEvenly:
                    break
                }
            }
            currentLead = currentLead + leadPerLine + lineHeight
        }
    }

    /// The first layout child after line `i` that starts another line (-1 at the end).
    private func lineEnd(_ start: Int, _ node: Int, _ i: Int) -> Int {
        var c = start
        while c >= 0 {
            let s = style(c)
            if s.pointee.display != .none && s.pointee.positionType != .absolute && layouts[c].lineIndex != Int32(truncatingIfNeeded: i) {
                return c
            }
            c = nextLayoutChild(c, node)
        }
        return -1
    }
}

extension Style {
    /// Yoga's `computeFlexStartPosition`: the inset on the flex-start edge (0 when unset).
    @inline(__always) func flexStartPositionForAlign(_ axis: FlexDirection, _ direction: Direction, _ axisSize: Float) -> Float {
        position(axis.flexStartEdge, direction, axisSize)
    }
}
