// §9.4 step 11 (stretch) and §9.6 cross-axis alignment of items within a line, and
// §9.6 step 15 align-content across lines (Yoga's STEP 7 and STEP 8).

/// The container values the cross-axis steps share.
struct ContainerAxes {
    var mainAxis: FlexDirection
    var crossAxis: FlexDirection
    var direction: Direction
    var availableInnerWidth: Float
    var availableInnerHeight: Float
    var availableInnerMainDim: Float
    var availableInnerCrossDim: Float
    var isNodeFlexWrap: Bool
}

extension LayoutPass {
    /// STEP 7: stretch or align each item of one line on the cross axis.
    func alignItemsInLine(_ node: Int, _ line: FlexLine, _ axes: ContainerAxes,
                          _ leadingPaddingAndBorderCross: Float, _ containerCrossAxis: Float,
                          _ totalLineCrossDim: Float, _ depth: Int) {
        let ns = style(node)
        let mainAxis = axes.mainAxis
        let crossAxis = axes.crossAxis
        let direction = axes.direction
        let isMainAxisRow = mainAxis.isRow
        let crossStart = crossAxis.flexStartEdge
        var c = nextItem(line, after: -1, node)
        while c >= 0 {
            defer { c = nextItem(line, after: c, node) }
            let cs = style(c)
            let cl = layouts + c
            var leadingCrossDim = leadingPaddingAndBorderCross
            let alignItem = childAlignment(node, c)
            let startAuto = cs.pointee.flexStartMarginIsAuto(crossAxis, direction)
            let endAuto = cs.pointee.flexEndMarginIsAuto(crossAxis, direction)

            if alignItem == .stretch && !startAuto && !endAuto {
                // §9.4 step 11: re-lay out a stretched item at the line's cross size, unless
                // it has a definite cross size of its own.
                if !cs.pointee.hasDefiniteLength(crossAxis.isRow, axes.availableInnerCrossDim) {
                    var childMainSize = cl.pointee.measured(mainAxis)
                    let aspectRatio = cs.pointee.resolvedAspectRatio
                    var childCrossSize = !aspectRatio.isNaN
                        ? marginForAxis(c, crossAxis, axes.availableInnerWidth)
                            + (isMainAxisRow ? childMainSize / aspectRatio : childMainSize * aspectRatio)
                        : line.crossDim
                    childMainSize += marginForAxis(c, mainAxis, axes.availableInnerWidth)

                    var childMainMode = SizingMode.stretchFit
                    var childCrossMode = SizingMode.stretchFit
                    constrainMaxSizeForMode(c, direction, mainAxis, axes.availableInnerMainDim, axes.availableInnerWidth,
                                            &childMainMode, &childMainSize)
                    constrainMaxSizeForMode(c, direction, crossAxis, axes.availableInnerCrossDim, axes.availableInnerWidth,
                                            &childCrossMode, &childCrossSize)
                    let childWidth = isMainAxisRow ? childMainSize : childCrossSize
                    let childHeight = !isMainAxisRow ? childMainSize : childCrossSize
                    let crossAxisDoesNotGrow = ns.pointee.alignContent != .stretch && axes.isNodeFlexWrap
                    let childWidthMode: SizingMode = childWidth.isNaN || (!isMainAxisRow && crossAxisDoesNotGrow)
                        ? .maxContent : .stretchFit
                    let childHeightMode: SizingMode = childHeight.isNaN || (isMainAxisRow && crossAxisDoesNotGrow)
                        ? .maxContent : .stretchFit
                    calculateLayoutInternal(c, childWidth, childHeight, direction, childWidthMode, childHeightMode,
                                            axes.availableInnerWidth, axes.availableInnerHeight, true, depth)
                }
            } else {
                let remainingCrossDim = containerCrossAxis - dimensionWithMargin(c, crossAxis, axes.availableInnerWidth)
                if startAuto && endAuto {
                    leadingCrossDim += maxOrDefined(0, remainingCrossDim / 2)
                } else if endAuto {
                    // Pushed to the start.
                } else if startAuto {
                    leadingCrossDim += maxOrDefined(0, remainingCrossDim)
                } else if alignItem == .flexStart {
                    // Already at the start.
                } else if alignItem == .center {
                    leadingCrossDim += remainingCrossDim / 2
                } else {
                    leadingCrossDim += remainingCrossDim
                }
            }
            cl.pointee.position[crossStart] = cl.pointee.position[crossStart] + totalLineCrossDim + leadingCrossDim
        }
    }

