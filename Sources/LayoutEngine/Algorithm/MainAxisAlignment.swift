// §9.5 main-axis alignment: justify-content, auto margins and gaps; and the line's cross size
// from its items (§9.4 step 8), including baseline-aligned items (Yoga's justifyMainAxis).

extension LayoutPass {
    /// §9.5 step 12 for one line: places its items along the main axis (adding to the
    /// positions step 3 set) and measures the line: `mainDim` (padding and border included)
    /// and `crossDim`, the largest outer cross size of its items (§9.4 step 8).
    func justifyMainAxis(_ flex: FlexContainer, _ line: inout FlexLine) {
        let (direction, mainAxis, crossAxis) = (flex.direction, flex.mainAxis, flex.crossAxis)
        let availableInnerWidth = flex.availableInnerWidth
        let node = flex.node
        let ns = style(node)
        let hasPaddingOrBorder = flags[node].contains(.paddingOrBorder)
        let leadingPaddingAndBorderMain = hasPaddingOrBorder
            ? ns.pointee.flexStartPaddingAndBorder(mainAxis, direction, flex.ownerWidth) : 0
        let trailingPaddingAndBorderMain = hasPaddingOrBorder
            ? ns.pointee.flexEndPaddingAndBorder(mainAxis, direction, flex.ownerWidth) : 0
        let gap = ns.pointee.gapForAxis(mainAxis, line.availableInnerMainDim)
        let mainIsRow = mainAxis.isRow

        // Under at-most sizing, free space is 0 unless a min size asks for more.
        if flex.mainMode == .fitContent && line.remainingFreeSpace > 0 {
            let minValue = mainIsRow ? ns.pointee.minWidth : ns.pointee.minHeight
            let resolvedMin = ns.pointee.resolvedMinDimension(mainIsRow, direction, flex.mainAxisOwnerSize, flex.ownerWidth)
            if !minValue.isUndefined && !resolvedMin.isNaN {
                let minAvailableMainDim = resolvedMin - leadingPaddingAndBorderMain - trailingPaddingAndBorderMain
                let occupiedSpaceByChildNodes = line.availableInnerMainDim - line.remainingFreeSpace
                line.remainingFreeSpace = maxOrDefined(0, minAvailableMainDim - occupiedSpaceByChildNodes)
            } else {
                line.remainingFreeSpace = 0
            }
        }

        var leadingMainDim: Float = 0
        var betweenMainDim = gap
        var justify = ns.pointee.justifyContent
        if line.remainingFreeSpace < 0 {
            // Overflow falls back to flex-start for the distributed alignments.
            if justify == .spaceBetween || justify == .spaceAround || justify == .spaceEvenly { justify = .flexStart }
        }
        if line.numberOfAutoMargins == 0 {
            let free = line.remainingFreeSpace
            let items = Float(line.itemCount)
            switch justify {
            case .center: leadingMainDim = free / 2
            case .flexEnd: leadingMainDim = free
            case .spaceBetween:
                if line.itemCount > 1 { betweenMainDim += free / (items - 1) }
            case .spaceEvenly:
                leadingMainDim = free / (items + 1)
                betweenMainDim += leadingMainDim
            case .spaceAround:
                // A line of only hidden or absolute children has no items: Yoga's
                // justifyMainAxis (CalculateLayout.cpp, `case Justify::SpaceAround`) divides
                // by `itemsInFlow.size()` == 0, so free space > 0 makes the content size
                // infinite. boundAxis clamps that to a max size (copied here); without one
                // the infinity reaches the owner (its flex basis, then a 0 × ∞ shrink
                // factor), which we do not copy: the space is left unused instead.
                if line.itemCount > 0 {
                    leadingMainDim = 0.5 * free / items
                    betweenMainDim += leadingMainDim * 2
                } else if free > 0 && ns.pointee.resolvedMaxDimension(
                    mainIsRow, direction, flex.mainAxisOwnerSize, flex.ownerWidth) >= 0 {
                    leadingMainDim = .infinity
                }
            case .flexStart: break
            }
        }

        line.mainDim = leadingPaddingAndBorderMain + leadingMainDim
        line.crossDim = 0
        var maxAscent: Float = 0
        var maxDescent: Float = 0
        let isNodeBaselineLayout = isBaselineLayout(node)
        let startEdge = mainAxis.flexStartEdge

        // Yoga counts auto margins under the owner's direction but applies them under the
        // node's; when the two disagree the count can be 0 here, and Yoga divides by it.
        let autoMarginsCounted = line.numberOfAutoMargins > 0
        var c = nextItem(line, after: -1, node)
        while c >= 0 {
            let cs = style(c)
            let cl = layouts + c
            if autoMarginsCounted && cs.pointee.flexStartMarginIsAuto(mainAxis, direction) && line.remainingFreeSpace > 0 {
                line.mainDim += line.remainingFreeSpace / Float(line.numberOfAutoMargins)
            }
            if flex.performLayout {
                cl.pointee.position[startEdge] = cl.pointee.position[startEdge] + line.mainDim
            }
            if c != line.lastItem { line.mainDim += betweenMainDim }
            if autoMarginsCounted && cs.pointee.flexEndMarginIsAuto(mainAxis, direction) && line.remainingFreeSpace > 0 {
                line.mainDim += line.remainingFreeSpace / Float(line.numberOfAutoMargins)
            }
            if flex.canSkipFlex {
                // Measured dimensions were not computed; use the basis (on a line that
                // `resolvesLikeCSS`, the §9.7 target).
                line.mainDim += marginForAxis(c, mainAxis, availableInnerWidth)
                    + (line.resolvesLikeCSS ? cl.pointee.flexTarget : cl.pointee.computedFlexBasis)
                line.crossDim = flex.availableInnerCrossDim
            } else {
                line.mainDim += dimensionWithMargin(c, mainAxis, availableInnerWidth)
                if isNodeBaselineLayout {
                    // The line's cross size is the largest ascent plus the largest descent.
                    let ascent = calculateBaseline(c, hiddenIsUndefined: true) + cs.pointee.flexStartMargin(.column, direction, marginReference(c, .column, availableInnerWidth))
                    let descent = cl.pointee.measuredHeight + marginForAxis(c, .column, availableInnerWidth) - ascent
                    maxAscent = maxOrDefined(maxAscent, ascent)
                    maxDescent = maxOrDefined(maxDescent, descent)
                } else {
                    line.crossDim = maxOrDefined(line.crossDim, dimensionWithMargin(c, crossAxis, availableInnerWidth))
                }
            }
            c = nextItem(line, after: c, node)
        }
        line.mainDim += trailingPaddingAndBorderMain
        // The container's size is CSS's fit-content size, not its items' extent.
        if !line.fitContentMainSize.isNaN {
            line.mainDim = leadingPaddingAndBorderMain + line.fitContentMainSize + trailingPaddingAndBorderMain
        }
        if isNodeBaselineLayout { line.crossDim = maxAscent + maxDescent }
    }
}
