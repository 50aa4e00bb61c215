import LayoutEngine
import LayoutTestSupport
import Testing

// FlexLayout's and StackViewLayout's `width(of:)` / `height(of:)` as tree size references:
// the source is laid out first, then the node is sized from its frame.

@Suite struct SizeReferenceTests {
    /// A 300×100 row of `widths.count` children (nil: no width); those in `growing` grow by 1.
    private func row(_ widths: [Float?], growing: Set<Int> = []) throws -> (LayoutTree, NodeID, [NodeID]) {
        var tree = LayoutTree()
        var rowStyle = Style()
        rowStyle.flexDirection = .row
        rowStyle.width = .points(300)
        rowStyle.height = .points(100)
        let root = try tree.addNode(style: rowStyle)
        var children: [NodeID] = []
        for (index, width) in widths.enumerated() {
            var style = Style()
            if let width { style.width = .points(width) }
            if growing.contains(index) { style.flexGrow = 1 }
            let child = try tree.addNode(style: style)
            tree.appendChild(child, to: root)
            children.append(child)
        }
        return (tree, root, children)
    }

    @Test func widthOfAnotherViewWithAMultiplier() throws {
        // b = half of a's 80 = 40, after a; c grows into the rest, 180.
        var (tree, root, c) = try row([80, nil, nil], growing: [2])
        try tree.setSizeReferences([SizeReference(node: c[1], dimension: .width, source: c[0], multiplier: 0.5)])
        tree.computeLayout(root: root)
        #expect(c.map { tree.frame(of: $0) } == [frame(0, 0, 80, 100), frame(80, 0, 40, 100), frame(120, 0, 180, 100)])
    }

    @Test func heightOfAnotherView() throws {
        // a is stretched to the row's 100; b takes 0.25 of it and stays at the top.
        var (tree, root, c) = try row([80, 50])
        var style = tree.style(of: root)
        style.alignItems = .flexStart
        try tree.setStyle(style, for: root)
        var aStyle = tree.style(of: c[0])
        aStyle.height = .points(100)
        try tree.setStyle(aStyle, for: c[0])
        try tree.setSizeReferences([SizeReference(node: c[1], dimension: .height, source: c[0], multiplier: 0.25)])
        tree.computeLayout(root: root)
        #expect(tree.frame(of: c[1]) == frame(80, 0, 50, 25))
    }

    @Test func aChainIsResolvedInOrder() throws {
        // c of b of a, listed in the opposite order: 80 → 40 → 20.
        var (tree, root, c) = try row([80, nil, nil])
        try tree.setSizeReferences([
            SizeReference(node: c[2], dimension: .width, source: c[1], multiplier: 0.5),
            SizeReference(node: c[1], dimension: .width, source: c[0], multiplier: 0.5),
        ])
        tree.computeLayout(root: root)
        #expect(c.map { tree.frame(of: $0).width } == [80, 40, 20])
    }

    @Test func theSourcesFrameIsReadBeforeTheNodeIsSized() throws {
        // a takes half of b's width as b is laid out without a's size: b alone grows to 300,
        // so a is 150 and b then grows into the 150 left.
        var (tree, root, c) = try row([nil, nil], growing: [1])
        try tree.setSizeReferences([SizeReference(node: c[0], dimension: .width, source: c[1], multiplier: 0.5)])
        tree.computeLayout(root: root)
        #expect(c.map { tree.frame(of: $0) } == [frame(0, 0, 150, 100), frame(150, 0, 150, 100)])
    }

    @Test func stylesKeepTheirValuesAndAnotherLayoutAgrees() throws {
        var (tree, root, c) = try row([80, nil, nil])
        try tree.setSizeReferences([SizeReference(node: c[1], dimension: .width, source: c[0], multiplier: 0.5)])
        let before = tree.structuralHash(root: root)
        let width = tree.style(of: c[1]).width
        tree.computeLayout(root: root)
        let first = c.map { tree.frame(of: $0) }
        #expect(tree.style(of: c[1]).width == width)
        #expect(tree.structuralHash(root: root) == before)
        tree.computeLayout(root: root)
        #expect(c.map { tree.frame(of: $0) } == first)
    }

    @Test func referencesArePartOfTheStructuralHash() throws {
        var (tree, root, c) = try row([80, nil, nil])
        let plain = tree.structuralHash(root: root)
        try tree.setSizeReferences([SizeReference(node: c[1], dimension: .width, source: c[0], multiplier: 0.5)])
        let half = tree.structuralHash(root: root)
        try tree.setSizeReferences([SizeReference(node: c[1], dimension: .width, source: c[0], multiplier: 0.25)])
        let quarter = tree.structuralHash(root: root)
        try tree.setSizeReferences([SizeReference(node: c[2], dimension: .width, source: c[0], multiplier: 0.5)])
        let other = tree.structuralHash(root: root)
        #expect(Set([plain, half, quarter, other]).count == 4)
    }

    @Test func refusedReferences() throws {
        var (tree, _, c) = try row([80, nil, nil])
        func reason(_ list: [SizeReference], maxChain: Int = 16) -> SizeReferenceError? {
            do { try tree.setSizeReferences(list, maxChain: maxChain); return nil } catch { return error }
        }
        let ab = SizeReference(node: c[0], dimension: .width, source: c[1])
        let ba = SizeReference(node: c[1], dimension: .width, source: c[0])
        let cb = SizeReference(node: c[2], dimension: .width, source: c[1])
        #expect(reason([ab, ba])?.reason == .cycle)
        #expect(reason([SizeReference(node: c[0], dimension: .height, source: c[0])])?.reason == .cycle)
        #expect(reason([SizeReference(node: c[0], dimension: .width, source: NodeID(99))]) == SizeReferenceError(reason: .unknownNode, index: 0))
        #expect(reason([ba, SizeReference(node: c[2], dimension: .width, source: c[0], multiplier: -1)])
                    == SizeReferenceError(reason: .invalidMultiplier, index: 1))
        #expect(reason([ba, ba])?.reason == .duplicate)
        #expect(reason([cb, ba], maxChain: 1)?.reason == .chainTooLong)
        #expect(reason([cb, ba], maxChain: 2) == nil)
        // Another dimension is another link: a's width from b's, b's height from a's.
        #expect(reason([ab, SizeReference(node: c[1], dimension: .height, source: c[0])]) == nil)
    }
}
