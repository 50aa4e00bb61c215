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

    @Test func framesOfAnotherCountAreNotSpliced() throws {
        var random = SplitMix64(seed: 7)
        let (tree, root) = try Self.tree(5, &random)
        let frames = (0..<5).map { _ in Self.frame(&random) }
        let answer = try #require(SplicedAnswer(tree: tree, root: root, ids: [], frames: frames))
        #expect(answer.updated(to: Array(frames.dropLast())) == nil)
        #expect(answer.heapBytes >= answer.bytes.count + 5 * (MemoryLayout<Frame>.stride + 8))
    }
}
