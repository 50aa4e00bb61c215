import Testing
import LayoutEngine

/// `FlexItemSizing.css`, the flex sizing the service gives text leaves: a flex basis of
/// max-content (CSS Flexbox §9.2 step 3 E) and an automatic minimum size of min-content (§4.5),
/// against Yoga's (an at-most basis, no automatic minimum) for the same leaves sized `.yoga`.
/// The leaves are measured by a hook that breaks words of fixed widths greedily, 10 px a line,
/// as text breaks at spaces: min-content is the widest word, max-content all words in one line.
@Suite struct CSSFlexItemSizingTests {
    /// Word widths by tag.
    static let words: [[Float]] = [[40, 30, 50], [60, 60], [84, 65], [63, 63, 63, 63, 63, 82], [154, 154, 19]]

    /// Lines of `words` broken greedily in `width` (every word on a line of its own when wider).
    static func measure(_ words: [Float], _ width: Float, _ mode: MeasureMode) -> Size {
        let limit = mode == .undefined ? Float.infinity : width
        var lines: Float = 0, line: Float = 0, widest: Float = 0
        for word in words {
            if line > 0 && line + word > limit {
                lines += 1
                widest = max(widest, line)
                line = 0
            }
            line += word
        }
        lines += 1
        widest = max(widest, line)
        return Size(width: mode == .exactly ? width : widest, height: lines * 10)
    }

    /// Measures `tree`'s leaves (built before the call) by `measure`, their tag choosing the words.
    static func measureWords(in tree: inout LayoutTree) {
        tree.measureFunction = { [tree] node, width, widthMode, _, _ in
            guard case .custom(let tag, _) = tree.content(of: node) else { return .zero }
            return measure(words[tag], width, widthMode)
        }
    }

    /// A container of `style` holding leaves of the given tags, each of `leafStyle` (or its
    /// own), all sized `sizing`; laid out in `available`. Returns the leaves' frames.
    static func layout(_ style: Style, _ tags: [Int], sizing: FlexItemSizing, leafStyles: [Style]? = nil,
                       available: AvailableSize = AvailableSize()) throws -> [Frame] {
        var tree = LayoutTree(config: LayoutConfig(pointScaleFactor: 0))
        let root = try tree.addNode(style: style)
        var leaves: [NodeID] = []
        for (i, tag) in tags.enumerated() {
            var leafStyle = leafStyles?[i] ?? Style()
            if leafStyle.flexShrink == nil { leafStyle.flexShrink = 1 }
            let leaf = try tree.addNode(style: leafStyle, content: .custom(tag: tag, flexSizing: sizing))
            tree.appendChild(leaf, to: root)
            leaves.append(leaf)
        }
        measureWords(in: &tree)
        tree.computeLayout(root: root, available: available)
        return leaves.map { tree.frame(of: $0) }
    }

    static func row(width: Float? = nil) -> Style {
        var style = Style()
        style.flexDirection = .row
        style.alignItems = .flexStart
        if let width { style.width = .points(width) }
        return style
    }

    static func close(_ a: Float, _ b: Float) -> Bool { abs(a - b) < 0.001 }

    @Test func shrinkingTextStopsAtItsMinContentWidth() throws {
        // Bases 120 and 120 in 100 px: shared equally, 50 each, but the second's longest word
        // is 60 wide: it freezes there and the first shrinks to its own longest word, 50.
        let css = try Self.layout(Self.row(width: 100), [0, 1], sizing: .css)
        #expect(css.map(\.width) == [50, 60])
        #expect(css[1].left == 50)
        #expect(css.map(\.height) == [30, 20])
        // Yoga's way: bases measured at most 100 wide (70 and 60), shrunk by 30 in that ratio.
        let yoga = try Self.layout(Self.row(width: 100), [0, 1], sizing: .yoga)
        #expect(Self.close(yoga[0].width, 70 - 30 * 70 / 130) && Self.close(yoga[1].width, 60 - 30 * 60 / 130))
    }

    @Test func theBasisIsTheMaxContentWidth() throws {
        var leaf = Style()
        leaf.flexShrink = 0
        // Not shrinking, the item keeps its basis: one line of 120 px, past the 100 px row.
        let css = try Self.layout(Self.row(width: 100), [0], sizing: .css, leafStyles: [leaf])
        #expect(css[0].width == 120 && css[0].height == 10)
        // Yoga measures the basis at most the row's width: two lines, 70 wide.
        let yoga = try Self.layout(Self.row(width: 100), [0], sizing: .yoga, leafStyles: [leaf])
        #expect(yoga[0].width == 70 && yoga[0].height == 20)
        // Room enough: max-content in both.
        #expect(try Self.layout(Self.row(width: 300), [0, 1], sizing: .css).map(\.width) == [120, 120])
    }

