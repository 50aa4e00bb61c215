// The flexbox algorithm for one container (Yoga's calculateLayoutImpl), one call per step of
// CSS Flexbox §9 (https://www.w3.org/TR/css-flexbox-1/#layout-algorithm). Yoga runs steps 4–14
// line by line rather than each over all lines, and its sizing modes stand for the spec's
// definite and indefinite sizes (§9.8); where a step does Yoga's thing rather than the
// spec's, its comment says so. Sizes include padding and border but not margins.
//
// When an available size is undefined (NaN) its sizing mode must be `.maxContent`.

extension LayoutPass {
    func calculateLayoutImpl(_ node: Int, _ availableWidth: Float, _ availableHeight: Float,
                             _ ownerDirection: Direction,
                             _ widthMode: SizingMode, _ heightMode: SizingMode,
                             _ ownerWidth: Float, _ ownerHeight: Float,
                             _ performLayout: Bool, _ depth: Int) {
        let direction = resolveDirection(node, ownerDirection)
        layouts[node].direction = direction
        let margins = resolveBoxModel(node, direction, ownerWidth)
        let input = LayoutInput(node: node, availableWidth: availableWidth - margins.row,
                                availableHeight: availableHeight - margins.column,
                                widthMode: widthMode, heightMode: heightMode,
                                ownerWidth: ownerWidth, ownerHeight: ownerHeight, ownerDirection: ownerDirection,
                                performLayout: performLayout, depth: depth)

        // 9.1 Initial setup: generate anonymous flex items.
        // https://www.w3.org/TR/css-flexbox-1/#algo-anon-box
        // Yoga has no anonymous boxes: a node with content or without layout children is sized
        // as a leaf, and `display: contents` children are flattened into their parent's items.
        if sizeWithoutFlexLayout(input, direction) { return }
        layoutFlexContainer(input, direction)
    }

    /// CSS Flexbox §9 for one flex container: sizes it and, when laying out, places its items.
    /// Kept out of line so the steps below inline into it (the leaf path above stays short).
    /// The once-per-container steps are `@inline(always)` (SE-0496, Swift 6.3): Swift treats
    /// `@inline(__always)` as a hint and left some of them as calls, which cost speed.
    @inline(never) func layoutFlexContainer(_ input: LayoutInput, _ direction: Direction) {
        let node = input.node
        layouts[node].hadOverflow = false
        cleanupContentsNodesRecursively(node)

        // 9.2 Line length determination, step 2: determine the available main and cross space.
        // https://www.w3.org/TR/css-flexbox-1/#algo-available
        let available = determineAvailableSpace(input, direction)

        // 9.2 step 3: determine the flex base size and hypothetical main size of each item.
        // https://www.w3.org/TR/css-flexbox-1/#algo-main-item
        let flex = determineFlexBaseSizes(available)

        // 9.2 step 4 to 9.6 step 14, once per line: Yoga finishes a line before it collects the next.
        var lines = FlexLineTotals(crossGap: style(node).pointee.gapForAxis(flex.crossAxis, flex.availableInnerCrossDim),
                                   availableInnerMainDim: flex.availableInnerMainDim)
        var lineStart = flex.firstChild
        while lineStart >= 0 {
            lineStart = layoutFlexLine(flex, &lines, from: lineStart)
        }
        // 9.4 step 10 (visibility: collapse) has no counterpart: Yoga has no such value.

        // 9.6 step 16: align all flex lines per align-content, with
        // 9.4 step 9: handle align-content: stretch, and baseline alignment across lines.
        // https://www.w3.org/TR/css-flexbox-1/#algo-line-align
        // https://www.w3.org/TR/css-flexbox-1/#algo-line-stretch
        if flex.performLayout && (flex.isWrap || isBaselineLayout(node)) {
            alignFlexLines(flex, lines)
        }

        // 9.2 step 4 and 9.6 step 15: determine the flex container's used main and cross size.
        // https://www.w3.org/TR/css-flexbox-1/#algo-cross-container
        determineContainerSize(flex, lines)

        guard flex.performLayout else { return }
        // 9.1 (flex-wrap: wrap-reverse): lines were placed from cross-start; mirror them.
        // https://www.w3.org/TR/css-flexbox-1/#flex-wrap-property
        if style(node).pointee.flexWrap == .wrapReverse {
            reverseWrappedLines(flex)
        }
        // Items of reversed axes get their far-edge positions (Yoga's trailing positions).
        setTrailingPositions(flex)

        // 4.1 Absolutely-positioned flex children.
        // https://www.w3.org/TR/css-flexbox-1/#abspos-items
        layoutAbsoluteChildren(flex)
    }

    /// Steps 4 to 14 for the line that starts at the layout child `start`: collects it, sizes
    /// and places its items and adds it to `lines`. Returns the first child of the next line
    /// (-1 after the last). Kept out of line so that its steps inline into it.
    @inline(never) func layoutFlexLine(_ flex: FlexContainer, _ lines: inout FlexLineTotals, from start: Int) -> Int {
        // 9.3 Main size determination, step 5: collect flex items into flex lines.
        // https://www.w3.org/TR/css-flexbox-1/#algo-line-break
        var line = collectFlexLine(flex, lines, from: start)

        // 9.2 step 4: determine the main size of the flex container.
        // https://www.w3.org/TR/css-flexbox-1/#algo-main-container
        determineMainSize(flex, &line)

        // 9.3 step 6: resolve the flexible lengths of the line's items (§9.7), and
        // 9.4 step 7: determine the hypothetical cross size of each item by laying it out.
        // https://www.w3.org/TR/css-flexbox-1/#algo-flex
        // https://www.w3.org/TR/css-flexbox-1/#algo-cross-item
        resolveFlexibleLengths(flex, &line)

        // 9.5 Main-axis alignment, step 12: distribute any remaining free space
        // (auto margins, justify-content, gaps); and 9.4 step 8's measure of the line's
        // items, baselines included.
        // https://www.w3.org/TR/css-flexbox-1/#algo-main-align
        justifyMainAxis(flex, &line)

        // 9.4 Cross size determination, step 8: calculate the cross size of the line.
        // https://www.w3.org/TR/css-flexbox-1/#algo-cross-line
        let alignmentCrossSize = determineLineCrossSize(flex, &line)

        // 9.4 step 11: determine the used cross size of each item (stretch), and
        // 9.6 Cross-axis alignment, steps 13–14: cross-axis auto margins and align-self.
        // https://www.w3.org/TR/css-flexbox-1/#algo-stretch
        // https://www.w3.org/TR/css-flexbox-1/#algo-cross-margins
        // https://www.w3.org/TR/css-flexbox-1/#algo-cross-align
        if flex.performLayout {
            alignItemsInLine(flex, line, alignmentCrossSize, lines.crossDim)
        }
        lines.add(line)
        return line.end
    }
}