    /// STEP 8: distribute lines by align-content and align items within each line again.
    func alignContent(_ node: Int, _ axes: ContainerAxes, _ lineCount: Int, _ crossMode: SizingMode,
                      _ leadingPaddingAndBorderCross: Float, _ paddingAndBorderAxisCross: Float,
                      _ crossAxisOwnerSize: Float, _ ownerWidth: Float, _ totalLineCrossDim: Float,
                      _ crossAxisGap: Float, _ depth: Int) {
        let ns = style(node)
        let crossAxis = axes.crossAxis
        let direction = axes.direction
        let isMainAxisRow = axes.mainAxis.isRow
        let crossIsRow = crossAxis.isRow
        var leadPerLine: Float = 0
        var currentLead = leadingPaddingAndBorderCross
        var extraSpacePerLine: Float = 0

        let unclampedCrossDim: Float
        if crossMode == .stretchFit {
            unclampedCrossDim = axes.availableInnerCrossDim + paddingAndBorderAxisCross
        } else if ns.pointee.hasDefiniteLength(crossIsRow, crossAxisOwnerSize) {
            unclampedCrossDim = ns.pointee.resolvedDimension(crossIsRow, direction, crossAxisOwnerSize, ownerWidth)
        } else {
            unclampedCrossDim = totalLineCrossDim + paddingAndBorderAxisCross
        }
        let innerCrossDim = boundAxis(node, crossAxis, direction, unclampedCrossDim, crossAxisOwnerSize, ownerWidth)
            - paddingAndBorderAxisCross
        let remaining = innerCrossDim - totalLineCrossDim
        var alignContent = ns.pointee.alignContent
        if remaining < 0 {
            switch alignContent {
            case .spaceBetween, .stretch, .spaceAround, .spaceEvenly: alignContent = .flexStart
            default: break
            }
        }
        let lines = Float(lineCount)
        switch alignContent {
        case .flexEnd: currentLead += remaining
        case .center: currentLead += remaining / 2
        case .stretch: extraSpacePerLine = remaining / lines
        case .spaceAround:
            currentLead += remaining / (2 * lines)
            leadPerLine = remaining / lines
        case .spaceEvenly:
            currentLead += remaining / (lines + 1)
            leadPerLine = remaining / (lines + 1)
        case .spaceBetween:
            if lineCount > 1 { leadPerLine = remaining / (lines - 1) }
        case .auto, .flexStart, .baseline: break
        }

        let crossStart = crossAxis.flexStartEdge
        var endChild = firstLayoutChild(node)
        for i in 0..<lineCount {
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
                        + marginForAxis(c, crossAxis, axes.availableInnerWidth))
                }
                if childAlignment(node, c) == .baseline {
                    let ascent = calculateBaseline(c) + cs.pointee.flexStartMargin(.column, direction, marginReference(c, .column, axes.availableInnerWidth))
                    let descent = layouts[c].measuredHeight + marginForAxis(c, .column, axes.availableInnerWidth) - ascent
                    maxAscent = maxOrDefined(maxAscent, ascent)
                    maxDescent = maxOrDefined(maxDescent, descent)
                    lineHeight = maxOrDefined(lineHeight, maxAscent + maxDescent)
                }
            }
            // The loop above advanced one past the breaking child; step back to it.
            endChild = lineEnd(startChild, node, i)
            currentLead += i != 0 ? crossAxisGap : 0
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
                        + cs.pointee.flexStartPositionForAlign(crossAxis, direction, axes.availableInnerWidth)
                case .flexEnd:
                    cl.pointee.position[crossStart] = currentLead + lineHeight
                        - cs.pointee.flexEndMargin(crossAxis, direction, marginReference(c, crossAxis, axes.availableInnerWidth))
                        - cl.pointee.measured(crossAxis)
                case .center:
                    let childHeight = cl.pointee.measured(crossAxis)
                    cl.pointee.position[crossStart] = currentLead + (lineHeight - childHeight) / 2
                case .stretch:
                    cl.pointee.position[crossStart] = currentLead
                        + cs.pointee.flexStartMargin(crossAxis, direction, marginReference(c, crossAxis, axes.availableInnerWidth))
                    // Re-measure with the line's cross size: it was measured against the owner's.
                    if !cs.pointee.hasDefiniteLength(crossIsRow, axes.availableInnerCrossDim) {
                        let childWidth = isMainAxisRow
                            ? cl.pointee.measuredWidth + marginForAxis(c, axes.mainAxis, axes.availableInnerWidth)
                            : leadPerLine + lineHeight
                        let childHeight = !isMainAxisRow
                            ? cl.pointee.measuredHeight + marginForAxis(c, crossAxis, axes.availableInnerWidth)
                            : leadPerLine + lineHeight
                        if !(inexactEquals(childWidth, cl.pointee.measuredWidth)
                             && inexactEquals(childHeight, cl.pointee.measuredHeight)) {
                            calculateLayoutInternal(c, childWidth, childHeight, direction, .stretchFit, .stretchFit,
                                                    axes.availableInnerWidth, axes.availableInnerHeight, true, depth)
                        }
                    }
                case .baseline:
                    cl.pointee.position.top = currentLead + maxAscent - calculateBaseline(c)
                        + cs.pointee.position(PhysicalEdge.top, direction, axes.availableInnerCrossDim)
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
