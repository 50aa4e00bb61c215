import Testing
@testable import LayoutEngine
@testable import LayoutWire

/// The whole-tree hash of a tree with copied subtrees, where chunks of copies take the hash of
/// an earlier chunk of the same nodes (`LayoutTree+StructuralHashCopies`): the same hash and
/// chunks as hashing every node, whether the decoder's hint still holds or not.
@Suite struct CopiedSubtreeHashTests {
    static func decoded(_ text: String) throws -> LayoutRequest {
        var copies = 0
        let bytes = Array(text.utf8)
        return try #require(bytes.withUnsafeBufferPointer {
            OnePassDecoder.decode($0, limits: .default, repeatsFrom: 0, copies: &copies)
        }, "the one-pass decoder gave up on \(text)")
    }

    /// The hash and its chunks (first node, length, window, hash), with the decoder's copies
    /// and without; and how many chunks took an earlier chunk's hash.
    static func hashes(_ request: LayoutRequest, key: StructuralHashKey = StructuralHashKey(k0: 1, k1: 2))
        -> (withCopies: [String], reused: Int, nodeByNode: [String]) {
        func described(_ parts: StructuralHashParts?) -> [String] {
            [parts!.hash.hexString] + parts!.chunks.map { "\($0.first) \($0.last) \($0.length) \($0.window) \($0.hash)" }
        }
        let tree = request.tree, root = Int(request.root.index)
        var reused = 0
        var withCopies: StructuralHashParts? = StructuralHashParts(root: request.root.index, structureVersion: tree.structureVersion,
                                                                  nodeCount: tree.nodeCount)
        _ = tree.hashChunks(root: root, available: request.available, direction: request.direction, key: key,
                            copies: request.subtreeCopies.list, recording: &withCopies, reused: &reused)
        let nodeByNode = tree.structuralHashParts(root: request.root, available: request.available,
                                                  direction: request.direction, key: key)
        #expect(tree.structuralHash(root: request.root, available: request.available, direction: request.direction,
                                    key: key, copies: request.subtreeCopies.list) == nodeByNode.hash)
        return (described(withCopies), reused, described(nodeByNode))
    }

    /// Random requests whose children often repeat an earlier sibling, with text or not.
    @Test func randomRepeatsHashAsNodeByNode() throws {
        var copies = 0
        for seed: UInt64 in 3_000..<3_200 {
            var generator = RequestGenerator(seed: seed)
            generator.repeats = true
            generator.text = seed % 2 == 1
            let request = try Self.decoded(generator.request())
            let hashes = Self.hashes(request)
            #expect(hashes.withCopies == hashes.nodeByNode, "seed \(seed)")
            copies += request.subtreeCopies.list.count
        }
        #expect(copies >= 40, "\(copies) copies")
    }

    /// A feed of two shapes: every chunk after the first cells' is one met before. (Chunks are
    /// cut by their nodes' words, not by the key: the same for every key. A feed whose cells
    /// never cut one is cut every 128 nodes, out of step with its cells: it reuses little.)
    @Test func feedsReuseTheirCellsChunks() throws {
        let request = try Self.decoded(CopiedSubtreeWriterTests.feed(cells: 400, shapes: 2))
        let hashes = Self.hashes(request)
        #expect(hashes.withCopies == hashes.nodeByNode)
        // 400 cells of 5 nodes: one chunk every two cells, all but those over the first cells
        // taken from earlier ones.
        #expect(hashes.withCopies.count - 1 == 200)
        #expect(hashes.reused >= 195, "\(hashes.reused) of \(hashes.withCopies.count - 1) chunks")
    }

    /// A copy edited after decoding (its style, its content) is hashed as it is now.
    @Test func editedCopiesHashAsTheyAre() throws {
        var request = try Self.decoded(CopiedSubtreeWriterTests.feed(cells: 200, shapes: 2))
        let before = Self.hashes(request)
        let copy = request.subtreeCopies.list[40].copy
        let avatar = request.tree.firstChild(of: copy)
        var style = request.tree.style(of: avatar)
        style.width = .points(33)
        try request.tree.setStyle(style, for: avatar)
        // Another copy's content, in a chunk of its own.
        let column = request.tree.nextSibling(of: request.tree.firstChild(of: request.subtreeCopies.list[80].copy))
        let bar = request.tree.nextSibling(of: request.tree.firstChild(of: column))
        try request.tree.setContent(.fixed(Size(width: 3, height: 4)), for: bar)
        let after = Self.hashes(request)
        #expect(after.withCopies == after.nodeByNode)
        #expect(after.withCopies[0] != before.withCopies[0])
        #expect(after.reused < before.reused)
    }
}
