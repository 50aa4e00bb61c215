// Sizing leaves: nodes with content measured by a hook, empty nodes, and containers whose
// size is already fixed by their constraints (Yoga's measureNode* functions).

extension LayoutPass {
    /// Sizes a node that is no flex container and returns true: one with content (measured by
    /// its hook, its children placed by the model's placement hook), one without layout
    /// children, or, when only measuring, one whose size its constraints fix. Returns false
    /// for a container the flex algorithm must lay out.
    @inline(always) func sizeWithoutFlexLayout(_ input: LayoutInput, _ direction: Direction) -> Bool {
        let node = input.node
        if hasMeasureFunc(node) {
            measureNodeWithMeasureFunc(input, direction)
            cleanupContentsNodesRecursively(node)
            if input.performLayout && firstChildren[node].index >= 0 {
                placeChildrenOfMeasuredNode(node, direction, input.depth)
            }
            return true
        }
        if firstLayoutChild(node) < 0 {
            measureNodeWithoutChildren(input, direction)
            cleanupContentsNodesRecursively(node)
            return true
        }
        // When only measuring, a container whose size is already known need not be visited.
        if !input.performLayout && measureNodeWithFixedSize(input, direction) {
            cleanupContentsNodesRecursively(node)
            return true
        }
        return false
    }

    /// Sizes a node with content through its measure hook.
    func measureNodeWithMeasureFunc(_ input: LayoutInput, _ direction: Direction) {
        let (n, widthMode, heightMode) = (input.node, input.widthMode, input.heightMode)
        let (ownerWidth, ownerHeight) = (input.ownerWidth, input.ownerHeight)
        let availableWidthIn = input.availableWidth
        let availableHeightIn = input.availableHeight
        let availableWidth: Float = widthMode == .maxContent ? .nan : availableWidthIn
        let availableHeight: Float = heightMode == .maxContent ? .nan : availableHeightIn
        let l = layouts + n
        let pbRow = l.pointee.padding.left + l.pointee.padding.right + l.pointee.border.left + l.pointee.border.right
        let pbColumn = l.pointee.padding.top + l.pointee.padding.bottom + l.pointee.border.top + l.pointee.border.bottom

        var size = contentBorderBox(n, availableWidth, widthMode, availableHeight, heightMode, pbRow, pbColumn)
        let width = boundAxis(n, .row, direction, size.width, ownerWidth, ownerWidth)
        // A leaf sized by `FlexItemSizing.css` whose min or max width overrode its content's
        // width lays its content out at the width it got, as CSS does (text wider than its
        // `max-width` wraps within it); the measure cache reuses this height for that width
        // imposed. Yoga keeps the height measured at the content's own width.
        if width != size.width && heightMode != .stretchFit && sizesLikeCSS(n) {
            size.height = contentBorderBox(n, width, .stretchFit, availableHeight, heightMode, pbRow, pbColumn).height
        }
        l.pointee.measuredWidth = width
        l.pointee.measuredHeight = boundAxis(n, .column, direction, size.height, ownerHeight, ownerWidth)
    }

    /// The border box a node with content takes when offered `availableWidth` and
    /// `availableHeight` (its margins taken out; NaN under `.maxContent`): an imposed size as
    /// offered, otherwise the hook's answer plus padding and border (`pbRow`, `pbColumn`).
    /// Not yet clamped by the node's min and max (nor floored at its padding and border).
    func contentBorderBox(_ n: Int, _ availableWidth: Float, _ widthMode: SizingMode,
                          _ availableHeight: Float, _ heightMode: SizingMode, _ pbRow: Float, _ pbColumn: Float) -> Size {
        // Both sizes are imposed: no need to measure the content.
        if widthMode == .stretchFit && heightMode == .stretchFit {
            return Size(width: availableWidth, height: availableHeight)
        }
        // Never offer a negative size to the hook.
        let innerWidth = availableWidth.isNaN ? availableWidth : maxOrDefined(0, availableWidth - pbRow)
        let innerHeight = availableHeight.isNaN ? availableHeight : maxOrDefined(0, availableHeight - pbColumn)
        var size = measureContent(n, innerWidth, widthMode.measureMode, innerHeight, heightMode.measureMode)
        // A hook's NaN, infinite or negative answer counts as 0 (Yoga clamps only NaN/negative).
        if !size.width.isFinite || size.width < 0 { size.width = 0 }
        if !size.height.isFinite || size.height < 0 { size.height = 0 }
        return Size(width: widthMode == .stretchFit ? availableWidth : size.width + pbRow,
                    height: heightMode == .stretchFit ? availableHeight : size.height + pbColumn)
    }

