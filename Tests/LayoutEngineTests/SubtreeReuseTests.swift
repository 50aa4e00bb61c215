import Testing
import LayoutEngine
import LayoutWire
import TestSupport

/// Repeated subtrees laid out once (`LayoutTree.subtreeReuse`): frames must equal those of
/// computing every node, on random trees made of repeated random subtrees (fixed seeds).
@Suite struct SubtreeReuseTests {
    static let key = StructuralHashKey(k0: 0x0706_0504_0302_0100, k1: 0x0F0E_0D0C_0B0A_0908)

    /// Copies the subtree at `node` of `source` under `parent` in `tree`, storing its nodes in
    /// pre-order (as decoders do) or, `childrenFirst`, each node after its children (a subtree
    /// the memo cannot restore as one range of storage).
    static func copy(_ node: NodeID, of source: LayoutTree, under parent: NodeID, in tree: inout LayoutTree,
                     childrenFirst: Bool = false) throws {
        if childrenFirst {
            tree.appendChild(try Self.copyChildrenFirst(node, of: source, in: &tree), to: parent)
            return
        }
        let copy = try tree.addNode(style: source.style(of: node), content: source.content(of: node))
        tree.appendChild(copy, to: parent)
        for child in source.children(of: node) { try Self.copy(child, of: source, under: copy, in: &tree) }
    }

    /// A detached copy of the subtree at `node`, each node stored after its children.
    static func copyChildrenFirst(_ node: NodeID, of source: LayoutTree, in tree: inout LayoutTree) throws -> NodeID {
        let children = try source.children(of: node).map { try Self.copyChildrenFirst($0, of: source, in: &tree) }
        let copy = try tree.addNode(style: source.style(of: node), content: source.content(of: node))
        for child in children { tree.appendChild(child, to: copy) }
        return copy
    }

    /// A random root holding random containers of copies of a few random subtrees ("cells"),
    /// some of them many times; custom leaves are measured by a hook that reads only their tag
    /// (tag 2 sized as CSS sizes flex items, `FlexItemSizing.css`).
    static func feed(seed: UInt64, config: LayoutConfig = LayoutConfig()) throws -> (LayoutTree, NodeID, [NodeID]) {
        var rng = SplitMix64(seed: seed)
        let shapes = try (0..<rng.int(1...4)).map { t in
            try RandomTrees.make(seed: seed &* 1000 &+ UInt64(t), size: rng.int(2...14), config: config,
                                 text: true)
        }
        var tree = LayoutTree(config: config)
        var rootStyle = RandomTrees.style(&rng, webDefaults: config.useWebDefaults)
        rootStyle.display = .flex
        let root = try tree.addNode(style: rootStyle)
        var containers = [root]
        for _ in 0..<rng.int(0...3) {
            var style = RandomTrees.style(&rng, webDefaults: config.useWebDefaults)
            if rng.chance(50) { style = Style(webDefaults: config.useWebDefaults) }
            let container = try tree.addNode(style: style)
            tree.appendChild(container, to: rng.pick(containers))
            containers.append(container)
        }
        for _ in 0..<rng.int(2...12) {
            let parent = rng.pick(containers)
            if rng.chance(10) {
                let tag = rng.int(0...2)
                let leaf = try tree.addNode(style: RandomTrees.style(&rng, webDefaults: config.useWebDefaults),
                                            content: .custom(tag: tag, flexSizing: tag == 2 ? .css : .yoga))
                tree.appendChild(leaf, to: parent)
            } else {
                let shape = rng.pick(shapes)
                try copy(shape.root, of: shape.tree, under: parent, in: &tree, childrenFirst: seed % 5 == 0)
            }
        }
        tree.measureFunction = { [tree] node, width, widthMode, height, heightMode in
            guard case .custom(let tag, _) = tree.content(of: node) else { return .zero }
            let natural = Size(width: Float(20 + 15 * tag), height: Float(10 + 7 * tag))
            return Size(width: widthMode == .exactly ? width : widthMode == .atMost ? min(width, natural.width) : natural.width,
                        height: heightMode == .exactly ? height : heightMode == .atMost ? min(height, natural.height) : natural.height)
        }
        let nodes = (0..<tree.nodeCount).map { NodeID($0) }
        return (tree, root, nodes)
    }

    static func available(_ seed: UInt64) -> AvailableSize {
        switch seed % 4 {
        case 0: return AvailableSize()
        case 1: return AvailableSize(width: 300, height: 200)
        case 2: return AvailableSize(width: 250.5, height: nil)
        default: return AvailableSize(width: nil, height: 180.25)
        }
    }

