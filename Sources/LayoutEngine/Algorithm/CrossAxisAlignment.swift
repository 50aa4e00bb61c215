// §9.4 step 11 (stretch) and §9.6 steps 13–14, cross-axis alignment of the items within a
// line (Yoga's STEP 7).

extension LayoutPass {
    /// §9.4 step 11 and §9.6 steps 13–14 for one line: re-lays out stretched items at the
    /// line's cross size, then places every item on the cross axis by its auto margins or
    /// align-self within `alignmentCrossSize`, below the lines before (`linesCrossDim`).
    func alignItemsInLine(_ flex: FlexContainer, _ line: FlexLine, _ alignmentCrossSize: Float,
                          _ linesCrossDim: Float) {
        let (direction, mainAxis, crossAxis) = (flex.direction, flex.mainAxis, flex.crossAxis)
        let (availableInnerWidth, availableInnerHeight) = (flex.availableInnerWidth, flex.availableInnerHeight)
        let node = flex.node
        let ns = style(node)
        let isMainAxisRow = mainAxis.isRow
        let crossStart = crossAxis.flexStartEdge
        var c = nextItem(line, after: -1, node)
        while c >= 0 {
            defer { c = nextItem(line, after: c, node) }
            let cs = style(c)
            let cl = layouts + c
            var leadingCrossDim = flex.leadingPaddingAndBorderCross
            let alignItem = childAlignment(node, c)
            let startAuto = cs.pointee.flexStartMarginIsAuto(crossAxis, direction)
            let endAuto = cs.pointee.flexEndMarginIsAuto(crossAxis, direction)

            if alignItem == .stretch && !startAuto && !endAuto {
                // §9.4 step 11: re-lay out a stretched item at the line's cross size, unless
                // it has a definite cross size of its own.
                if !cs.pointee.hasDefiniteLength(crossAxis.isRow, flex.availableInnerCrossDim) {
                    var childMainSize = cl.pointee.measured(mainAxis)
                    let aspectRatio = cs.pointee.resolvedAspectRatio
                    var childCrossSize = !aspectRatio.isNaN
                        ? marginForAxis(c, crossAxis, availableInnerWidth)
                            + (isMainAxisRow ? childMainSize / aspectRatio : childMainSize * aspectRatio)
                        : line.crossDim
                    childMainSize += marginForAxis(c, mainAxis, availableInnerWidth)

                    var childMainMode = SizingMode.stretchFit
                    var childCrossMode = SizingMode.stretchFit
                    constrainMaxSizeForMode(c, direction, mainAxis, line.availableInnerMainDim, availableInnerWidth,
                                            &childMainMode, &childMainSize)
                    constrainMaxSizeForMode(c, direction, crossAxis, flex.availableInnerCrossDim, availableInnerWidth,
                                            &childCrossMode, &childCrossSize)
                    let childWidth = isMainAxisRow ? childMainSize : childCrossSize
                    let childHeight = !isMainAxisRow ? childMainSize : childCrossSize
                    let crossAxisDoesNotGrow = ns.pointee.alignContent != .stretch && flex.isWrap
                    let childWidthMode: SizingMode = childWidth.isNaN || (!isMainAxisRow && crossAxisDoesNotGrow)
                        ? .maxContent : .stretchFit
                    let childHeightMode: SizingMode = childHeight.isNaN || (isMainAxisRow && crossAxisDoesNotGrow)
                        ? .maxContent : .stretchFit
                    calculateLayoutInternal(c, childWidth, childHeight, direction, childWidthMode, childHeightMode,
                                            availableInnerWidth, availableInnerHeight, true, flex.depth)
                }
            } else {
                let remainingCrossDim = alignmentCrossSize - dimensionWithMargin(c, crossAxis, availableInnerWidth)
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
            cl.pointee.position[crossStart] = cl.pointee.position[crossStart] + linesCrossDim + leadingCrossDim
        }
    }
}
