import LayoutEngine
import Testing
@testable import LayoutWire

/// Copies of repeated subtrees written from their source's bytes (`CopiedSubtreeWriter`): the
/// answer is byte for byte the one written node by node, whether the copies' frames are their
/// sources' (written from them) or not (written node by node).
@Suite struct CopiedSubtreeWriterTests {
    /// The request decoded in one pass with repeats looked for at any size, laid out.
    static func laidOut(_ text: String) throws -> LayoutRequest {
        let bytes = Array(text.utf8)
        var copies = 0
        var request = try #require(bytes.withUnsafeBufferPointer {
            OnePassDecoder.decode($0, limits: .default, repeatsFrom: 0, copies: &copies)
        }, "the one-pass decoder gave up on \(text)")
        #expect(request.subtreeCopies.list.count == copies)
        request.computeLayout()
        return request
    }

    /// The answer with the decoder's copies, the copies written from sources, and the answer
    /// written node by node. Frames from the tree and from a pre-order list (as the service
    /// has them) give the same answers.
    static func answers(_ request: LayoutRequest) -> (withCopies: String, written: Int, nodeByNode: String) {
        func encode<Frames: ResponseFrames>(_ frames: Frames, written: inout Int) -> String {
            String(decoding: request.ids.withView { ids in
                ResponseEncoder.encode(tree: request.tree, root: request.root, ids: ids, frames: frames,
                                       members: NoNodeMembers(), printedTree: nil, copies: request.subtreeCopies,
                                       copiesWritten: &written, trailer: nil)
            }, as: UTF8.self)
        }
        var written = 0, writtenFromList = 0
        let withCopies = encode(TreeFrames(), written: &written)
        let list = PreorderFrames(request.tree.preorderFrames(root: request.root))
        #expect(encode(list, written: &writtenFromList) == withCopies)
        #expect(writtenFromList == written)
        let nodeByNode = ResponseEncoder.encode(tree: request.tree, root: request.root, ids: request.ids,
                                                frames: TreeFrames(), members: NoNodeMembers())
        return (withCopies, written, String(decoding: nodeByNode, as: UTF8.self))
    }

    /// A list of `cells` cells of `shapes` shapes taking turns, each cell an avatar beside a
    /// column of two bars; `cellStyle` goes into every cell's style, `listStyle` into the list's,
    /// `avatarID` names the avatars.
    static func feed(cells: Int, shapes: Int, listStyle: String = #""width": 300"#, cellStyle: String = "",
                     avatarID: (Int) -> String = { "a\($0)" }) -> String {
        let list = (0..<cells).map { i in
            let v = i % shapes
            return #"{"id": "c\#(i)", "style": {"flexDirection": "row", "padding": 4\#(cellStyle)}, "children": ["#
                + #"{"id": "\#(avatarID(i))", "style": {"width": \#(20 + v), "height": 20}}, "#
                + #"{"style": {"flexGrow": 1}, "children": [{"id": "t\#(i)", "style": {"height": 8, "width": "\#(50 + v)%"}}, "#
                + #"{"id": "s\#(i)", "style": {"height": 6, "width": "80%"}}]}]}"#
        }
        return #"{"root": {"id": "list", "style": {\#(listStyle)}, "children": [\#(list.joined(separator: ", "))]}}"#
    }

    /// Random requests whose children often repeat an earlier sibling: every answer as written
    /// node by node, and copies written from their sources across the seeds.
    @Test func randomRepeatsAnswerAsNodeByNode() throws {
        var written = 0
        for seed: UInt64 in 2_000..<2_200 {
            var generator = RequestGenerator(seed: seed)
            generator.repeats = true
            let request = try Self.laidOut(generator.request())
            let answers = Self.answers(request)
            #expect(answers.withCopies == answers.nodeByNode, "seed \(seed)")
            written += answers.written
        }
        // About one in ten seeds has copies, and half of those are laid out as their sources.
        #expect(written >= 25, "\(written) copies written from their sources")
    }

    /// A feed of two shapes: every copy is laid out as its source and written from it.
    @Test func copiesLaidOutAsTheirSourcesAreWrittenFromThem() throws {
        let request = try Self.laidOut(Self.feed(cells: 12, shapes: 2))
        let answers = Self.answers(request)
        #expect(answers.withCopies == answers.nodeByNode)
        #expect(request.subtreeCopies.list.count == 9)  // repeats are looked for from the fourth child
        #expect(answers.written == 9)
    }

    /// Copies whose frames are not their source's are written node by node: cells in wrapped
    /// lines of other lengths grow to other widths, and cells at fractional offsets round
    /// their nodes' edges otherwise.
    @Test(arguments: [
        (#""width": 100, "flexDirection": "row", "flexWrap": "wrap""#, #", "flexGrow": 1, "minWidth": 30"#),
        (#""width": 2000, "flexDirection": "row""#, #", "width": 100.3"#),
    ]) func copiesLaidOutOtherwiseAreWrittenNodeByNode(listStyle: String, cellStyle: String) throws {
        let request = try Self.laidOut(Self.feed(cells: 11, shapes: 1, listStyle: listStyle, cellStyle: cellStyle))
        let answers = Self.answers(request)
        #expect(answers.withCopies == answers.nodeByNode)
        #expect(request.subtreeCopies.list.count == 8)
        #expect(answers.written < 8, "every copy written from its source")
    }

    /// A hint that no longer holds (a copy edited after decoding, a child removed, a copy's id
    /// that needs escapes, a source whose does) is checked, not trusted; empty ids are ids.
    @Test func staleHintsAndEscapedIdsAreWrittenNodeByNode() throws {
        var request = try Self.laidOut(Self.feed(cells: 8, shapes: 1))
        let copy = request.subtreeCopies.list[1].copy
        let avatar = request.tree.firstChild(of: copy)
        var style = request.tree.style(of: avatar)
        style.width = .points(33)
        try request.tree.setStyle(style, for: avatar)
        request.computeLayout()
        var answers = Self.answers(request)
        #expect(answers.withCopies == answers.nodeByNode)
        #expect(answers.written == request.subtreeCopies.list.count - 1)

        // A child added or removed anywhere: the copies no longer describe the tree.
        let removed = request.tree.removeChild(at: 0, of: request.tree.nextSibling(of: avatar))
        request.computeLayout()
        answers = Self.answers(request)
        #expect(answers.withCopies == answers.nodeByNode)
        #expect(!answers.withCopies.contains("\"t4\""), "the removed child \(removed) is gone")
        #expect(answers.written == 0)

        // Avatar ids with escapes: in the copy c5, and in c2, the source of every copy (each of a
        // shape is compared with the latest earlier sibling first). A copy's own id may have
        // escapes: it is written as any node's. Empty avatar ids need none.
        for (cell, id, written) in [(5, #"a\"5"#, 5), (2, #"a\"2"#, 0), (5, "", 6), (2, "", 6)] {
            request = try Self.laidOut(Self.feed(cells: 9, shapes: 1) { $0 == cell ? id : "a\($0)" })
            answers = Self.answers(request)
            #expect(answers.withCopies == answers.nodeByNode, "avatar id \(id) in cell \(cell)")
            #expect(request.subtreeCopies.list.count == 6)
            #expect(request.subtreeCopies.list.allSatisfy { $0.source == request.subtreeCopies.list[0].source })
            #expect(answers.written == written, "avatar id \(id) in cell \(cell)")
        }
    }
}