    static let configs: [LayoutConfig] = {
        var web = LayoutConfig()
        web.useWebDefaults = true
        var exact = LayoutConfig()
        exact.pointScaleFactor = 0
        var retina = LayoutConfig()
        retina.pointScaleFactor = 3
        return [LayoutConfig(), web, exact, retina]
    }()

    @Test func framesEqualComputingEveryNode() throws {
        var hits = 0
        for seed in UInt64(1)...240 {
            let config = Self.configs[Int(seed % 4)]
            let (plain, root, nodes) = try Self.feed(seed: seed, config: config)
            let direction: Direction = seed % 3 == 0 ? .rtl : .ltr
            var expected = plain
            expected.computeLayout(root: root, available: Self.available(seed), direction: direction)
            var reused = plain
            // Every repeated subtree, leaves too: the most copies to get wrong.
            reused.subtreeReuse = SubtreeReuse(key: Self.key, minimumNodes: seed % 2 == 0 ? 1 : 4)
            reused.computeLayout(root: root, available: Self.available(seed), direction: direction)
            let want = nodes.map { expected.frame(of: $0) }, got = nodes.map { reused.frame(of: $0) }
            #expect(got == want, "seed \(seed): first differing node \(want.indices.first { want[$0] != got[$0] } ?? -1)")
            #expect(nodes.map { reused.contentBox(of: $0) } == nodes.map { expected.contentBox(of: $0) }, "seed \(seed)")
            hits += reused.subtreeReuseStatistics.localHits

            // A relayout with the same constraints is incremental (nodes not new: no reuse)...
            reused.computeLayout(root: root, available: Self.available(seed), direction: direction)
            #expect(!reused.subtreeReuseStatistics.active)
            #expect(nodes.map { reused.frame(of: $0) } == want, "seed \(seed), relayout")
            // ...one with other constraints starts from new nodes' state again (reused).
            expected.computeLayout(root: root, available: AvailableSize(width: 140, height: nil), direction: .ltr)
            reused.computeLayout(root: root, available: AvailableSize(width: 140, height: nil), direction: .ltr)
            #expect(nodes.map { reused.frame(of: $0) } == nodes.map { expected.frame(of: $0) }, "seed \(seed), relayout")
        }
        // The trees do repeat: most layouts of repeated cells were copies.
        #expect(hits > 500, "only \(hits) copies over all seeds")
    }

    /// Every Yoga conformance case laid out with reuse gives the frames it gives without.
    @Test func yogaCasesGiveTheSameFrames() throws {
        var active = 0
        for yogaCase in try YogaFixtures.loadAll() {
            var plain = try LayoutWire.decodeRequest(yogaCase.request, limits: YogaFixtures.unlimited)
            var reused = plain
            reused.tree.subtreeReuse = SubtreeReuse(key: Self.key, minimumNodes: 1)
            plain.computeLayout()
            reused.computeLayout()
            let nodes = (0..<plain.tree.nodeCount).map { NodeID($0) }
            #expect(nodes.map { reused.tree.frame(of: $0) } == nodes.map { plain.tree.frame(of: $0) }, "\(yogaCase.name)")
            if reused.tree.subtreeReuseStatistics.active { active += 1 }
        }
        #expect(active > 50, "reuse ran on \(active) cases")
    }

    /// A store shared by trees: the second tree copies what the first computed.
    @Test func storeCarriesResultsAcrossTrees() throws {
        let store = DictionaryStore()
        var copied = 0
        for seed in UInt64(1)...60 {
            let (plain, root, nodes) = try Self.feed(seed: seed)
            var expected = plain
            expected.computeLayout(root: root, available: Self.available(seed))
            for _ in 0..<2 {
                var reused = plain
                reused.subtreeReuse = SubtreeReuse(key: Self.key, store: store, minimumNodes: 2)
                reused.computeLayout(root: root, available: Self.available(seed))
                #expect(nodes.map { reused.frame(of: $0) } == nodes.map { expected.frame(of: $0) }, "seed \(seed)")
                copied += reused.subtreeReuseStatistics.storeHits
            }
        }
        #expect(copied > 50)
    }

    /// Snapshots from trees with another config are never used: the config is in the key.
    @Test func configIsPartOfTheKey() throws {
        let store = DictionaryStore()
        let (plain, root) = try Self.identicalCells()
        var first = plain
        first.subtreeReuse = SubtreeReuse(key: Self.key, store: store)
        first.computeLayout(root: root, available: AvailableSize(width: 300, height: nil))
        #expect(first.subtreeReuseStatistics.recorded > 0)
        var other = plain
        other.config.pointScaleFactor = 2
        other.subtreeReuse = SubtreeReuse(key: Self.key, store: store)
        other.computeLayout(root: root, available: AvailableSize(width: 300, height: nil))
        #expect(other.subtreeReuseStatistics.storeHits == 0)
        var again = plain
        again.subtreeReuse = SubtreeReuse(key: Self.key, store: store)
        again.computeLayout(root: root, available: AvailableSize(width: 300, height: nil))
        #expect(again.subtreeReuseStatistics.storeHits > 0)
    }

