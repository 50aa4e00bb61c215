import Testing
@testable import LayoutEngine
import TestSupport

/// `insertChild` and `removeChild` on a laid-out tree: the links they leave, and exact
/// relayouts after them (`relayoutsExactly`) giving the frames of the edited tree built anew
/// and laid out once.
@Suite struct StructuralRelayoutTests {
    @Test func insertedAndRemovedChildrenAreLinkedInOrder() throws {
        var tree = LayoutTree()
        let root = try tree.addNode()
        var children: [NodeID] = []
        for _ in 0..<3 {
            children.append(try tree.addNode())
            tree.appendChild(children.last!, to: root)
        }
        let (a, b, c) = (children[0], children[1], children[2])
        #expect(tree.removeChild(at: 2, of: root) == c)
        #expect(tree.parent(of: c) == nil && tree.nextSibling(of: c) == .none)
        // The last child removed: appending links after the new last one.
        let d = try tree.addNode()
        tree.appendChild(d, to: root)
        tree.insertChild(c, into: root, at: 0)
        let e = try tree.addNode()
        tree.insertChild(e, into: root, at: 2)
        #expect(Array(tree.children(of: root)) == [c, a, e, b, d])
        #expect(tree.removeChild(at: 0, of: root) == c)
        #expect(tree.removeChild(at: 1, of: root) == e)
        let f = try tree.addNode()
        tree.insertChild(f, into: root, at: tree.childCount(of: root))
        #expect(Array(tree.children(of: root)) == [a, b, d, f])
        #expect(tree.childCount(of: root) == 4 && tree.parent(of: f) == root)
        #expect(tree.preorderNodes(root: root) == [root, a, b, d, f])
    }

