import Testing
import LayoutEngine
import TestSupport

/// What a relayout after small edits may skip: hashing nodes that did not change
/// (`structuralHashParts` and `rehash`) and rounding nodes that did not move
/// (`memoizesPixelRounding`). Both must give exactly what doing everything gives, on random
/// trees and random edits (fixed seeds).
@Suite struct IncrementalRelayoutTests {
    static let key = StructuralHashKey(k0: 0x0706_0504_0302_0100, k1: 0x0F0E_0D0C_0B0A_0908)

    /// A random edit of one node's style or content (styles from the random tree generator).
    static func edit(_ tree: inout LayoutTree, _ nodes: [NodeID], _ rng: inout SplitMix64) throws -> NodeID {
        let node = rng.pick(nodes)
        if rng.chance(70) || tree.childCount(of: node) > 0 {
            var style = RandomTrees.style(&rng, webDefaults: tree.config.useWebDefaults)
            if node == nodes[0] { style.display = .flex }
            try tree.setStyle(style, for: node)
        } else {
            try tree.setContent(rng.chance(50) ? .fixed(Size(width: rng.float(0...90), height: rng.float(0...40))) : .none,
                                for: node)
        }
        return node
    }

    /// After random edits of nodes' style and content, the hash from the kept parts equals the
    /// tree hashed whole, for trees of one chunk up to many; after a structural change the
    /// parts are made again.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func rehashingTheEditedChunksEqualsHashingTheWholeTree(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var (tree, root, nodes) = try RandomTrees.make(seed: seed, size: [5, 31, 32, 33, 200, 700][Int(seed - 1)], text: false)
        let available = AvailableSize(width: rng.float(100...500))
        var parts = tree.structuralHashParts(root: root, available: available, key: Self.key)
        #expect(parts.hash == tree.structuralHash(root: root, available: available, key: Self.key))
        for step in 0..<40 {
            let before = parts.hash
            var changed: [NodeID] = []
            for _ in 0..<rng.int(1...3) { changed.append(try Self.edit(&tree, nodes, &rng)) }
            let hash = tree.rehash(&parts, changed: changed, available: available, key: Self.key)
            #expect(hash == tree.structuralHash(root: root, available: available, key: Self.key), "seed \(seed) step \(step)")
            #expect(hash == parts.hash)
            if tree.structuralHash(root: root, available: available, key: Self.key) != before { #expect(hash != before) }
        }
        // A new child: the parts no longer describe the tree and are made again.
        let child = try tree.addNode(style: Style())
        tree.appendChild(child, to: root)
        nodes.append(child)
        #expect(tree.rehash(&parts, changed: [child], available: available, key: Self.key)
                == tree.structuralHash(root: root, available: available, key: Self.key))
    }

    /// A chunk boundary moves nothing: the same nodes in another tree hash alike, and the hash
    /// of a subtree (not the whole tree) is kept in parts too.
    @Test func partsOfASubtreeRehashLikeTheSubtree() throws {
        var rng = SplitMix64(seed: 99)
        var (tree, _, nodes) = try RandomTrees.make(seed: 99, size: 300, text: false)
        let inner = try #require(nodes.first { tree.childCount(of: $0) > 2 && $0 != nodes[0] })
        var parts = tree.structuralHashParts(root: inner, key: Self.key)
        for _ in 0..<20 {
            let node = try Self.edit(&tree, nodes, &rng)
            #expect(tree.rehash(&parts, changed: [node], key: Self.key) == tree.structuralHash(root: inner, key: Self.key))
        }
    }

    /// Relayouts with remembered rounding give bit-identical frames to relayouts of an equal
    /// tree rounding every node, after each of a chain of random edits (scale 1, 2 and 3).
    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
    func memoizedRoundingGivesTheSameFrames(seed: UInt64) throws {
        try Self.memoizedRounding(seed: seed, inFlow: false)
    }

    /// The same on trees whose every node is in flow (no `display: none` or `contents`, no
    /// absolute position), where the rounding walk also skips the subtrees the relayout did
    /// not reach (`LayoutPass.skipsUntouchedRoundings`; random trees have out-of-flow nodes).
    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
    func memoizedRoundingOfInFlowTreesGivesTheSameFrames(seed: UInt64) throws {
        try Self.memoizedRounding(seed: seed, inFlow: true)
    }

    /// Every node of `tree` in flow: displayed as flex, absolute positions made relative.
    static func putInFlow(_ tree: inout LayoutTree, _ nodes: [NodeID]) throws {
        for node in nodes {
            var style = tree.style(of: node)
            guard style.display != .flex || style.positionType == .absolute else { continue }
            style.display = .flex
            if style.positionType == .absolute { style.positionType = .relative }
            try tree.setStyle(style, for: node)
        }
    }

    static func memoizedRounding(seed: UInt64, inFlow: Bool) throws {
        var rng = SplitMix64(seed: seed)
        let config = LayoutConfig(pointScaleFactor: Float(1 + seed % 3))
        var (plain, root, nodes) = try RandomTrees.make(seed: seed, size: rng.int(20...250), config: config, text: false)
        if inFlow { try putInFlow(&plain, nodes) }
        var memoized = plain
        memoized.memoizesPixelRounding = true
        let available = AvailableSize(width: rng.float(100...500))
        for step in 0..<30 {
            if step > 0 {
                var copy = rng
                let edited = try Self.edit(&plain, nodes, &rng)
                _ = try Self.edit(&memoized, nodes, &copy)
                if inFlow {
                    try putInFlow(&plain, [edited])
                    try putInFlow(&memoized, [edited])
                }
            }
            plain.computeLayout(root: root, available: available)
            memoized.computeLayout(root: root, available: available)
            for node in nodes {
                let a = plain.frame(of: node), b = memoized.frame(of: node)
                #expect([a.left, a.top, a.width, a.height].map(\.bitPattern) == [b.left, b.top, b.width, b.height].map(\.bitPattern),
                        "seed \(seed) step \(step) node \(node.index)")
            }
        }
    }

    /// `preorderFrames` lists the subtree's frames in pre-order: a node before its children,
    /// children in order, nothing outside the subtree.
    @Test func preorderFramesListTheSubtreeInPreorder() throws {
        var (tree, root, nodes) = try RandomTrees.make(seed: 21, size: 120, text: false)
        tree.computeLayout(root: root, available: AvailableSize(width: 320))
        func walk(_ node: NodeID, into frames: inout [Frame]) {
            frames.append(tree.frame(of: node))
            for child in tree.children(of: node) { walk(child, into: &frames) }
        }
        for subtree in [root, nodes[nodes.count / 2]] {
            var expected: [Frame] = []
            walk(subtree, into: &expected)
            #expect(tree.preorderFrames(root: subtree) == expected)
        }
    }
}