    /// 100 identical cells: each distinct call of the cell is computed twice at most (the first
    /// time a call is only noted, the second kept), then copied.
    @Test func identicalCellsAreComputedOnce() throws {
        let (cells, root) = try Self.identicalCells()
        var tree = cells, plain = cells
        tree.subtreeReuse = SubtreeReuse(key: Self.key)
        tree.computeLayout(root: root)
        plain.computeLayout(root: root)
        let stats = tree.subtreeReuseStatistics
        #expect(stats.active && stats.candidates == 100) // the cells (labels are cheaper to compute)
        #expect(stats.recorded <= 12, "\(stats)")
        #expect(stats.localHits >= 98, "\(stats)")
        #expect((0..<tree.nodeCount).map { tree.frame(of: NodeID($0)) } == (0..<plain.nodeCount).map { plain.frame(of: NodeID($0)) })
        #expect(tree.frame(of: NodeID(397)).top == 99 * 56)
    }

    /// A padded row, the style of the cells below.
    static func row(padding: Float) -> Style {
        var style = Style()
        style.flexDirection = .row
        style.padding.all = .points(padding)
        return style
    }

    /// A square box of `side` points.
    static func square(_ side: Float) -> Style {
        var style = Style()
        style.width = .points(side)
        style.height = .points(side)
        return style
    }

    /// A column of 100 cells: two 40-point icons and a growing text label in a padded row.
    static func identicalCells() throws -> (LayoutTree, NodeID) {
        var tree = LayoutTree()
        var rootStyle = Style()
        rootStyle.width = .points(320)
        let root = try tree.addNode(style: rootStyle)
        for _ in 0..<100 {
            let cell = try tree.addNode(style: Self.row(padding: 8))
            let iconStyle = Self.square(40)
            let icon = try tree.addNode(style: iconStyle)
            var labelStyle = Style()
            labelStyle.flexGrow = 1
            let label = try tree.addNode(style: labelStyle, content: .intrinsicText("hello world again"))
            tree.appendChild(icon, to: cell)
            tree.appendChild(try tree.addNode(style: iconStyle), to: cell)
            tree.appendChild(label, to: cell)
            tree.appendChild(cell, to: root)
        }
        return (tree, root)
    }

    /// Three kinds of cell with one fingerprint take turns: the first two differ only in their
    /// label's characters, the first and third only in padding and margin values (the print
    /// leaves both out). A subtree hash is copied only from an equal subtree, and each cell is
    /// laid out as its own.
    @Test func subtreesAreComparedWholeBeforeTheirHashesAreShared() throws {
        var tree = LayoutTree()
        var rootStyle = Style()
        rootStyle.width = .points(300)
        let root = try tree.addNode(style: rootStyle)
        // Of one length, broken into lines differently.
        let texts = ["aa aa aa aa aa aa aa aa aa aa aa aa", "aaaaaaaaaaa aaaaaaaaaaa aaaaaaaaaaa", "aa aa aa aa aa aa aa aa aa aa aa aa"]
        for i in 0..<12 {
            let kind = i % 3
            var cellStyle = Style()
            cellStyle.flexDirection = .row
            cellStyle.padding.all = .points([4, 4, 8][kind])
            let cell = try tree.addNode(style: cellStyle)
            var boxStyle = Style()
            boxStyle.width = .points(40)
            boxStyle.height = .points(10)
            boxStyle.margin.left = .points([3, 3, 5][kind])
            tree.appendChild(try tree.addNode(style: boxStyle), to: cell)
            var labelStyle = Style()
            labelStyle.flexGrow = 1
            labelStyle.flexShrink = 1
            tree.appendChild(try tree.addNode(style: labelStyle, content: .intrinsicText(texts[kind])), to: cell)
            tree.appendChild(try tree.addNode(style: boxStyle), to: cell)
            tree.appendChild(cell, to: root)
        }
        var reused = tree
        reused.subtreeReuse = SubtreeReuse(key: Self.key, minimumNodes: 1)
        reused.computeLayout(root: root, available: AvailableSize(width: 300, height: nil))
        tree.computeLayout(root: root, available: AvailableSize(width: 300, height: nil))
        let all = (0..<tree.nodeCount).map { NodeID($0) }
        #expect(all.map { reused.frame(of: $0) } == all.map { tree.frame(of: $0) })
        let stats = reused.subtreeReuseStatistics
        // Three kinds of cell, four of each: the last of each kind is hashed, the others copy
        // its hashes (its four nodes each).
        #expect(stats.hashesCopied >= 3 * 3 * 4, "\(stats)")
        #expect(stats.localHits > 0, "\(stats)")
    }

