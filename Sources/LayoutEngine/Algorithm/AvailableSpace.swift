// §9.2 step 2: the available main and cross space of a flex container, with the container's
// axes and padding resolved for the steps after (Yoga's STEP 1 and STEP 2).

extension LayoutPass {
    /// Resolves the container's axes, padding and border and the space inside them that its
    /// items are laid out in. Also records that inner height for the children's vertical
    /// margin percentages.
    @inline(always) func determineAvailableSpace(_ input: LayoutInput, _ direction: Direction) -> FlexContainer {
        let node = input.node
        let ns = style(node)
        let ownerWidth = input.ownerWidth
        let mainAxis = ns.pointee.flexDirection.resolved(direction)
        let crossAxis = mainAxis.crossAxis(direction)
        let isMainAxisRow = mainAxis.isRow
        let paddingAndBorderMain = paddingAndBorderForAxis(node, mainAxis, direction, ownerWidth)
        let paddingAndBorderCross = paddingAndBorderForAxis(node, crossAxis, direction, ownerWidth)
        let leadingPaddingAndBorderCross = flags[node].contains(.paddingOrBorder)
            ? ns.pointee.flexStartPaddingAndBorder(crossAxis, direction, ownerWidth) : 0
        let paddingAndBorderRow = isMainAxisRow ? paddingAndBorderMain : paddingAndBorderCross
        let paddingAndBorderColumn = isMainAxisRow ? paddingAndBorderCross : paddingAndBorderMain

        let availableInnerWidth = calculateAvailableInnerDimension(
            node, direction, true, input.availableWidth, paddingAndBorderRow, ownerWidth, ownerWidth)
        let availableInnerHeight = calculateAvailableInnerDimension(
            node, direction, false, input.availableHeight, paddingAndBorderColumn, input.ownerHeight, ownerWidth)
        layouts[node].marginHeightReference = availableInnerHeight

        return FlexContainer(
            input: input, firstChild: firstLayoutChild(node), direction: direction,
            mainAxis: mainAxis, crossAxis: crossAxis, isWrap: ns.pointee.flexWrap != .noWrap,
            paddingAndBorderMain: paddingAndBorderMain, paddingAndBorderCross: paddingAndBorderCross,
            leadingPaddingAndBorderCross: leadingPaddingAndBorderCross,
            availableInnerWidth: availableInnerWidth, availableInnerHeight: availableInnerHeight,
            availableInnerMainDim: isMainAxisRow ? availableInnerWidth : availableInnerHeight,
            availableInnerCrossDim: isMainAxisRow ? availableInnerHeight : availableInnerWidth,
            mainMode: isMainAxisRow ? input.widthMode : input.heightMode,
            crossMode: isMainAxisRow ? input.heightMode : input.widthMode)
    }

    /// The space inside padding and border on one axis, clamped by min/max.
    @inline(__always) func calculateAvailableInnerDimension(_ node: Int, _ direction: Direction, _ row: Bool,
                                                           _ availableDim: Float, _ paddingAndBorder: Float,
                                                           _ ownerDim: Float, _ ownerWidth: Float) -> Float {
        var availableInnerDim = availableDim - paddingAndBorder
        if !availableInnerDim.isNaN {
            let s = style(node)
            let minDim = s.pointee.resolvedMinDimension(row, direction, ownerDim, ownerWidth)
            let minInnerDim: Float = minDim.isNaN ? 0 : minDim - paddingAndBorder
            let maxDim = s.pointee.resolvedMaxDimension(row, direction, ownerDim, ownerWidth)
            let maxInnerDim: Float = maxDim.isNaN ? .greatestFiniteMagnitude : maxDim - paddingAndBorder
            availableInnerDim = maxOrDefined(minOrDefined(availableInnerDim, maxInnerDim), minInnerDim)
        }
        return availableInnerDim
    }
}