    /// Calls the measure hook that fits the node's content.
    func measureContent(_ n: Int, _ width: Float, _ widthMode: MeasureMode,
                        _ height: Float, _ heightMode: MeasureMode) -> Size {
        switch contents[n] {
        case .none:
            return .zero
        case .fixed(let size):
            return Size(width: Self.fit(size.width, width, widthMode), height: Self.fit(size.height, height, heightMode))
        case .benchmarkLeaf(let size):
            return Size(width: widthMode == .undefined ? size.width : width,
                        height: heightMode == .undefined ? size.height : height)
        case .intrinsicText(let text):
            return IntrinsicText.measure(text, column: styles[n].flexDirection == .column,
                                         width, widthMode, height, heightMode)
        case .custom:
            guard let measureFunction else { return .zero }
            return measureFunction(NodeID(n), width, widthMode, height, heightMode)
        case .constraints(let container):
            return measureConstraintContainer(n, container, width, widthMode, height, heightMode)
        case .proportional(let size):
            return size.measure(width, widthMode, height, heightMode)
        }
    }

    @inline(__always) static func fit(_ natural: Float, _ offered: Float, _ mode: MeasureMode) -> Float {
        switch mode {
        case .exactly: return offered
        case .atMost: return minOrDefined(natural, offered)
        case .undefined: return natural
        }
    }

    /// A node with no children: padding and border, or the imposed size.
    func measureNodeWithoutChildren(_ input: LayoutInput, _ direction: Direction) {
        let (n, widthMode, heightMode) = (input.node, input.widthMode, input.heightMode)
        let (ownerWidth, ownerHeight) = (input.ownerWidth, input.ownerHeight)
        let (availableWidth, availableHeight) = (input.availableWidth, input.availableHeight)
        let l = layouts + n
        var width = availableWidth
        if widthMode == .maxContent || widthMode == .fitContent {
            width = l.pointee.padding.left + l.pointee.padding.right + l.pointee.border.left + l.pointee.border.right
        }
        l.pointee.measuredWidth = boundAxis(n, .row, direction, width, ownerWidth, ownerWidth)
        var height = availableHeight
        if heightMode == .maxContent || heightMode == .fitContent {
            height = l.pointee.padding.top + l.pointee.padding.bottom + l.pointee.border.top + l.pointee.border.bottom
        }
        l.pointee.measuredHeight = boundAxis(n, .column, direction, height, ownerHeight, ownerWidth)
    }

    @inline(__always) static func isFixedSize(_ dim: Float, _ mode: SizingMode) -> Bool {
        mode == .stretchFit || (!dim.isNaN && mode == .fitContent && dim <= 0)
    }