    /// Random trees (every style feature of `RandomTrees`) laid out exactly, then chains of
    /// random subtrees removed, inserted elsewhere (moved), and new leaves inserted, with a
    /// style edit now and then: after each step every node under the root has the frame of the
    /// same tree built anew in pre-order and laid out once, bit for bit.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func structuralEditsRelayoutAsAWholeLayout(seed: UInt64) throws {
        var steps = 0, incremental = 0
        for chain in 0..<UInt64(20) {
            let treeSeed = seed * 1000 + chain
            var rng = SplitMix64(seed: treeSeed)
            let config = LayoutConfig(pointScaleFactor: Float(treeSeed % 3), useWebDefaults: treeSeed % 4 == 0)
            let baseline = treeSeed % 3 == 0
            var (tree, root, _) = try RandomTrees.make(seed: treeSeed, size: rng.int(20...120), config: config,
                                                       text: treeSeed % 2 == 0, baseline: baseline)
            tree.relayoutsExactly = true
            let available = AvailableSize(width: rng.float(100...500), height: rng.chance(30) ? rng.float(100...500) : nil)
            tree.computeLayout(root: root, available: available)
            // Subtrees taken out, to be inserted again.
            var detached: [NodeID] = []
            for step in 0..<10 {
                for _ in 0..<rng.int(1...3) {
                    let attached = tree.preorderNodes(root: root)
                    switch rng.int(0...3) {
                    case 0...1 where attached.count > 2:
                        let node = rng.pick(Array(attached.dropFirst()))
                        let parent = try #require(tree.parent(of: node))
                        let index = try #require(Array(tree.children(of: parent)).firstIndex(of: node))
                        tree.removeChild(at: index, of: parent)
                        detached.append(node)
                    case 2:
                        try ExactRelayoutTests.edit(&tree, rng.pick(attached), root, baseline: baseline, inFlow: false, &rng)
                    default:
                        let containers = attached.filter { tree.content(of: $0) == .none }
                        let parent = rng.pick(containers)
                        let child = detached.isEmpty || rng.chance(30)
                            ? try tree.addNode(style: RandomTrees.style(&rng, webDefaults: config.useWebDefaults, baseline: baseline),
                                               content: rng.chance(50) ? .fixed(Size(width: rng.float(0...60), height: rng.float(0...30))) : .none)
                            : detached.remove(at: rng.int(0...(detached.count - 1)))
                        tree.insertChild(child, into: parent, at: rng.int(0...tree.childCount(of: parent)))
                    }
                }
                tree.computeLayout(root: root, available: available)
                if !baseline {
                    steps += 1
                    if !tree.lastLayoutStartedFresh { incremental += 1 }
                }
                let nodes = tree.preorderNodes(root: root)
                var whole = LayoutTree(config: config)
                var copies: [NodeID: NodeID] = [:]
                for node in nodes {
                    let copy = try whole.addNode(style: tree.style(of: node), content: tree.content(of: node))
                    copies[node] = copy
                    if node != root, let parent = tree.parent(of: node) { whole.appendChild(copy, to: copies[parent]!) }
                }
                whole.computeLayout(root: copies[root]!, available: available)
                for node in nodes {
                    let a = tree.frame(of: node), b = whole.frame(of: copies[node]!)
                    #expect([a.left, a.top, a.width, a.height].map(\.bitPattern) == [b.left, b.top, b.width, b.height].map(\.bitPattern),
                            "tree \(treeSeed) step \(step) node \(node.index): \(a) relaid out, \(b) whole")
                }
            }
        }
        print("structural relayout seed \(seed): \(incremental) of \(steps) relayouts without baselines incremental")
        // Structural edits stay incremental where style edits do (no baseline alignment).
        #expect(incremental * 2 > steps, "\(incremental) of \(steps) relayouts without baselines were incremental")
    }

    /// `rehash(_:changed:placed:)` after random children added, removed and moved (and some
    /// nodes' styles edited), given as changed their parents and the edited nodes, and as
    /// placed the children inserted: the hash of the edited tree hashed whole, and parts that
    /// go on rehashing later edits correctly, structural or not.
    @Test func structuralRehashEqualsTheWholeHash() throws {
        let key = StructuralHashKey(k0: 7, k1: 9)
        var hashed = 0, walked = 0
        for seed in UInt64(0)..<60 {
            var rng = SplitMix64(seed: seed)
            var (tree, root, _) = try RandomTrees.make(seed: seed, size: rng.int(10...300), text: false, baseline: false)
            var parts = tree.structuralHashParts(root: root, key: key)
            for step in 0..<8 {
                var changed: [NodeID] = []
                var placed: [NodeID] = []
                for _ in 0..<rng.int(1...3) {
                    let attached = tree.preorderNodes(root: root)
                    let containers = attached.filter { tree.content(of: $0) == .none }
                    let parent = rng.pick(containers)
                    changed.append(parent)
                    if tree.childCount(of: parent) > 0 && rng.chance(40) {
                        let index = rng.int(0...(tree.childCount(of: parent) - 1))
                        let child = tree.removeChild(at: index, of: parent)
                        // Moved: inserted again elsewhere, outside its own subtree.
                        let inside = Set(tree.preorderNodes(root: child))
                        let targets = containers.filter { !inside.contains($0) }
                        if rng.chance(40), !targets.isEmpty {
                            let target = rng.pick(targets)
                            tree.insertChild(child, into: target, at: rng.int(0...tree.childCount(of: target)))
                            changed.append(target)
                            placed.append(child)
                        }
                    } else {
                        let child = try tree.addNode(style: RandomTrees.style(&rng, webDefaults: false, baseline: false))
                        tree.insertChild(child, into: parent, at: rng.int(0...tree.childCount(of: parent)))
                        placed.append(child)
                    }
                    if rng.chance(50) {
                        let node = rng.pick(tree.preorderNodes(root: root))
                        var style = tree.style(of: node)
                        style.flexGrow = Float(rng.int(0...4))
                        try tree.setStyle(style, for: node)
                        changed.append(node)
                    }
                }
                let hash = tree.rehash(&parts, changed: changed, placed: placed, key: key)
                #expect(hash == tree.structuralHash(root: root, key: key), "seed \(seed)")
                hashed += parts.hashedNodes ?? 0
                walked += tree.preorderNodes(root: root).count
                // Now and then a style edit alone, through the rehash of edited members.
                if step % 3 == 2 {
                    let node = rng.pick(tree.preorderNodes(root: root))
                    var style = tree.style(of: node)
                    style.width = .points(Float(rng.int(1...400)))
                    try tree.setStyle(style, for: node)
                    #expect(tree.rehash(&parts, changed: [node], key: key) == tree.structuralHash(root: root, key: key),
                            "seed \(seed)")
                }
            }
        }
        // How much the kept chunks save on these small trees (a chunk averages 32 nodes, so an
        // edit in a tree of 100 rehashes a good part of it); `aScrollingFeedRehashesItsEndsOnly`
        // holds a long tree to its bound.
        print("structural rehash: \(hashed) of \(walked) nodes hashed again")
    }

    /// Edits of a few nodes' styles at a time, all over a tree of some 1,000 nodes: an edit among
    /// a chunk's last nodes changes the window the next chunk is cut by, which may move its
    /// cuts; the rehash of edited members follows, and equals the whole hash every time.
    @Test func memberEditsRehashAsTheWholeTree() throws {
        let key = StructuralHashKey(k0: 11, k1: 13)
        var rng = SplitMix64(seed: 99)
        var (tree, root, _) = try RandomTrees.make(seed: 99, size: 1_000, text: false, baseline: false)
        var parts = tree.structuralHashParts(root: root, key: key)
        let nodes = tree.preorderNodes(root: root)
        for _ in 0..<700 {
            // One to three nodes, often close together (a chunk's edit moving cuts past the next).
            let first = rng.int(0...(nodes.count - 1))
            let edited = (0..<rng.int(1...3)).map { _ in nodes[min(nodes.count - 1, first + rng.int(0...40))] }
            for node in edited {
                var style = tree.style(of: node)
                style.minWidth = .points(Float(rng.int(1...1_000)))
                try tree.setStyle(style, for: node)
            }
            #expect(tree.rehash(&parts, changed: edited, key: key) == tree.structuralHash(root: root, key: key))
        }
    }

    /// A chat that scrolls: its first message removed and a message appended, on a long feed.
    /// The rehash hashes the root's chunk, the chunk of the first message, and the last
    /// chunks, not the feed.
    @Test func aScrollingFeedRehashesItsEndsOnly() throws {
        let key = StructuralHashKey(k0: 3, k1: 5)
        var tree = LayoutTree()
        let root = try tree.addNode(style: Style())
        func message(_ k: Int) throws -> NodeID {
            var style = Style()
            style.flexDirection = .row
            style.padding.all = .points(Float(4 + k % 7))
            let cell = try tree.addNode(style: style)
            for j in 0..<3 {
                var inner = Style()
                inner.width = .points(Float(10 + (k * 3 + j) % 41))
                inner.height = .points(Float(12 + j))
                tree.appendChild(try tree.addNode(style: inner), to: cell)
            }
            return cell
        }
        for k in 0..<500 { tree.appendChild(try message(k), to: root) }
        var parts = tree.structuralHashParts(root: root, key: key)
        for k in 500..<510 {
            tree.removeChild(at: 0, of: root)
            let added = try message(k)
            tree.appendChild(added, to: root)
            let hash = tree.rehash(&parts, changed: [root], placed: [added], key: key)
            #expect(hash == tree.structuralHash(root: root, key: key))
            let hashed = try #require(parts.hashedNodes)
            // 2,000 nodes; the root's chunk and two or three more of ~32 nodes (at most 128).
            #expect(hashed < 4 * LayoutTree.structuralHashMaxChunkNodes, "\(hashed) of 2,000 nodes hashed again")
        }
    }
}