    /// Cells stretched in one column and not in the next get calls that differ only in their
    /// sizing modes (a width of 100 exactly, then at most 100): a call is answered only by a
    /// snapshot of a call equal to it in every argument, modes too.
    @Test func callsDifferingOnlyInSizingModesAreNotConfused() throws {
        var tree = LayoutTree()
        var rootStyle = Style()
        rootStyle.width = .points(200)
        rootStyle.flexDirection = .row
        rootStyle.alignItems = .flexStart
        let root = try tree.addNode(style: rootStyle)
        for alignment in [Align.stretch, .flexStart] {
            var columnStyle = Style()
            columnStyle.width = .points(100)
            columnStyle.alignItems = alignment
            let column = try tree.addNode(style: columnStyle)
            tree.appendChild(column, to: root)
            for _ in 0..<8 {
                let cell = try tree.addNode(style: Self.row(padding: 2))
                tree.appendChild(try tree.addNode(style: Self.square(10)), to: cell)
                tree.appendChild(try tree.addNode(content: .intrinsicText("ab")), to: cell)
                tree.appendChild(cell, to: column)
            }
        }
        var reused = tree
        reused.subtreeReuse = SubtreeReuse(key: Self.key, minimumNodes: 1)
        reused.computeLayout(root: root)
        tree.computeLayout(root: root)
        let all = (0..<tree.nodeCount).map { NodeID($0) }
        #expect(all.map { reused.frame(of: $0) } == all.map { tree.frame(of: $0) })
        // The stretched cells are as wide as their column, the others as their content.
        let cells = tree.children(of: root).map { Array(tree.children(of: $0))[0] }
        #expect(tree.frame(of: cells[0]).width == 100 && tree.frame(of: cells[1]).width < 100)
        #expect(reused.subtreeReuseStatistics.localHits > 0, "\(reused.subtreeReuseStatistics)")
    }

    @Test func sizeReferencesTurnReuseOff() throws {
        let (feed, root, nodes) = try Self.feed(seed: 3)
        var tree = feed
        try tree.setSizeReferences([SizeReference(node: nodes[1], dimension: .width, source: root, multiplier: 0.5)])
        tree.subtreeReuse = SubtreeReuse(key: Self.key)
        tree.computeLayout(root: root)
        #expect(!tree.subtreeReuseStatistics.active)
    }

    @Test func subtreeHashesFollowContent() throws {
        var tree = LayoutTree()
        let root = try tree.addNode()
        var leafStyle = Style()
        leafStyle.width = .points(10)
        var cells: [NodeID] = []
        var leaves: [NodeID] = []
        for _ in 0..<3 {
            let cell = try tree.addNode()
            let leaf = try tree.addNode(style: leafStyle, content: .intrinsicText("a"))
            tree.appendChild(leaf, to: cell)
            tree.appendChild(cell, to: root)
            cells.append(cell)
            leaves.append(leaf)
        }
        let before = tree.subtreeHashes(root: root, key: Self.key)
        #expect(before[Int(cells[0].index)] == before[Int(cells[1].index)])
        #expect(before[Int(cells[0].index)] != before[Int(leaves[0].index)])
        try tree.setContent(.intrinsicText("b"), for: leaves[1])
        let after = tree.subtreeHashes(root: root, key: Self.key)
        #expect(after[Int(cells[0].index)] == before[Int(cells[0].index)])
        #expect(after[Int(cells[1].index)] != before[Int(cells[1].index)])
        #expect(after[Int(root.index)] != before[Int(root.index)])
        let otherKey = tree.subtreeHashes(root: root, key: StructuralHashKey(k0: 1, k1: 2))
        #expect(otherKey[Int(cells[0].index)] != after[Int(cells[0].index)])
    }
}

/// A store for tests: every snapshot kept.
// @unchecked Sendable: each test uses its store from its own thread only.
final class DictionaryStore: SubtreeSnapshotStore, @unchecked Sendable {
    private var entries: [StructuralHash: SubtreeSnapshot] = [:]
    func snapshot(for key: StructuralHash) -> SubtreeSnapshot? { entries[key] }
    func store(_ snapshot: SubtreeSnapshot, for key: StructuralHash) { entries[key] = snapshot }
}