    /// When only measuring and both sizes are fixed, the children need not be visited.
    func measureNodeWithFixedSize(_ input: LayoutInput, _ direction: Direction) -> Bool {
        let (n, widthMode, heightMode) = (input.node, input.widthMode, input.heightMode)
        let (ownerWidth, ownerHeight) = (input.ownerWidth, input.ownerHeight)
        let (availableWidth, availableHeight) = (input.availableWidth, input.availableHeight)
        guard Self.isFixedSize(availableWidth, widthMode) && Self.isFixedSize(availableHeight, heightMode) else {
            return false
        }
        // Yoga sizes a node offered at most 0 at 0, but CSS sizes a fit-content box at least at
        // its min-content size: that of text inside it (`FlexItemSizing.css`; how
        // `automaticMinimumSize` measures an item's min-content size).
        if (widthMode == .fitContent || heightMode == .fitContent) && subtreeHoldsItemSizedLikeCSS(n) {
            return false
        }
        let w: Float = availableWidth.isNaN || (widthMode == .fitContent && availableWidth < 0) ? 0 : availableWidth
        let h: Float = availableHeight.isNaN || (heightMode == .fitContent && availableHeight < 0) ? 0 : availableHeight
        layouts[n].measuredWidth = boundAxis(n, .row, direction, w, ownerWidth, ownerWidth)
        layouts[n].measuredHeight = boundAxis(n, .column, direction, h, ownerHeight, ownerWidth)
        return true
    }

    /// Whether a descendant of `n` is sized by `FlexItemSizing.css`; found once per layout call.
    func subtreeHoldsItemSizedLikeCSS(_ n: Int) -> Bool {
        let l = layouts + n
        if l.pointee.holdsCSSItemGeneration == generation { return l.pointee.subtreeHoldsCSSItem }
        var holds = false
        var c = Int(firstChildren[n].index)
        while c >= 0 && !holds {
            holds = sizesLikeCSS(c) || subtreeHoldsItemSizedLikeCSS(c)
            c = Int(nextSiblings[c].index)
        }
        l.pointee.subtreeHoldsCSSItem = holds
        l.pointee.holdsCSSItemGeneration = generation
        return holds
    }
}

/// Yoga's test text measurer: every character a 10×10 box, words split on single spaces.
enum IntrinsicText {
    static let charSize: Float = 10

    static func measure(_ text: String, column: Bool, _ width: Float, _ widthMode: MeasureMode,
                        _ height: Float, _ heightMode: MeasureMode) -> Size {
        let textWidth = Float(text.utf8.count) * charSize
        let measuredWidth: Float
        switch widthMode {
        case .exactly: measuredWidth = width
        case .atMost: measuredWidth = Swift.min(textWidth, width)
        case .undefined: measuredWidth = textWidth
        }
        let measuredHeight: Float
        switch heightMode {
        case .exactly:
            measuredHeight = height
        case .atMost:
            let wrap = column ? measuredWidth : Swift.max(longestWordWidth(text), measuredWidth)
            measuredHeight = Swift.min(lineHeight(text, wrap), height)
        case .undefined:
            let wrap = column ? measuredWidth : Swift.max(longestWordWidth(text), measuredWidth)
            measuredHeight = lineHeight(text, wrap)
        }
        return Size(width: measuredWidth, height: measuredHeight)
    }

    static func longestWordWidth(_ text: String) -> Float {
        var longest = 0
        var current = 0
        for byte in text.utf8 {
            if byte == 0x20 {
                longest = Swift.max(longest, current)
                current = 0
            } else {
                current += 1
            }
        }
        return Float(Swift.max(longest, current)) * charSize
    }

    static func lineHeight(_ text: String, _ wrapWidth: Float) -> Float {
        if Float(text.utf8.count) * charSize <= wrapWidth { return charSize }
        var lines: Float = 1
        var lineLength: Float = 0
        var wordLength = 0
        var bytes = text.utf8.makeIterator()
        while true {
            let byte = bytes.next()
            if let byte, byte != 0x20 {
                wordLength += 1
                continue
            }
            // Like C++ getline: text ending in a space has no empty last word.
            if byte == nil && wordLength == 0 { break }
            let word = Float(wordLength) * charSize
            if word > wrapWidth {
                if lineLength > 0 { lines += 1 }
                lines += 1
                lineLength = 0
            } else if lineLength + word <= wrapWidth {
                lineLength += word + charSize
            } else {
                lines += 1
                lineLength = word + charSize
            }
            wordLength = 0
            if byte == nil { break }
        }
        return (lineLength == 0 ? lines - 1 : lines) * charSize
    }
}