    @Test func minWidthOrOverflowLetsTextShrinkBelowMinContent() throws {
        var zero = Style()
        zero.minWidth = .points(0)
        var hidden = Style()
        hidden.overflow = .hidden
        for styles in [[zero, zero], [hidden, hidden]] {
            // No automatic minimum: the equal bases shrink equally, 50 each.
            #expect(try Self.layout(Self.row(width: 100), [0, 1], sizing: .css, leafStyles: styles).map(\.width) == [50, 50])
        }
        // Only the second: it shrinks to 50, the first stops at its 50 px word.
        #expect(try Self.layout(Self.row(width: 100), [0, 1], sizing: .css, leafStyles: [Style(), zero]).map(\.width) == [50, 50])
        var min55 = Style()
        min55.minWidth = .points(55)
        // An explicit min replaces the automatic one (55, not the 60 px word).
        #expect(try Self.layout(Self.row(width: 100), [0, 1], sizing: .css, leafStyles: [zero, min55]).map(\.width) == [45, 55])
    }

    @Test func explicitSizesWinAsInCSS() throws {
        // A definite width is the basis and caps the automatic minimum (the specified size
        // suggestion): 30 px, not the 50 px word; the other item takes the rest.
        var narrow = Style()
        narrow.width = .points(30)
        #expect(try Self.layout(Self.row(width: 100), [0, 1], sizing: .css, leafStyles: [narrow, Style()]).map(\.width) == [30, 70])
        // flex: 1 (basis 0) grows both to 40, below their words: both freeze at min-content.
        var flexible = Style()
        flexible.flexGrow = 1
        flexible.flexBasis = .points(0)
        let grown = try Self.layout(Self.row(width: 80), [0, 1], sizing: .css, leafStyles: [flexible, flexible])
        #expect(grown.map(\.width) == [50, 60])
        // Yoga gives them 40 each.
        #expect(try Self.layout(Self.row(width: 80), [0, 1], sizing: .yoga, leafStyles: [flexible, flexible]).map(\.width) == [40, 40])
    }

    @Test func aLineWithTextResolvesFlexibleLengthsAsCSSDoes() throws {
        // Bases 149, 397 and 327 in 480 px. The first item's share (81.8) is below its 84 px
        // word, so it freezes at 84 and the others share the rest by their bases. Yoga's two
        // passes would also freeze the third (against a running total of the factors) and
        // then size every item from its basis again, leaving the line 50 px overfull.
        let frames = try Self.layout(Self.row(width: 480), [2, 3, 4], sizing: .css)
        let free: Float = 480 - 84 - 397 - 327
        #expect(frames[0].width == 84)
        #expect(Self.close(frames[1].width, 397 + free * 397 / 724))
        #expect(Self.close(frames[2].width, 327 + free * 327 / 724))
        #expect(Self.close(frames.map(\.width).reduce(0, +), 480))
    }

    @Test func aContentSizedRowShrinksItsTextIntoTheSpaceOffered() throws {
        // A row with no width in a 200 px column (alignItems flex-start: fit-content): CSS makes
        // it 200 px wide and shrinks the 120 px items into it; they are not below their words.
        var tree = LayoutTree(config: LayoutConfig(pointScaleFactor: 0))
        var columnStyle = Style()
        columnStyle.width = .points(200)
        columnStyle.alignItems = .flexStart
        let column = try tree.addNode(style: columnStyle)
        let row = try tree.addNode(style: Self.row())
        tree.appendChild(row, to: column)
        var leafStyle = Style()
        leafStyle.flexShrink = 1
        let a = try tree.addNode(style: leafStyle, content: .custom(tag: 0, flexSizing: .css))
        let b = try tree.addNode(style: leafStyle, content: .custom(tag: 1, flexSizing: .css))
        tree.appendChild(a, to: row)
        tree.appendChild(b, to: row)
        tree.measureFunction = { [tree] node, width, widthMode, _, _ in
            guard case .custom(let tag, _) = tree.content(of: node) else { return .zero }
            return Self.measure(Self.words[tag], width, widthMode)
        }
        tree.computeLayout(root: column)
        #expect(tree.frame(of: row).width == 200)
        #expect(tree.frame(of: a).width == 100 && tree.frame(of: b).width == 100 && tree.frame(of: b).left == 100)
    }

