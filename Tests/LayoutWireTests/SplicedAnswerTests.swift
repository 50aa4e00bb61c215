import LayoutEngine
import Testing
import TestSupport
@testable import LayoutWire

/// A whole answer updated by rewriting only the frames that changed reads byte for byte as
/// the answer encoded anew.
@Suite struct SplicedAnswerTests {
    /// A random tree of `count` nodes (each node's parent picked among the nodes before it).
    static func tree(_ count: Int, _ random: inout SplitMix64) throws -> (LayoutTree, NodeID) {
        var tree = LayoutTree()
        var nodes = [try tree.addNode()]
        for _ in 1..<count {
            let node = try tree.addNode()
            tree.appendChild(node, to: nodes[Int(random.next() % UInt64(nodes.count))])
            nodes.append(node)
        }
        return (tree, nodes[0])
    }

    /// Frame values of every spelling length: whole, fractional, negative, zero of both signs, large.
    static func value(_ random: inout SplitMix64) -> Float {
        switch random.next() % 6 {
        case 0: return Float(random.next() % 10)
        case 1: return Float(random.next() % 100_000) / 8
        case 2: return -Float(random.next() % 1_000) / 3
        case 3: return random.next() % 2 == 0 ? 0 : -0.0
        case 4: return Float(random.next() % 1_000_000_000) * 1.5e3
        default: return Float(random.next() % 1_000) + 0.1
        }
    }

    static func frame(_ random: inout SplitMix64) -> Frame {
        Frame(left: value(&random), top: value(&random), width: value(&random), height: value(&random))
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func updatedAnswersReadAsAnswersEncodedAnew(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let count = 1 + Int(random.next() % 300)
        let (tree, root) = try Self.tree(count, &random)
        // Some nodes without ids, and ids that need escaping.
        let ids = NodeIdentifiers((0..<count).map { k in k % 4 == 1 ? nil : k % 7 == 0 ? "n\"\(k)\\" : "node-\(k)" })
        var frames = (0..<count).map { _ in Self.frame(&random) }
        var answer = try #require(SplicedAnswer(tree: tree, root: root, ids: ids, frames: frames))
        #expect(answer.bytes == ResponseEncoder.encode(tree: tree, root: root, ids: ids, frames: frames))
        for _ in 0..<20 {
            // A few frames or, now and then, all of them or none.
            let changes = random.next() % 5 == 0 ? [count, 0][Int(random.next() % 2)] : 1 + Int(random.next() % 4)
            for _ in 0..<changes { frames[Int(random.next() % UInt64(count))] = Self.frame(&random) }
            answer = try #require(answer.updated(to: frames))
            #expect(answer.bytes == ResponseEncoder.encode(tree: tree, root: root, ids: ids, frames: frames), "seed \(seed)")
            #expect(answer.frames == frames)
        }
    }

    /// After nodes are added, removed and moved (and some ids and frames changed), the answer
    /// made from the old one reads as the new tree's answer encoded anew, and updates as one.
    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
    func restructuredAnswersReadAsAnswersEncodedAnew(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var count = 1 + Int(random.next() % 120)
        var (tree, root) = try Self.tree(count, &random)
        func id(_ k: Int) -> String? { k % 5 == 1 ? nil : k % 7 == 0 ? "n\"\(k)\\" : "node-\(k)" }
        var ids = NodeIdentifiers((0..<count).map(id))
        var answer = try #require(SplicedAnswer(tree: tree, root: root, ids: ids, frames: tree.preorderNodes(root: root).map { _ in Self.frame(&random) }))
        for round in 0..<12 {
            // The answer's pre-order positions, before the edits.
            var positions = tree.preorderPositions(root: root)
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let live = tree.preorderNodes(root: root)
                let parent = live[Int(random.next() % UInt64(live.count))]
                switch random.next() % 4 {
                case 0, 1:  // a new leaf or a small new subtree, anywhere among the parent's children
                    let node = try tree.addNode()
                    if random.next() % 2 == 0 { tree.appendChild(try tree.addNode(), to: node) }
                    tree.insertChild(node, into: parent, at: Int(random.next() % UInt64(tree.childCount(of: parent) + 1)))
                case 2 where tree.childCount(of: parent) > 0:
                    _ = tree.removeChild(at: Int(random.next() % UInt64(tree.childCount(of: parent))), of: parent)
                case 3 where tree.childCount(of: parent) > 0:
                    // A subtree moved under another node outside it.
                    let moved = tree.removeChild(at: Int(random.next() % UInt64(tree.childCount(of: parent))), of: parent)
                    let targets = tree.preorderNodes(root: root)
                    let target = targets[Int(random.next() % UInt64(targets.count))]
                    tree.insertChild(moved, into: target, at: Int(random.next() % UInt64(tree.childCount(of: target) + 1)))
                default: break
                }
            }
            count = tree.nodeCount
            var newIds = (0..<count).map { $0 < ids.count ? ids[$0] : id($0) }
            // Some kept nodes get another id: their old bytes must not be copied.
            for _ in 0..<Int(random.next() % 3) {
                let k = Int(random.next() % UInt64(positions.count))
                newIds[k] = "renamed-\(round)-\(k)"
                positions[k] = -1
            }
            ids = NodeIdentifiers(newIds)
            // The old frames at the kept nodes, a few of them changed.
            var frames = tree.preorderNodes(root: root).map { node in
                let k = Int(node.index) < positions.count ? positions[Int(node.index)] : -1
                return k >= 0 && random.next() % 4 != 0 ? answer.frames[k] : Self.frame(&random)
            }
            answer = try #require(answer.restructured(tree: tree, root: root, ids: ids, frames: frames, positions: positions))
            #expect(answer.bytes == ResponseEncoder.encode(tree: tree, root: root, ids: ids, frames: frames), "seed \(seed), round \(round)")
            // Its frames' places are right: an update rewrites them.
            frames[Int(random.next() % UInt64(frames.count))] = Self.frame(&random)
            answer = try #require(answer.updated(to: frames))
            #expect(answer.bytes == ResponseEncoder.encode(tree: tree, root: root, ids: ids, frames: frames), "seed \(seed), round \(round)")
        }
    }

    @Test func framesOfAnotherCountAreNotSpliced() throws {
        var random = SplitMix64(seed: 7)
        let (tree, root) = try Self.tree(5, &random)
        let frames = (0..<5).map { _ in Self.frame(&random) }
        let answer = try #require(SplicedAnswer(tree: tree, root: root, ids: [], frames: frames))
        #expect(answer.updated(to: Array(frames.dropLast())) == nil)
        #expect(answer.heapBytes >= answer.bytes.count + 5 * (MemoryLayout<Frame>.stride + 8))
    }
}
