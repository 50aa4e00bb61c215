import Foundation
import LayoutWire
import Testing
import SyncSupport
import TestSupport
@testable import LayoutServer

/// `POST /compute/patch`: a JSON Patch against an earlier answer's request, answered with the
/// frames of the patched tree — the same frames and ETag as sending that tree whole.
@Suite struct PatchTests {
    // MARK: Equal to the whole tree

    /// Random flexbox trees and random chains of patches (fixed seeds): every answer equals the
    /// uncached answer to the patched document sent whole (byte for byte, or, with
    /// `changesOnly`, the previous frames with the changes applied), and its ETag is that
    /// document's. Seeds 9 and 10 make trees of several hash chunks (see `structuralHash`).
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8, 9, 10])
    func chainsOfRandomPatchesAnswerAsTheWholeTree(seed: UInt64) throws {
        try Self.chain(seed: seed, styles: .plain)
    }

    /// The same with flex bases (fractional, so pixel rounding moves edges). On seeds 6 and 9
    /// Yoga's relayout in place gave other frames than the patched tree laid out whole (seed
    /// 6, the first patch: heights differed by more than rounding): a basis computed once in a
    /// layout call is kept for the rest of it, and what comes first depended on the caches of
    /// earlier calls. Patches relay out exactly (`LayoutTree.relayoutsExactly`) since.
    @Test(arguments: [UInt64(6), 9])
    func chainsWithFlexBasesAnswerAsTheWholeTree(seed: UInt64) throws {
        try Self.chain(seed: seed, styles: .flexBases)
    }

    /// The same with percentages, min and max sizes, aspect ratios, wrap, absolute positions,
    /// `display: none` and baselines, with which Yoga's relayout in place gave other frames than
    /// the whole layout on every one of these seeds before patches relaid out exactly.
    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16, 17, 18])
    func chainsWithRichStylesAnswerAsTheWholeTree(seed: UInt64) throws {
        try Self.chain(seed: seed, styles: .rich)
    }

    /// The same with text leaves, text style keys and `direction`: edits that leave every
    /// leaf's text as it was are made in place (the leaves measured through the kept tree's
    /// hooks, installed again), the others rebuilt.
    @Test(arguments: [UInt64(21), 22, 23, 24, 25, 26, 27, 28])
    func chainsWithTextAnswerAsTheWholeTree(seed: UInt64) throws {
        try Self.chain(seed: seed, styles: .text)
    }

    /// A random tree (seeds above 8: of 100–139 nodes, else 12–51) and 14 random patches chained.
    static func chain(seed: UInt64, styles: PatchFixture.Styles) throws {
        var random = SplitMix64(seed: seed)
        var modes: [String: Int] = [:]
        try LiveServer.with { server in
            try LiveServer.with { whole in
                var document = PatchFixture.randomRequest(&random, nodes: (seed > 8 ? 100 : 12) + Int(random.next() % 40),
                                                          styles: styles)
                let first = try server.post("/compute", json: document.text)
                try #require(first.status == 200)
                var tag = try #require(first.header("ETag"))
                var frames = PatchFixture.frames(of: first.body)
                for step in 0..<14 {
                    let patch = PatchFixture.randomPatch(document, &random, styles: styles)
                    let changesOnly = step % 3 == 2
                    var expected = document
                    var count = 0
                    try JSONPatch(JSONValue.parse(patch), maxOperations: 100)
                        .apply(to: &expected, valueCount: &count, maxValues: .max, maxNesting: 1_000)
                    let body = #"{"base":\#(PatchFixture.quoted(tag)),"patch":\#(patch),"changesOnly":\#(changesOnly)}"#
                    let answer = try server.post("/compute/patch", json: body)
                    try #require(answer.status == 200, "seed \(seed) step \(step): \(patch) → \(String(decoding: answer.body, as: UTF8.self))")
                    modes[answer.header("X-Patch") ?? "none", default: 0] += 1
                    let reference = LayoutOnce.answer(body: expected.jsonBytes())
                    try #require(reference.status == 200)
                    if changesOnly {
                        frames = try PatchFixture.applying(changes: answer.body, to: frames)
                        #expect(frames == PatchFixture.frames(of: reference.body), "seed \(seed) step \(step): \(patch)")
                    } else {
                        #expect(answer.body == reference.body, "seed \(seed) step \(step): \(patch)")
                        frames = PatchFixture.frames(of: answer.body)
                    }
                    let wholeAnswer = try whole.post("/compute", json: expected.text)
                    #expect(answer.header("ETag") == wholeAnswer.header("ETag"), "seed \(seed) step \(step): \(patch)")
                    tag = try #require(answer.header("ETag"))
                    document = expected
                }
            }
        }
        // Edits were made in place (nodes added, removed and moved too, except in text trees).
        #expect(modes["in-place", default: 0] + modes["in-place-fresh", default: 0] > 0)
        if styles != .rich { #expect(modes["in-place", default: 0] > 0) }
        if styles == .text { #expect(modes["rebuilt", default: 0] > 0) }
    }

    // MARK: Every operation

    static let row = #"""
        {"available":{"width":400,"height":null},
         "root":{"id":"bar","style":{"flexDirection":"row","width":300,"padding":10},
                 "children":[{"id":"icon","style":{"width":80,"height":40}},
                             {"id":"label","style":{"flexGrow":1},"measure":{"kind":"fixed","width":50,"height":20}},
                             {"id":"badge","style":{"width":20,"height":20}}]}}
        """#

    /// Each operation kind on nodes, styles and measures: the answer, its mode, and its changes.
    @Test(arguments: [
        (#"[{"op":"replace","path":"/root/children/0/style/width","value":120}]"#, "in-place-fresh"),
        (#"[{"op":"add","path":"/root/children/2/style/marginLeft","value":5}]"#, "in-place-fresh"),
        (#"[{"op":"remove","path":"/root/children/0/style/height"}]"#, "in-place-fresh"),
        (#"[{"op":"replace","path":"/root/children/1/measure/height","value":60}]"#, "in-place-fresh"),
        (#"[{"op":"test","path":"/root/children/1/id","value":"label"},{"op":"replace","path":"/root/children/1/id","value":"title"}]"#, "in-place-fresh"),
        (#"[{"op":"copy","from":"/root/children/0/style/width","path":"/root/children/2/style/width"}]"#, "in-place-fresh"),
        (#"[{"op":"move","from":"/root/children/0/style/height","path":"/root/children/2/style/height"}]"#, "in-place-fresh"),
        (#"[{"op":"add","path":"/root/style/alignItems","value":"center"}]"#, "in-place-fresh"),
        (#"[{"op":"add","path":"/root/children/1","value":{"id":"new","style":{"width":30,"height":30}}}]"#, "in-place-fresh"),
        (#"[{"op":"remove","path":"/root/children/0"}]"#, "in-place-fresh"),
        (#"[{"op":"move","from":"/root/children/0","path":"/root/children/-"}]"#, "in-place-fresh"),
        (#"[{"op":"copy","from":"/root/children/2","path":"/root/children/0"}]"#, "rebuilt"),
        (#"[{"op":"replace","path":"/available/width","value":200}]"#, "rebuilt"),
        (#"[{"op":"add","path":"/root/children/2/text","value":"hello"}]"#, "rebuilt"),
    ])
    func everyOperationKindAnswersAsTheWholeTree(patch: String, mode: String) throws {
        try LiveServer.with { server in
            let (first, full, _, reference) = try Self.patchOnce(server, Self.row, patch)
            let tag = try #require(first.header("ETag"))
            #expect(full.status == 200)
            #expect(full.header("X-Patch") == mode)
            #expect(full.body == reference.body)
            #expect(full.header("ETag") != tag)
            let changes = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":\#(patch),"changesOnly":true}"#)
            #expect(changes.status == 200)
            #expect(changes.header("ETag") == full.header("ETag"))
            #expect(try PatchFixture.applying(changes: changes.body, to: PatchFixture.frames(of: first.body))
                    == PatchFixture.frames(of: reference.body))
        }
    }

    static let chat = #"""
        {"available":{"width":320,"height":null},
         "root":{"id":"chat","style":{"width":320,"padding":8,"gap":6},"children":[
           {"id":"m0","style":{"flexDirection":"row","gap":8},"children":[{"id":"a0","style":{"width":32,"height":32}},{"id":"b0","style":{"flexGrow":1,"height":40}}]},
           {"id":"m1","style":{"flexDirection":"row","gap":8},"children":[{"id":"a1","style":{"width":32,"height":32}},{"id":"b1","style":{"flexGrow":1,"height":24}}]},
           {"id":"m2","style":{"flexDirection":"row","gap":8},"children":[{"id":"a2","style":{"width":32,"height":32}},{"id":"b2","style":{"flexGrow":1,"height":56}}]}]}}
        """#

    /// Messages added, removed, replaced and moved in a chat (nodes added to and taken out of
    /// `children`) are edited in the kept tree and laid out in place: after the chain's first
    /// patch every one is `in-place`, answers as the patched tree sent whole (body and ETag), and
    /// its `changesOnly` form lists the frames that moved and the nodes removed.
    @Test(arguments: [
        #"[{"op":"add","path":"/root/children/-","value":{"id":"m3","style":{"flexDirection":"row"},"children":[{"id":"a3","style":{"width":32,"height":32}},{"id":"b3","style":{"flexGrow":1,"height":30}}]}}]"#,
        #"[{"op":"add","path":"/root/children/0","value":{"id":"top","style":{"height":12}}}]"#,
        #"[{"op":"remove","path":"/root/children/1"}]"#,
        #"[{"op":"replace","path":"/root/children/2","value":{"id":"m9","style":{"height":70}}}]"#,
        #"[{"op":"move","from":"/root/children/0","path":"/root/children/-"}]"#,
        #"[{"op":"move","from":"/root/children/2/children/0","path":"/root/children/0/children/1"}]"#,
        #"[{"op":"add","path":"/root/children/1/children/-","value":{"id":"x","style":{"width":10,"height":10}}},{"op":"replace","path":"/root/children/1/children/2/style/height","value":90}]"#,
        #"[{"op":"add","path":"/root/children/0/style/padding","value":4},{"op":"remove","path":"/root/children/0"}]"#,
        #"[{"op":"test","path":"/root/children/0/id","value":"m0"},{"op":"remove","path":"/root/children/0/children/1"},{"op":"add","path":"/root/children/0/children/0","value":{"id":"y","style":{"width":5,"height":5}}}]"#,
    ])
    func childrenAddedRemovedAndMovedArePatchedInPlace(patch: String) throws {
        try Self.secondPatchOfAChain(Self.chat, patch, mode: "in-place")
    }

    /// `patch` as the second patch of a chain on `request` (the first widens the root), whole
    /// and `changesOnly`: its mode, its answer against the patched tree sent whole (body and
    /// ETag), and a third patch after it in place.
    static func secondPatchOfAChain(_ request: String, _ patch: String, mode: String) throws {
        for changesOnly in [false, true] {
            try LiveServer.with { server in
                // The first patch of a chain lays the tree out afresh: the edit under test is the second.
                let widened = #"[{"op":"replace","path":"/root/style/width","value":300}]"#
                let (_, first, document, _) = try Self.patchOnce(server, request, widened)
                let tag = try #require(first.header("ETag"))
                let expected = try PatchFixture.patched(document.text, patch)
                let reference = LayoutOnce.answer(body: expected.jsonBytes())
                let answer = try server.post("/compute/patch", json: #"""
                    {"base":\#(PatchFixture.quoted(tag)),"patch":\#(patch),"changesOnly":\#(changesOnly)}
                    """#)
                #expect(answer.status == 200)
                #expect(answer.header("X-Patch") == mode, "\(patch)")
                if changesOnly {
                    #expect(try PatchFixture.applying(changes: answer.body, to: PatchFixture.frames(of: first.body))
                            == PatchFixture.frames(of: reference.body))
                } else {
                    #expect(answer.body == reference.body, "\(patch)")
                }
                let sentWhole = try LiveServer.with { other in try other.post("/compute", json: expected.text) }
                #expect(answer.header("ETag") == sentWhole.header("ETag"))
                // And the tree edited in place patches on as the patched tree sent whole does
                // (after its chain's first patch, which lays out afresh).
                guard mode == "in-place" else { return }
                let padding = #"[{"op":"replace","path":"/root/style/padding","value":3}]"#
                let next = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(answer.header("ETag") ?? "")),"patch":\#(padding)}"#)
                let control = try LiveServer.with { other in
                    let tag = try #require(try other.post("/compute", json: expected.text).header("ETag"))
                    let first = try other.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":[]}"#)
                    return try other.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(first.header("ETag") ?? "")),"patch":\#(padding)}"#)
                }
                #expect(next.header("X-Patch") == control.header("X-Patch"), "\(patch)")
                #expect(next.body == control.body)
            }
        }
    }

    static let textChat = #"""
        {"available":{"width":300,"height":null},
         "root":{"id":"chat","style":{"width":300,"padding":8,"gap":6,"fontFamily":"DejaVu Sans","fontSize":14},"children":[
           {"id":"m0","style":{"flexDirection":"row","gap":8},"children":[{"id":"a0","style":{"width":32,"height":32}},{"id":"t0","style":{"flexShrink":1},"text":"Hello there, how are you today?"}]},
           {"id":"m1","style":{"flexDirection":"row","gap":8,"fontSize":20},"children":[{"id":"a1","style":{"width":32,"height":32}},{"id":"t1","style":{"flexShrink":1},"text":"Fine, thanks; and you?"}]},
           {"id":"m2","style":{"flexDirection":"row","gap":8},"children":[{"id":"a2","style":{"width":32,"height":32}},{"id":"t2","style":{"flexShrink":1},"text":[{"text":"Spans "},{"text":"in bold","style":{"fontWeight":"bold"}}]}]}]}}
        """#

    /// The same in a chat whose messages are text leaves: an added message's leaves get their
    /// text in the styles they inherit where they land, a moved one's are resolved again there
    /// (under another font size), removed ones are dropped. A leaf naming a font family no font
    /// has is rebuilt (its whole answer carries a warning).
    @Test(arguments: [
        (#"[{"op":"add","path":"/root/children/-","value":{"id":"m3","style":{"flexDirection":"row"},"children":[{"id":"t3","text":"A new message that is long enough to wrap onto a second line"}]}}]"#, "in-place"),
        (#"[{"op":"add","path":"/root/children/1/children/-","value":{"id":"t4","text":"inherits twenty"}}]"#, "in-place"),
        (#"[{"op":"move","from":"/root/children/0/children/1","path":"/root/children/1/children/0"}]"#, "in-place"),
        (#"[{"op":"move","from":"/root/children/2","path":"/root/children/1/children/-"}]"#, "in-place"),
        (#"[{"op":"remove","path":"/root/children/1"},{"op":"replace","path":"/root/children/0/children/1/text","value":"Edited"}]"#, "in-place"),
        (#"[{"op":"replace","path":"/root/children/0","value":{"id":"m9","style":{"fontSize":9},"children":[{"text":"small"}]}}]"#, "in-place"),
        (#"[{"op":"add","path":"/root/children/0","value":{"text":"unknown font","style":{"fontFamily":"No Such Family"}}}]"#, "rebuilt"),
        (#"[{"op":"add","path":"/root/children/-","value":{"id":"x"}},{"op":"replace","path":"/root/style/fontSize","value":18}]"#, "rebuilt"),
    ])
    func textChildrenAddedRemovedAndMovedArePatchedInPlace(patch: String, mode: String) throws {
        try Self.secondPatchOfAChain(Self.textChat, patch, mode: mode)
    }

    /// Nodes taken out of a kept tree stay in its storage; a chain that keeps adding and
    /// removing them is rebuilt (compacted) once they pass half the live nodes, and answers as
    /// the whole tree throughout.
    @Test func removedNodesAreDroppedByARebuild() throws {
        try LiveServer.with { server in
            var document = try PatchFixture.patched(Self.chat, "[]")
            var tag = try #require(try server.post("/compute", json: Self.chat).header("ETag"))
            var modes: [String: Int] = [:]
            for step in 0..<60 {
                let patch = #"[{"op":"remove","path":"/root/children/0"},{"op":"add","path":"/root/children/-","value":{"id":"n\#(step)","style":{"flexDirection":"row"},"children":[{"style":{"width":\#(step % 7 + 20),"height":20}},{"style":{"flexGrow":1,"height":\#(step % 5 + 10)}}]}}]"#
                let answer = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":\#(patch)}"#)
                try #require(answer.status == 200)
                document = try PatchFixture.patched(document.text, patch)
                #expect(answer.body == LayoutOnce.answer(body: document.jsonBytes()).body, "step \(step)")
                modes[answer.header("X-Patch") ?? "none", default: 0] += 1
                tag = try #require(answer.header("ETag"))
            }
            // The chat keeps 10 nodes; each patch leaves 3 more in storage: a rebuild every ~24 patches.
            #expect(modes["rebuilt", default: 0] >= 1 && modes["rebuilt", default: 0] <= 3, "\(modes)")
            #expect(modes["in-place", default: 0] >= 50, "\(modes)")
        }
    }

    /// `request` sent to `server`, then `patch` against its answer: both answers, the patched
    /// document, and the uncached answer to that document sent whole.
    static func patchOnce(_ server: LiveServer, _ request: String, _ patch: String) throws
        -> (first: BlockingHTTPClient.Response, answer: BlockingHTTPClient.Response, expected: JSONTree,
            reference: (status: Int, body: [UInt8])) {
        let first = try server.post("/compute", json: request)
        let tag = try #require(first.header("ETag"))
        let expected = try PatchFixture.patched(request, patch)
        let answer = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":\#(patch)}"#)
        return (first, answer, expected, LayoutOnce.answer(body: expected.jsonBytes()))
    }

    @Test func changesListOnlyTheNodesWhoseFramesChanged() throws {
        try LiveServer.with { server in
            let first = try server.post("/compute", json: Self.row)
            let tag = try #require(first.header("ETag"))
            // The badge's width: it alone changes (the label is laid out before it, the row has a fixed width).
            let answer = try server.post("/compute/patch", json: #"""
                {"base":\#(PatchFixture.quoted(tag)),"changesOnly":true,
                 "patch":[{"op":"replace","path":"/root/children/2/style/width","value":35}]}
                """#)
            #expect(answer.status == 200)
            let object = try #require(answer.json as? [String: Any])
            let changes = try #require(object["changes"] as? [[String: Any]])
            #expect(changes.map { $0["pointer"] as? String } == ["/root/children/1", "/root/children/2"])
            #expect(changes.map { $0["id"] as? String } == ["label", "badge"])
            #expect(changes.last?["width"] as? Double == 35)
            #expect((object["removed"] as? [Any])?.isEmpty == true)
            // Removing a node: the removed pointer past the end, and the nodes that moved up.
            let removal = try server.post("/compute/patch", json: #"""
                {"base":\#(PatchFixture.quoted(tag)),"changesOnly":true,"patch":[{"op":"remove","path":"/root/children/0"}]}
                """#)
            let removed = try #require(removal.json as? [String: Any])
            #expect(removed["removed"] as? [String] == ["/root/children/2"])
        }
    }

    static let messages = #"""
        {"available":{"width":200,"height":null},"root":{"id":"list","style":{"width":200},"children":[
         {"id":"m0","style":{"height":30,"flexDirection":"row"},"children":[{"id":"a0","style":{"width":10}}]},
         {"id":"m1","style":{"height":40,"flexDirection":"row"},"children":[{"id":"a1","style":{"width":20}}]},
         {"id":"m2","style":{"height":50,"flexDirection":"row"},"children":[{"id":"a2","style":{"width":30}}]}]}}
        """#

    /// `changesBy: node`: a chat that scrolls (the first message removed, one appended) lists
    /// the messages that moved and the new one, not the avatars that moved with their message
    /// (by pointer, each avatar is compared with the one before it there); applied by a client
    /// that carries its frames through the patch, they give the whole document's frames. A patch
    /// that is rebuilt (a copy) lists every node.
    @Test(arguments: [
        (#"[{"op":"remove","path":"/root/children/0"},{"op":"add","path":"/root/children/-","value":{"id":"m3","style":{"height":20,"flexDirection":"row"},"children":[{"id":"a3","style":{"width":5}}]}}]"#,
         "in-place-fresh", ["list", "m1", "m2", "m3", "a3"]),
        (#"[{"op":"move","from":"/root/children/2","path":"/root/children/0"}]"#,
         "in-place-fresh", ["m2", "m0", "m1"]),
        (#"[{"op":"copy","from":"/root/children/0","path":"/root/children/-"}]"#,
         "rebuilt", ["list", "m0", "a0", "m1", "a1", "m2", "a2", "m0", "a0"]),
    ])
    func changesByNodeFollowEachNodeThroughThePatch(patch: String, mode: String, listed: [String]) throws {
        try LiveServer.with { server in
            let first = try server.post("/compute", json: Self.messages)
            let tag = try #require(first.header("ETag"))
            let answer = try server.post("/compute/patch", json: #"""
                {"base":\#(PatchFixture.quoted(tag)),"changesOnly":true,"changesBy":"node","patch":\#(patch)}
                """#)
            #expect(answer.status == 200)
            #expect(answer.header("X-Patch") == mode)
            let object = try #require(answer.json as? [String: Any])
            let changes = try #require(object["changes"] as? [[String: Any]])
            #expect(changes.map { $0["id"] as? String } == listed)
            #expect((object["removed"] as? [Any])?.isEmpty == true)
            let operations = try JSONPatch(JSONValue.parse(patch), maxOperations: 2)
            var patched = JSONTree(try JSONValue.parse(Self.messages))
            var count = 0
            try operations.apply(to: &patched, valueCount: &count, maxValues: .max, maxNesting: 100)
            let carried = try #require(PatchFixture.carried(PatchFixture.frames(of: first.body), by: operations,
                                                            document: JSONTree(try JSONValue.parse(Self.messages))))
            #expect(try PatchFixture.applying(changes: answer.body, to: carried)
                    == PatchFixture.frames(of: LayoutOnce.answer(body: patched.jsonBytes()).body))
            // By pointer, the same patch in place lists more nodes (a rebuilt one may list fewer).
            let byPointer = try server.post("/compute/patch", json: #"""
                {"base":\#(PatchFixture.quoted(tag)),"changesOnly":true,"patch":\#(patch)}
                """#)
            let pointerChanges = try #require((byPointer.json as? [String: Any])?["changes"] as? [[String: Any]])
            if mode != "rebuilt" { #expect(pointerChanges.count > changes.count) }
        }
    }

    /// A patch that edits nodes' own members leaves every node at its pointer: rebuilt (a text
    /// style key), its changes by node are those by pointer, not every node.
    @Test func aRebuiltPatchThatKeepsEveryNodeListsByNodeAsByPointer() throws {
        try LiveServer.with { server in
            let column = #"{"available":{"width":300},"root":{"style":{"width":150},"children":[{"id":"c","style":{"height":10}},{"id":"t","text":"The quick brown fox"}]}}"#
            let tag = try #require(try server.post("/compute", json: column).header("ETag"))
            let patch = #"[{"op":"test","path":"/root/children/0/style/height","value":10},{"op":"add","path":"/root/children/1/style","value":{"fontSize":30}}]"#
            var answers: [[UInt8]] = []
            for by in ["node", "pointer"] {
                let answer = try server.post("/compute/patch", json: #"""
                    {"base":\#(PatchFixture.quoted(tag)),"changesOnly":true,"changesBy":"\#(by)","patch":\#(patch)}
                    """#)
                #expect(answer.status == 200)
                #expect(answer.header("X-Patch") == "rebuilt")
                answers.append(answer.body)
            }
            #expect(answers[0] == answers[1])
            // The root and the text grew; the box above them did not move.
            let changes = try #require(try JSONValue.parse(bytes: answers[0])["changes"]?.elements)
            #expect(changes.map { $0["pointer"]?.stringValue } == ["/root", "/root/children/1"])
        }
    }

    static let textRow = #"{"available":{"width":300},"root":{"style":{"width":150,"flexDirection":"row"},"children":[{"id":"t","text":"The quick brown fox"},{"id":"b","style":{"height":10}}]}}"#

    /// In a tree with text leaves, an edit of a text style key or `direction` on a leaf or
    /// above it is rebuilt, and so is a text that is or becomes spans; other edits are made in
    /// place, a leaf's text replaced by another string included. Each answers as the patched
    /// tree sent whole, and a second edit on the answer's ETag relays out in place.
    @Test(arguments: [
        (#"[{"op":"replace","path":"/root/children/0/text","value":"The quick brown fox jumps over the lazy dog"}]"#, "in-place-fresh"),
        (#"[{"op":"replace","path":"/root/children/0/text","value":""}]"#, "in-place-fresh"),
        (#"[{"op":"replace","path":"/root/children/0/text","value":[{"text":"The quick "},{"text":"brown","style":{"fontWeight":"bold"}}]}]"#, "rebuilt"),
        (#"[{"op":"remove","path":"/root/children/0/text"}]"#, "rebuilt"),
        (#"[{"op":"add","path":"/root/children/1/text","value":"a new leaf"}]"#, "rebuilt"),
        (#"[{"op":"add","path":"/root/children/0/style","value":{"padding":4}}]"#, "in-place-fresh"),
        (#"[{"op":"replace","path":"/root/style/width","value":90}]"#, "in-place-fresh"),
        (#"[{"op":"add","path":"/root/children/1/style/width","value":30}]"#, "in-place-fresh"),
        (#"[{"op":"replace","path":"/root/children/0/id","value":"title"}]"#, "in-place-fresh"),
        (#"[{"op":"add","path":"/root/children/0/style","value":{"fontSize":20}}]"#, "rebuilt"),
        (#"[{"op":"add","path":"/root/style/fontWeight","value":"bold"}]"#, "rebuilt"),
        (#"[{"op":"add","path":"/root/style/direction","value":"rtl"}]"#, "rebuilt"),
        (#"[{"op":"add","path":"/root/children/0/measure","value":{"kind":"fixed","width":5,"height":5}}]"#, "rebuilt"),
    ])
    func textTreesArePatchedInPlaceUnlessTheirTextStyleChanges(patch: String, mode: String) throws {
        try LiveServer.with { server in
            let (_, answer, expected, reference) = try Self.patchOnce(server, Self.textRow, patch)
            #expect(answer.header("X-Patch") == mode)
            #expect(answer.status == reference.status)
            guard reference.status == 200 else {
                // The rebuild's error, worded for the patched document.
                #expect((answer.json as? [String: [String: Any]])?["error"]?["code"] as? String == "text-with-measure")
                return
            }
            #expect(answer.body == reference.body, "\(String(decoding: answer.body, as: UTF8.self))")
            // Then the box's height, on the answer's ETag (the tree sent whole only after it: its
            // answer would replace the kept tree under that ETag with one laid out afresh).
            let next = #"[{"op":"replace","path":"/root/children/1/style/height","value":12}]"#
            let twice = try PatchFixture.patched(expected.text, next)
            let second = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(try #require(answer.header("ETag")))),"patch":\#(next)}"#)
            #expect(second.header("X-Patch") == (mode == "rebuilt" ? "in-place-fresh" : "in-place"))
            #expect(second.body == LayoutOnce.answer(body: twice.jsonBytes()).body)
            let whole = try server.post("/compute", json: twice.text)
            #expect(second.header("ETag") == whole.header("ETag"))
        }
    }

    /// A tree whose answer carries lines (`"textLines": true`) or warnings is rebuilt: patches
    /// in place write neither.
    @Test(arguments: [
        Self.textRow.replacingOccurrences(of: #""available""#, with: #""textLines":true,"available""#),
        Self.textRow.replacingOccurrences(of: #""text":"The"#, with: #""style":{"fontFamily":"No Such Font"},"text":"The"#),
    ])
    func textTreesWithLinesOrWarningsAreRebuilt(request: String) throws {
        try LiveServer.with { server in
            let first = try server.post("/compute", json: request)
            let tag = try #require(first.header("ETag"))
            let patch = #"[{"op":"replace","path":"/root/style/width","value":90}]"#
            let answer = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":\#(patch)}"#)
            #expect(answer.header("X-Patch") == "rebuilt")
            let whole = try server.post("/compute", json: request.replacingOccurrences(of: #""width":150"#, with: #""width":90"#))
            #expect(String(decoding: answer.body, as: UTF8.self) == String(decoding: whole.body, as: UTF8.self))
            #expect(String(decoding: answer.body, as: UTF8.self).contains(request.contains("textLines") ? #""lines""# : #""warnings""#))
        }
    }

    /// Text items that must shrink in a row (sized as CSS sizes flex items, each stopping at its
    /// longest word): a patch of the row's width answers as the patched tree sent whole.
    @Test func shrinkingTextRowsArePatchedAsTheWholeTree() throws {
        let request = #"{"config":{"pointScaleFactor":0},"root":{"style":{"width":200,"flexDirection":"row","alignItems":"flex-start"},"children":[{"id":"a","text":"Shrinking text stops at its longest word"},{"id":"b","text":"extraordinarily long words"}]}}"#
        try LiveServer.with { server in
            let first = try server.post("/compute", json: request)
            let tag = try #require(first.header("ETag"))
            for width in [120, 60, 400] {
                let patch = #"[{"op":"replace","path":"/root/style/width","value":\#(width)}]"#
                let answer = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":\#(patch)}"#)
                #expect(answer.status == 200)
                let whole = try server.post("/compute", json: request.replacingOccurrences(of: #""width":200"#, with: #""width":\#(width)"#))
                #expect(answer.body == whole.body, "width \(width)")
                #expect(answer.header("ETag") == whole.header("ETag"))
            }
        }
    }

    @Test func theDeepestNodeOfADeepTreeIsPatched() throws {
        // 990 nested nodes (the default limit is 1,000): the document nests ~2,000 levels.
        let depth = 990
        let request = #"{"root":"# + String(repeating: #"{"style":{"padding":1},"children":["#, count: depth - 1)
            + #"{"id":"leaf","style":{"width":10,"height":10}}"# + String(repeating: "]}", count: depth - 1) + "}"
        try LiveServer.with { server in
            let first = try server.post("/compute", json: request)
            try #require(first.status == 200)
            let path = "/root" + String(repeating: "/children/0", count: depth - 1) + "/style/width"
            let answer = try server.post("/compute/patch", json: #"""
                {"base":\#(PatchFixture.quoted(try #require(first.header("ETag")))),"patch":[{"op":"replace","path":"\#(path)","value":20}]}
                """#)
            #expect(answer.status == 200)
            #expect(answer.header("X-Patch") == "in-place-fresh")  // the first patch of the chain
            let whole = LayoutOnce.answer(body: Array(request.replacingOccurrences(of: #""width":10"#, with: #""width":20"#).utf8))
            #expect(String(decoding: answer.body, as: UTF8.self) == String(decoding: whole.body, as: UTF8.self))
        }
    }

    // MARK: Chains, eviction, concurrency

    /// Each answer's ETag is the base of the next patch; the first patch of the chain lays the
    /// kept tree out afresh, the next ones only what their edit reaches.
    @Test func patchesChainOnTheETagOfEachAnswer() throws {
        try LiveServer.with { server in
            var tag = try #require(try server.post("/compute", json: Self.row).header("ETag"))
            var expected = JSONTree(try JSONValue.parse(Self.row))
            for width in [90, 100, 110, 120] {
                let patch = #"[{"op":"replace","path":"/root/children/0/style/width","value":\#(width)}]"#
                let answer = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":\#(patch)}"#)
                #expect(answer.status == 200)
                #expect(answer.header("X-Patch") == (width == 90 ? "in-place-fresh" : "in-place"))
                var count = 0
                try JSONPatch(JSONValue.parse(patch), maxOperations: 1).apply(to: &expected, valueCount: &count, maxValues: .max, maxNesting: 100)
                #expect(answer.body == LayoutOnce.answer(body: expected.jsonBytes()).body)
                tag = try #require(answer.header("ETag"))
            }
            // The earlier bases are still there: patching the first one again works.
            let again = try server.post("/compute/patch", json: #"""
                {"base":\#(PatchFixture.quoted(tag)),"patch":[{"op":"test","path":"/root/children/0/style/width","value":120}]}
                """#)
            #expect(again.status == 200)
            #expect(again.header("ETag") == tag)
        }
    }

    /// A whole answer in place is the chain's last whole answer with the moved frames written
    /// again (`SplicedAnswer`), kept with the tree; a `changesOnly` answer hands it on, an id
    /// edit drops it. Every answer reads as the patched tree sent whole.
    @Test func wholeAnswersInPlaceAreSplicedFromTheChainsLastWholeAnswer() throws {
        try LiveServer.with { server in
            var tag = try #require(try server.post("/compute", json: Self.row).header("ETag"))
            var expected = JSONTree(try JSONValue.parse(Self.row))
            var frames = PatchFixture.frames(of: LayoutOnce.answer(body: expected.jsonBytes()).body)
            let steps: [(patch: String, changesOnly: Bool, keepsAnswer: Bool)] = [
                (#"[{"op":"replace","path":"/root/children/0/style/width","value":90}]"#, false, true),
                (#"[{"op":"replace","path":"/root/children/2/style/width","value":35}]"#, false, true),
                (#"[{"op":"replace","path":"/root/children/0/style/width","value":70}]"#, true, true),
                (#"[{"op":"replace","path":"/root/children/1/measure/width","value":10}]"#, false, true),
                (#"[{"op":"replace","path":"/root/children/2/id","value":"count"}]"#, true, false),
                (#"[{"op":"replace","path":"/root/children/0/style/height","value":45}]"#, false, true),
                // Nodes added, moved and removed: the whole answer is made from the last one's
                // bytes and kept; a changesOnly answer keeps none (the kept one has the old structure).
                (#"[{"op":"add","path":"/root/children/1","value":{"id":"dot","style":{"width":6,"height":6},"children":[{"style":{"width":2,"height":2}}]}}]"#, false, true),
                (#"[{"op":"move","from":"/root/children/0","path":"/root/children/3"}]"#, false, true),
                (#"[{"op":"replace","path":"/root/children/0/id","value":"spot"},{"op":"remove","path":"/root/children/1"}]"#, false, true),
                (#"[{"op":"remove","path":"/root/children/0/children/0"}]"#, true, false),
                (#"[{"op":"replace","path":"/root/children/1/style/width","value":30}]"#, false, true),
            ]
            for (k, step) in steps.enumerated() {
                let answer = try server.post("/compute/patch", json: #"""
                    {"base":\#(PatchFixture.quoted(tag)),"patch":\#(step.patch),"changesOnly":\#(step.changesOnly)}
                    """#)
                #expect(answer.status == 200)
                #expect(answer.header("X-Patch") == (k == 0 ? "in-place-fresh" : "in-place"))
                var count = 0
                try JSONPatch(JSONValue.parse(step.patch), maxOperations: 2)
                    .apply(to: &expected, valueCount: &count, maxValues: .max, maxNesting: 100)
                let reference = LayoutOnce.answer(body: expected.jsonBytes()).body
                if step.changesOnly {
                    frames = try PatchFixture.applying(changes: answer.body, to: frames)
                    #expect(frames == PatchFixture.frames(of: reference), "step \(k)")
                } else {
                    #expect(answer.body == reference, "step \(k)")
                    frames = PatchFixture.frames(of: answer.body)
                }
                tag = try #require(answer.header("ETag"))
                let key = try #require(BaseKey(entityTag: tag))
                let kept = try #require(server.host.service.bases.lookup(key))
                #expect((kept.answer != nil) == step.keepsAnswer, "step \(k)")
                if !step.changesOnly { #expect(kept.answer?.bytes == answer.body, "step \(k)") }
                #expect(kept.cost >= (kept.answer?.heapBytes ?? 0) + (kept.copyOfRequest()?.tree.heapBytes ?? 0))
            }
        }
    }

    /// A chain that adds and removes nodes (a chat that scrolls) is charged about what its
    /// document and tree hold, not every value it ever added: the charge is measured again once
    /// it doubles.
    @Test func aLongChainIsChargedWhatItsDocumentHolds() throws {
        try LiveServer.with { server in
            var tag = try #require(try server.post("/compute", json: Self.chat).header("ETag"))
            var costs: [Int] = []
            let long = String(repeating: "x", count: 2_000)
            for step in 0..<150 {
                let patch = #"[{"op":"remove","path":"/root/children/0"},{"op":"add","path":"/root/children/-","value":{"id":"\#(long)\#(step)","style":{"height":20}}}]"#
                let answer = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":\#(patch)}"#)
                try #require(answer.status == 200)
                tag = try #require(answer.header("ETag"))
                let key = try #require(BaseKey(entityTag: tag))
                costs.append(try #require(server.host.service.bases.lookup(key)).cost)
            }
            // 150 ids of 2 KB were added; about three are in the document at any time.
            #expect(costs.last! < costs[2] + 150_000, "\(costs[2]) -> \(costs.last!)")
            #expect(costs.max()! < costs[2] + 500_000)
        }
    }

    /// The values a chain's patches bring in are counted against `--max-document-bytes` only
    /// while they are in the document: a chain of many small edits is measured again, not
    /// refused as too large.
    @Test func aLongChainOfSmallEditsIsNotRefusedAsTooLarge() throws {
        try LiveServer.with({ $0.wire.maxDocumentBytes = 1_200 }) { server in
            var tag = try #require(try server.post("/compute", json: Self.chat).header("ETag"))
            for step in 0..<700 {
                let patch = #"[{"op":"replace","path":"/root/style/width","value":\#(300 + step % 2)}]"#
                let answer = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":\#(patch)}"#)
                try #require(answer.status == 200, "step \(step): \(String(decoding: answer.body, as: UTF8.self))")
                tag = try #require(answer.header("ETag"))
            }
        }
    }

    /// What a default server charges for keeping `request` laid out for patches: the base of a
    /// patch, which keeps the tree (the request's own base keeps its body alone).
    static func keptCost(of request: String) throws -> Int {
        try LiveServer.with { server in
            let tag = try #require(try server.post("/compute", json: request).header("ETag"))
            _ = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":[]}"#)
            let key = try #require(BaseKey(entityTag: tag))
            let kept = try #require(server.host.service.bases.lookup(key))
            #expect(kept.copyOfRequest() != nil)
            return kept.cost
        }
    }

    /// What a default server charges for the base `/compute` keeps of `request` (its body).
    static func computedBaseCost(of request: String) throws -> Int {
        try LiveServer.with { server in
            let tag = try #require(try server.post("/compute", json: request).header("ETag"))
            let key = try #require(BaseKey(entityTag: tag))
            return try #require(server.host.service.bases.lookup(key)).cost
        }
    }

    /// A tree whose kept form costs more than a shard holds keeps its document alone: its
    /// patches are rebuilt from that (and answer as the whole tree), not refused 412.
    @Test func aTreeTooLargeToKeepIsPatchedByRebuilding() throws {
        let cost = try Self.keptCost(of: Self.chat)
        try LiveServer.with({ $0.patchBaseBytes = cost / 2; $0.cacheShards = 1 }) { server in
            var document = try PatchFixture.patched(Self.chat, "[]")
            var tag = try #require(try server.post("/compute", json: Self.chat).header("ETag"))
            let key = try #require(BaseKey(entityTag: tag))
            let kept = try #require(server.host.service.bases.lookup(key))
            #expect(kept.copyOfRequest() == nil && kept.cost <= cost / 2)
            for patch in [#"[{"op":"add","path":"/root/children/-","value":{"style":{"height":5}}}]"#,
                          #"[{"op":"replace","path":"/root/style/width","value":250}]"#] {
                let answer = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":\#(patch)}"#)
                #expect(answer.status == 200)
                #expect(answer.header("X-Patch") == "rebuilt")
                document = try PatchFixture.patched(document.text, patch)
                #expect(answer.body == LayoutOnce.answer(body: document.jsonBytes()).body)
                tag = try #require(answer.header("ETag"))
            }
            // changesOnly answers changes, by pointer and by node, though neither tree is kept.
            var frames = PatchFixture.frames(of: LayoutOnce.answer(body: document.jsonBytes()).body)
            for (patch, by) in [(#"[{"op":"add","path":"/root/children/0","value":{"style":{"height":7}}}]"#, "pointer"),
                                (#"[{"op":"remove","path":"/root/children/0"}]"#, "node")] {
                let answer = try server.post("/compute/patch", json: #"""
                    {"base":\#(PatchFixture.quoted(tag)),"changesOnly":true,"changesBy":"\#(by)","patch":\#(patch)}
                    """#)
                #expect(answer.status == 200)
                #expect(answer.header("X-Patch") == "rebuilt")
                let operations = try JSONPatch(JSONValue.parse(patch), maxOperations: 1)
                if by == "node" { frames = try #require(PatchFixture.carried(frames, by: operations, document: document)) }
                document = try PatchFixture.patched(document.text, patch)
                frames = try PatchFixture.applying(changes: answer.body, to: frames)
                #expect(frames == PatchFixture.frames(of: LayoutOnce.answer(body: document.jsonBytes()).body))
                tag = try #require(answer.header("ETag"))
            }
        }
    }

    /// The store is cut into shards of at least 32 MiB: chains whose trees fall in one small
    /// shard evict each other's newest bases (412s), so the default 16 MiB is one shard.
    @Test(arguments: [(16 << 20, 8, 1), (63 << 20, 8, 1), (64 << 20, 8, 2), (1 << 30, 8, 2), (1 << 30, 32, 8), (0, 8, 1), (1 << 30, 2, 1)])
    func theStoreIsCutIntoShardsOfAtLeast32MiB(capacity: Int, cacheShards: Int, shards: Int) {
        #expect(BaseStore.shardCount(capacityBytes: capacity, cacheShards: cacheShards) == shards)
    }

    @Test func anEvictedBaseIsPreconditionFailedUntilTheTreeIsSentAgain() throws {
        // Room for one and a half such bases: the second evicts the first.
        let cost = try Self.computedBaseCost(of: Self.row)
        try LiveServer.with({ $0.patchBaseBytes = cost * 3 / 2; $0.cacheShards = 1 }) { server in
            let first = try server.post("/compute", json: Self.row)
            let tag = try #require(first.header("ETag"))
            _ = try server.post("/compute", json: Self.row.replacingOccurrences(of: "300", with: "301"))
            _ = try server.post("/compute", json: Self.row.replacingOccurrences(of: "300", with: "302"))
            #expect(server.host.service.bases.statistics.evictions >= 1)
            let patch = #"{"base":\#(PatchFixture.quoted(tag)),"patch":[{"op":"replace","path":"/root/children/0/style/width","value":1}]}"#
            let refused = try server.post("/compute/patch", json: patch)
            #expect(refused.status == 412)
            #expect(refused.error?["code"] as? String == "unknown-base")
            #expect(refused.error?["pointer"] as? String == "/base")
            // Sent again (an answer-cache hit: nothing decoded), the tree can be patched.
            let again = try server.post("/compute", json: Self.row)
            #expect(again.header("X-Cache") == "hit")
            let patched = try server.post("/compute/patch", json: patch)
            #expect(patched.status == 200)
        }
        try LiveServer.with({ $0.patchBaseBytes = 0 }) { server in
            let tag = try #require(try server.post("/compute", json: Self.row).header("ETag"))
            let refused = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":[]}"#)
            #expect(refused.status == 412)
        }
    }

    /// Two chains of patches take turns in a store with room for the newest base of each and
    /// less than one base more: the bases their patches took the trees from are evicted first,
    /// so neither chain loses its newest base. (Kept again as most recently used, a taken base
    /// pushed the other chain's newest out: a 412 at its next patch.)
    @Test func takenBasesMakeRoomBeforeTheNewestBaseOfAChain() throws {
        func patch(_ tag: String, width: Int) -> String {
            #"{"base":\#(PatchFixture.quoted(tag)),"patch":[{"op":"replace","path":"/root/children/0/style/width","value":\#(width)}]}"#
        }
        // What a chain's entries cost, measured with room for all: its newest base (with the
        // tree) and a base whose tree a patch took.
        let (newest, taken) = try LiveServer.with { server in
            var tag = try #require(try server.post("/compute", json: Self.row).header("ETag"))
            func cost(_ tag: String) throws -> Int {
                let key = try #require(BaseKey(entityTag: tag))
                return try #require(server.host.service.bases.lookup(key)).cost
            }
            var newest = 0, taken = Int.max
            for width in 81...84 {
                let next = try #require(try server.post("/compute/patch", json: patch(tag, width: width)).header("ETag"))
                taken = min(taken, try cost(tag))
                newest = max(newest, try cost(next))
                tag = next
            }
            return (newest, taken)
        }
        #expect(taken < newest)
        try LiveServer.with({ $0.patchBaseBytes = 2 * newest + taken / 2; $0.cacheShards = 1 }) { server in
            var tags = try [Self.row, Self.row.replacingOccurrences(of: "300", with: "301")].map {
                try #require(try server.post("/compute", json: $0).header("ETag"))
            }
            for width in 81...86 {
                for chain in 0..<2 {
                    let answer = try server.post("/compute/patch", json: patch(tags[chain], width: width))
                    #expect(answer.status == 200, "chain \(chain), width \(width)")
                    #expect(answer.header("X-Patch")?.hasPrefix("in-place") == true)
                    tags[chain] = try #require(answer.header("ETag"))
                }
            }
            // The store was full: the taken bases were evicted, not kept at the newest's expense.
            #expect(server.host.service.bases.statistics.evictions >= 10)
        }
    }

    @Test func aBaseAnsweredNotModifiedCanBePatched() throws {
        try LiveServer.with({ $0.answerCacheBytes = 0 }) { server in
            let tag = try #require(try server.post("/compute", json: Self.row).header("ETag"))
            let notModified = try server.post("/compute", json: Self.row,
                                              headers: [("Content-Type", "application/json"), ("If-None-Match", tag)])
            #expect(notModified.status == 304)
            let patched = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":[],"changesOnly":true}"#)
            #expect(patched.status == 200)
            #expect(String(decoding: patched.body, as: UTF8.self) == #"{"changes":[],"removed":[]}"#)
            // If-None-Match on a patch: the new tree's ETag answers 304.
            let unchanged = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":[]}"#,
                                            headers: [("Content-Type", "application/json"), ("If-None-Match", tag)])
            #expect(unchanged.status == 304)
        }
    }

    @Test func concurrentPatchesOnOneBaseEachAnswerTheirOwnTree() throws {
        try LiveServer.with { server in
            let tag = try #require(try server.post("/compute", json: Self.row).header("ETag"))
            let widths = Array(50..<70)
            let results = Locked<[Int: [UInt8]]>([:])
            DispatchQueue.concurrentPerform(iterations: widths.count) { k in
                let client = BlockingHTTPClient(host: "127.0.0.1", port: server.host.port, timeoutSeconds: 10)
                let body = #"{"base":\#(PatchFixture.quoted(tag)),"patch":[{"op":"replace","path":"/root/children/0/style/width","value":\#(widths[k])}]}"#
                if let answer = try? client.send("POST", "/compute/patch", headers: [("Content-Type", "application/json")], body: Array(body.utf8)),
                   answer.status == 200 {
                    results.withLock { $0[widths[k]] = answer.body }
                }
            }
            let answers = results.withLock { $0 }
            #expect(answers.count == widths.count)
            for width in widths {
                let expected = LayoutOnce.answer(body: Array(Self.row.replacingOccurrences(of: #""width":80"#, with: #""width":\#(width)"#).utf8))
                #expect(answers[width] == expected.body, "width \(width)")
            }
        }
    }

    // MARK: Bad patches and limits

    @Test(arguments: [
        (#"{"base":"\"nope\"","patch":[]}"#, 422, "invalid-value", "/base"),
        (#"{"patch":[]}"#, 422, "missing-key", ""),
        (#"{"base":"BASE","patch":{}}"#, 422, "wrong-type", "/patch"),
        (#"{"base":"BASE","patch":[],"extra":1}"#, 422, "unknown-key", "/extra"),
        (#"{"base":"BASE","patch":[],"changesOnly":"yes"}"#, 422, "wrong-type", "/changesOnly"),
        (#"{"base":"BASE","patch":[],"changesOnly":true,"changesBy":"id"}"#, 422, "invalid-value", "/changesBy"),
        (#"{"base":"BASE","patch":[],"changesOnly":true,"changesBy":1}"#, 422, "wrong-type", "/changesBy"),
        (#"{"base":"BASE","patch":[{"op":"add","path":"/root/style/width"}]}"#, 422, "missing-key", "/patch/0"),
        (#"{"base":"BASE","patch":[{"op":"test","path":"/root/id","value":"bar"},{"op":"remove","path":"/root/children/7"}]}"#,
         422, "patch-failed", "/patch/1"),
        (#"{"base":"BASE","patch":[{"op":"test","path":"/root/id","value":"other"}]}"#, 422, "test-failed", "/patch/0"),
        (#"{"base":"BASE","patch":[{"op":"replace","path":"/root/children/0/style/width","value":-5}]}"#,
         422, "invalid-value", "/root/children/0/style/width"),
        (#"{"base":"BASE","patch":[{"op":"add","path":"/root/children/0/style/colour","value":1}]}"#,
         422, "unknown-key", "/root/children/0/style/colour"),
        (#"{"base":"BASE","patch":[1,2,3,4,5]}"#, 413, "too-many-operations", "/patch"),
        (#"{"base":"BASE","patch":[{"op":"add","path":"/root/children/1","value":{"style":{"colour":1}}}]}"#,
         422, "unknown-key", "/root/children/1/style/colour"),
        (#"{"base":"BASE","patch":[{"op":"add","path":"/root/children/-","value":{"children":[{"children":[{"children":[{}]}]}]}}]}"#,
         413, "too-deep", "*"),
        (#"{"base":"BASE","patch":[{"op":"add","path":"/root/children/-","value":{"children":[{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}]}}]}"#,
         413, "too-many-nodes", "*"),
        (#"{"base":"BASE","patch":[{"op":"copy","from":"/root","path":"/root/children/-"},{"op":"copy","from":"/root","path":"/root/children/-"},{"op":"copy","from":"/root","path":"/root/children/-"}]}"#,
         413, "too-many-nodes", "*"),
    ])
    func badPatchesAreRefusedWithThePointerOfTheirFault(body: String, status: Int, code: String, pointer: String) throws {
        try LiveServer.with({ $0.maxPatchOperations = 4; $0.wire.maxNodes = 24; $0.wire.maxDepth = 4 }) { server in
            let tag = try #require(try server.post("/compute", json: Self.row).header("ETag"))
            let answer = try server.post("/compute/patch", json: body.replacingOccurrences(of: #""BASE""#, with: PatchFixture.quoted(tag)))
            #expect(answer.status == status, "\(String(decoding: answer.body, as: UTF8.self))")
            #expect(answer.error?["code"] as? String == code)
            if pointer != "*" { #expect(answer.error?["pointer"] as? String == pointer) }
        }
    }

    /// The answer to `patch` (a JSON Patch array) made on the kept tree of `request`, whose
    /// root is 300 wide: the request is laid out and patched once in place (its root made 301
    /// wide), so that its tree is kept, then patched with the width set back and `patch`.
    static func patchKeptTree(of request: String, with patch: String, on server: LiveServer) throws -> BlockingHTTPClient.Response {
        var tag = try #require(try server.post("/compute", json: request).header("ETag"))
        let warm = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":[{"op":"replace","path":"/root/style/width","value":301}]}"#)
        #expect(warm.header("X-Patch")?.hasPrefix("in-place") == true)
        tag = try #require(warm.header("ETag"))
        let undo = #"{"op":"replace","path":"/root/style/width","value":300},"#
        return try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":[\#(undo)\#(patch.dropFirst())}"#)
    }

    /// A child placed under a leaf (added or moved there) is refused as the patched document
    /// sent whole is: a measured or text leaf cannot have children. Found by the patch fuzzer:
    /// a text leaf with an empty `children` array (which decodes) took a child in the tree
    /// edited in place, and the patch answered 200.
    @Test(arguments: [
        (#"[{"op":"add","path":"/root/children/1/children/0","value":{"id":"new"}}]"#, "measure-with-children", "/root/children/1/measure"),
        (#"[{"op":"add","path":"/root/children/3/children/-","value":{"id":"new"}}]"#, "text-with-children", "/root/children/3/text"),
        (#"[{"op":"move","from":"/root/children/0","path":"/root/children/2/children/0"}]"#, "text-with-children", "/root/children/2/text"),
        (#"[{"op":"add","path":"/root/children/0/children","value":[{"id":"new"}]}]"#, "", ""),
    ])
    func childrenPlacedUnderALeafAreRefusedAsTheWholeDocumentIs(patch: String, code: String, pointer: String) throws {
        let request = #"""
            {"available":{"width":400,"height":null},
             "root":{"id":"bar","style":{"flexDirection":"row","width":300},
                     "children":[{"id":"icon","style":{"width":80,"height":40}},
                                 {"id":"label","measure":{"kind":"fixed","width":50,"height":20},"children":[]},
                                 {"id":"badge","style":{"width":20,"height":20}},
                                 {"id":"title","text":"Hello there","style":{"fontFamily":"DejaVu Sans","fontSize":14},"children":[]}]}}
            """#
        let whole = LayoutOnce.answer(body: try PatchFixture.patched(request, patch).jsonBytes())
        try LiveServer.with { server in
            let answer = try Self.patchKeptTree(of: request, with: patch, on: server)
            #expect(answer.status == whole.status)
            if code.isEmpty {
                // Children given to a node with none: laid out as the whole document is.
                #expect(answer.status == 200 && answer.body == whole.body)
            } else {
                #expect(answer.status == 422)
                #expect(answer.error?["code"] as? String == code)
                #expect(answer.error?["pointer"] as? String == pointer)
            }
        }
    }

    /// A node that a patch adds and a later operation of the same patch gives a text is laid
    /// out as the whole document is: a text leaf (or, with children, refused). Found by the patch
    /// fuzzer: the added node's members were read without its text (the text of a node kept from
    /// the base is checked against the base), and the patch answered 200 where the whole
    /// document is 422 `text-with-children`.
    @Test(arguments: [
        (#"[{"op":"add","path":"/root/children/0","value":{"id":"new","style":{}}},{"op":"add","path":"/root/children/0/text","value":"Hello there"}]"#, 200),
        (#"[{"op":"add","path":"/root/children/0","value":{"id":"new","children":[{"id":"inner"}]}},{"op":"add","path":"/root/children/0/text","value":"Hi"}]"#, 422),
    ])
    func textGivenToANodeThePatchAddsIsLaidOutAsTheWholeDocumentIs(patch: String, status: Int) throws {
        let request = #"""
            {"available":{"width":400,"height":null},
             "root":{"id":"list","style":{"width":300,"fontFamily":"DejaVu Sans","fontSize":14},
                     "children":[{"id":"first","text":"The first message"},{"id":"box","style":{"height":20}}]}}
            """#
        let whole = LayoutOnce.answer(body: try PatchFixture.patched(request, patch).jsonBytes())
        #expect(whole.status == status)
        try LiveServer.with { server in
            let answer = try Self.patchKeptTree(of: request, with: patch, on: server)
            #expect(answer.status == status)
            if status == 200 {
                #expect(answer.body == whole.body)
            } else {
                #expect(answer.error?["code"] as? String == "text-with-children")
                #expect(answer.error?["pointer"] as? String == "/root/children/0/text")
            }
        }
    }

    @Test func patchBodiesAreBoundedInBytes() throws {
        try LiveServer.with({ $0.maxPatchBytes = 200 }) { server in
            let tag = try #require(try server.post("/compute", json: Self.row).header("ETag"))
            let long = String(repeating: "x", count: 300)
            let answer = try server.post("/compute/patch", json: #"""
                {"base":\#(PatchFixture.quoted(tag)),"patch":[{"op":"replace","path":"/root/id","value":"\#(long)"}]}
                """#)
            #expect(answer.status == 413)
            #expect(answer.error?["code"] as? String == "patch-too-large")
        }
    }

    @Test func basesAreChargedTheirTreesAndDocuments() throws {
        try LiveServer.with { server in
            // A request's own base keeps its body, not its tree.
            let tag = try #require(try server.post("/compute", json: Self.chat).header("ETag"))
            let key = try #require(BaseKey(entityTag: tag))
            let kept = try #require(server.host.service.bases.lookup(key))
            #expect(kept.copyOfRequest() == nil && kept.decodesInPlace)
            #expect(kept.cost >= Self.chat.utf8.count)
            #expect(server.host.service.bases.statistics.bytes == kept.cost)
            // Its first patch decodes the tree again and edits it in place; the patch's base
            // keeps the tree and the document as a tree instead of the body.
            let answer = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":[]}"#)
            #expect(answer.header("X-Patch") == "in-place-fresh")
            let patched = try #require(server.host.service.bases.lookup(key))
            let tree = try #require(patched.copyOfRequest()).tree
            guard case .tree(let document, _, _, _) = patched.document else { Issue.record("no document tree"); return }
            #expect(patched.cost >= tree.heapBytes + document.heapBytes)
            #expect(kept.cost * 4 < patched.cost)
        }
        // Asked to, it keeps the laid-out tree, which its first patch edits.
        try LiveServer.with({ $0.patchKeepsComputedTrees = true }) { server in
            let tag = try #require(try server.post("/compute", json: Self.chat).header("ETag"))
            let key = try #require(BaseKey(entityTag: tag))
            let kept = try #require(server.host.service.bases.lookup(key))
            let tree = try #require(kept.copyOfRequest()).tree
            #expect(!kept.decodesInPlace && kept.cost >= tree.heapBytes + Self.chat.utf8.count)
            let answer = try server.post("/compute/patch", json: #"{"base":\#(PatchFixture.quoted(tag)),"patch":[]}"#)
            #expect(answer.header("X-Patch") == "in-place-fresh")
        }
    }
}