    @Test func theBasisIsNotClampedByTheItemsMinOrMax() throws {
        // §9.2 step 3: only the hypothetical main size is clamped. Bases 397 and 120 in 200 px
        // (the first capped at 100): §9.7 shares -317 by the bases (not -20 by 100 and 120),
        // the first item passes its max and freezes at 100, the second takes the rest.
        var capped = Style()
        capped.maxWidth = .points(100)
        #expect(try Self.layout(Self.row(width: 200), [3, 1], sizing: .css, leafStyles: [capped, Style()])
            .map(\.width) == [100, 100])
        // Growing: bases 120 and 120 in 300 px, the first at least 150 wide. Each grows by
        // (300 - 240) / 2 from its base: the first reaches its min, 150 (not 150 + 15).
        var grows = Style()
        grows.flexGrow = 1
        var growsAtLeast150 = grows
        growsAtLeast150.minWidth = .points(150)
        #expect(try Self.layout(Self.row(width: 300), [1, 1], sizing: .css, leafStyles: [growsAtLeast150, grows])
            .map(\.width) == [150, 150])
        // Yoga measures the first basis at most 100 wide (its widest line, 82): -2 shared by 82
        // and 120.
        let yoga = try Self.layout(Self.row(width: 200), [3, 1], sizing: .yoga, leafStyles: [capped, Style()])
        #expect(Self.close(yoga[0].width, 82 - 2 * 82 / 202) && Self.close(yoga[1].width, 120 - 2 * 120 / 202))
    }

    @Test func textNarrowedByItsMaxWidthWrapsInIt() throws {
        // Six words (397 px in one line) capped at 150 px: three lines at 150 (126, 126, 145),
        // not the one line of the max-content measure the width was clamped from.
        var capped = Style()
        capped.maxWidth = .points(150)
        let frames = try Self.layout(Self.row(width: 300), [3], sizing: .css, leafStyles: [capped])
        #expect(frames[0].width == 150 && frames[0].height == 30)
    }

    /// A row with no width, `rowStyle` changed by `change`, holding leaves 0 and 1 (min-content 50
    /// and 60, max-content 120 each) of `leafStyles`, in a column `columnWidth` wide that does
    /// not stretch it (fit-content). Returns the row's frame and the leaves'.
    static func contentSizedRow(in columnWidth: Float, sizing: FlexItemSizing = .css, leafStyles: [Style]? = nil,
                                _ change: (inout Style) -> Void = { _ in }) throws -> (Frame, [Frame]) {
        var tree = LayoutTree(config: LayoutConfig(pointScaleFactor: 0))
        var columnStyle = Style()
        columnStyle.width = .points(columnWidth)
        columnStyle.alignItems = .flexStart
        let column = try tree.addNode(style: columnStyle)
        var rowStyle = Self.row()
        change(&rowStyle)
        let row = try tree.addNode(style: rowStyle)
        tree.appendChild(row, to: column)
        let leaves = try [0, 1].map { i in
            var leafStyle = leafStyles?[i] ?? Style()
            if leafStyle.flexShrink == nil { leafStyle.flexShrink = 1 }
            return try tree.addNode(style: leafStyle, content: .custom(tag: i, flexSizing: sizing))
        }
        for leaf in leaves { tree.appendChild(leaf, to: row) }
        tree.measureFunction = { [tree] node, width, widthMode, _, _ in
            guard case .custom(let tag, _) = tree.content(of: node) else { return .zero }
            return Self.measure(Self.words[tag], width, widthMode)
        }
        tree.computeLayout(root: column)
        return (tree.frame(of: row), leaves.map { tree.frame(of: $0) })
    }

    @Test func aContentSizedRowGrowsToItsMinContentWidth() throws {
        // fit-content = min(max-content, max(min-content, available)) (§9.9.1, CSS Sizing §5.1):
        // offered 100 px, the items' min-content widths sum to 110: the row is 110 wide.
        let (row, items) = try Self.contentSizedRow(in: 100)
        #expect(row.width == 110)
        #expect(items.map(\.width) == [50, 60] && items[1].left == 50)
        // Padding and a fixed height (measured under an imposed cross size) count the same way.
        let (padded, paddedItems) = try Self.contentSizedRow(in: 100) {
            $0.padding.left = .points(5)
            $0.padding.right = .points(5)
            $0.height = .points(40)
        }
        #expect(padded.width == 120)
        #expect(paddedItems.map(\.width) == [50, 60] && paddedItems.map(\.left) == [5, 55])
        // Between min-content and max-content, the space offered.
        #expect(try Self.contentSizedRow(in: 150).0.width == 150)
        // Yoga's row takes its items' bases, measured at most 100 wide (70 and 60): 130.
        #expect(try Self.contentSizedRow(in: 100, sizing: .yoga).0.width == 130)
    }

    @Test func anItemThatCannotShrinkOverflowsTheContentSizedRow() throws {
        // Chromium counts a text item's min-content contribution even when it cannot shrink:
        // the row is 50 + 60 wide; the second item keeps its 120 px base and overflows it.
        var rigid = Style()
        rigid.flexShrink = 0
        let (row, items) = try Self.contentSizedRow(in: 100, leafStyles: [Style(), rigid])
        #expect(row.width == 110)
        #expect(items.map(\.width) == [50, 120] && items[1].left == 50)
    }

    @Test func aWrappingContentSizedRowIsAsWideAsItsWidestItem() throws {
        // Wrapping, the row's min-content width is its widest item's (60): offered 55, it is
        // 60 wide, one item a line, the first shrunk from 120 into it. Yoga's keeps the 55.
        let (row, items) = try Self.contentSizedRow(in: 55) { $0.flexWrap = .wrap }
        #expect(row.width == 60)
        #expect(items.map(\.width) == [60, 60] && items[1].top == items[0].height)
        #expect(try Self.contentSizedRow(in: 55, sizing: .yoga) { $0.flexWrap = .wrap }.0.width == 55)
    }

    @Test func aRowMeasuredWithoutLayingOutItsItemsTakesTheirFlexedSizes() throws {
        // A row holds a column that cannot shrink, which holds the text row. The column's basis
        // is measured, and with it the text row under an imposed height (its own, or the one
        // the column gives it), where items are not laid out. The row's width there must be
        // its items' §9.7 sizes, not their bases, which the column would then keep.
        func widths(outer width: Float, rowHeight: Float?, firstMaxWidth: Float? = nil) throws -> (column: Float, row: Float) {
            var tree = LayoutTree(config: LayoutConfig(pointScaleFactor: 0))
            let outer = try tree.addNode(style: Self.row(width: width))
            var columnStyle = Style()
            columnStyle.alignItems = .flexStart
            columnStyle.flexShrink = 0
            let column = try tree.addNode(style: columnStyle)
            tree.appendChild(column, to: outer)
            var rowStyle = Self.row()
            if let rowHeight { rowStyle.height = .points(rowHeight) }
            let row = try tree.addNode(style: rowStyle)
            tree.appendChild(row, to: column)
            for tag in [0, 1] {
                var leafStyle = Style()
                leafStyle.flexShrink = 1
                if tag == 0, let firstMaxWidth { leafStyle.maxWidth = .points(firstMaxWidth) }
                tree.appendChild(try tree.addNode(style: leafStyle, content: .custom(tag: tag, flexSizing: .css)), to: row)
            }
            tree.measureFunction = { [tree] node, width, widthMode, _, _ in
                guard case .custom(let tag, _) = tree.content(of: node) else { return .zero }
                return Self.measure(Self.words[tag], width, widthMode)
            }
            tree.computeLayout(root: outer)
            return (tree.frame(of: column).width, tree.frame(of: row).width)
        }
        // In 100 px: fit-content, the items' min-content widths (110), not their bases (240).
        for height: Float? in [nil, 40] {
            let narrow = try widths(outer: 100, rowHeight: height)
            #expect(narrow.column == 110 && narrow.row == 110)
        }
        // In 300 px, the first item capped at 100: its hypothetical size (100 + 120), not its
        // unclamped base (120 + 120).
        for height: Float? in [nil, 40] {
            let capped = try widths(outer: 300, rowHeight: height, firstMaxWidth: 100)
            #expect(capped.column == 220 && capped.row == 220)
        }
    }

    @Test func inAColumnTextDoesNotShrinkBelowItsHeight() throws {
        // Two leaves 100 px wide, two lines (20 px) each, in a column 20 px high.
        var column = Style()
        column.width = .points(100)
        column.height = .points(20)
        let css = try Self.layout(column, [0, 0], sizing: .css)
        #expect(css.map(\.height) == [20, 20] && css[1].top == 20)
        #expect(try Self.layout(column, [0, 0], sizing: .yoga).map(\.height) == [10, 10])
        var hidden = Style()
        hidden.overflow = .hidden
        #expect(try Self.layout(column, [0, 0], sizing: .css, leafStyles: [hidden, hidden]).map(\.height) == [10, 10])
    }

    /// A row of `rowStyle` in a column `columnWidth` wide that does not stretch it, holding a
    /// leaf (tag 1: 60 + 60) beside a row container with 10 px side padding holding a leaf
    /// (tag 0: 40 + 30 + 50), both leaves sized `sizing`. Returns the row's frame and its two
    /// items'.
    static func textBesideAContainer(columnWidth: Float, rowStyle: Style, sizing: FlexItemSizing) throws
        -> (row: Frame, items: [Frame]) {
        var tree = LayoutTree(config: LayoutConfig(pointScaleFactor: 0))
        var columnStyle = Style()
        columnStyle.width = .points(columnWidth)
        columnStyle.alignItems = .flexStart
        let column = try tree.addNode(style: columnStyle)
        let row = try tree.addNode(style: rowStyle)
        tree.appendChild(row, to: column)
        var shrinks = Style()
        shrinks.flexShrink = 1
        let leaf = try tree.addNode(style: shrinks, content: .custom(tag: 1, flexSizing: sizing))
        var boxStyle = Self.row()
        boxStyle.flexShrink = 1
        boxStyle.padding.left = .points(10)
        boxStyle.padding.right = .points(10)
        let box = try tree.addNode(style: boxStyle)
        let inner = try tree.addNode(style: shrinks, content: .custom(tag: 0, flexSizing: sizing))
        tree.appendChild(inner, to: box)
        tree.appendChild(leaf, to: row)
        tree.appendChild(box, to: row)
        measureWords(in: &tree)
        tree.computeLayout(root: column, available: AvailableSize())
        return (tree.frame(of: row), [tree.frame(of: leaf), tree.frame(of: box)])
    }

    @Test func theSiblingsOfTextAreSizedAsCSSSizesItems() throws {
        // Content-sized: the row's min-content width counts the container's, its text's widest
        // word plus its padding (60 + 70 = 130 > 100). The bases are max-content (120 and 140,
        // not measured at most 100 wide) and shrink by 130 in that ratio: 60 and 70.
        let (row, items) = try Self.textBesideAContainer(columnWidth: 100, rowStyle: Self.row(), sizing: .css)
        #expect(row.width == 130)
        #expect(items.map(\.width) == [60, 70] && items[1].left == 60)
        // 100 px wide: the container has an automatic minimum too (its min-content width, 70),
        // so both stop at their minimums and overflow the row; Yoga's would shrink it to 40.
        let (fixed, fixedItems) = try Self.textBesideAContainer(columnWidth: 100, rowStyle: Self.row(width: 100),
                                                                sizing: .css)
        #expect(fixed.width == 100)
        #expect(fixedItems.map(\.width) == [60, 70])
        // Yoga's row takes its items' bases, measured at most 100 wide (60, and 70 + 20): 150.
        let (yoga, yogaItems) = try Self.textBesideAContainer(columnWidth: 100, rowStyle: Self.row(), sizing: .yoga)
        #expect(yoga.width == 150 && yogaItems.map(\.width) == [60, 90])
        // Items stretched to the row's height are measured for its min-content width under an
        // imposed height, offered at most 0 wide: Yoga sizes a box so offered 0 (its padding)
        // without looking inside; the box holding text is measured all the same.
        var stretching = Self.row()
        stretching.alignItems = .stretch
        let (stretched, stretchedItems) = try Self.textBesideAContainer(columnWidth: 100, rowStyle: stretching,
                                                                        sizing: .css)
        #expect(stretched.width == 130 && stretchedItems.map(\.width) == [60, 70])
    }

    @Test func theSizingIsPartOfTheStructuralHash() throws {
        func hash(_ sizing: FlexItemSizing) throws -> StructuralHash {
            var tree = LayoutTree()
            let root = try tree.addNode(style: Self.row(width: 100))
            let leaf = try tree.addNode(content: .custom(tag: 1, flexSizing: sizing))
            tree.appendChild(leaf, to: root)
            return tree.structuralHash(root: root)
        }
        #expect(try hash(.css) != hash(.yoga))
        #expect(try hash(.yoga) == hash(.yoga))
    }
}
