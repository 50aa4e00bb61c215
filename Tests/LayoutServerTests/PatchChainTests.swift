import Testing
@_spi(Benchmarks) @testable import LayoutServer

/// `PatchChain` (wire-bench's in-process patches) answers as `/compute/patch`: each patch on the
/// last answer's ETag, the frames those of sending the patched tree whole.
@Suite struct PatchChainTests {
    static func tree(width: Int) -> String {
        #"{"root": {"id": "r", "style": {"width": 300, "flexDirection": "row"}, "children": ["#
            + #"{"id": "a", "style": {"width": \#(width), "height": 10}}, {"id": "b", "style": {"flexGrow": 1}}]}}"#
    }

    @Test func chainedPatchesAnswerAsTheWholeTree() throws {
        var chain = try #require(PatchChain(body: Array(Self.tree(width: 40).utf8)))
        let first = chain.entityTag
        for width in [60, 10, 60] {
            let (status, body) = chain.patch(#"[{"op": "replace", "path": "/root/children/0/style/width", "value": \#(width)}]"#)
            #expect(status == 200)
            #expect(body == LayoutOnce.answer(body: Array(Self.tree(width: width).utf8)).body)
        }
        #expect(chain.entityTag != first)
        // changesOnly: the two nodes that moved.
        let (status, body) = chain.patch(#"[{"op": "replace", "path": "/root/children/0/style/width", "value": 20}]"#,
                                         changesOnly: true)
        #expect(status == 200)
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains(#""id":"a""#) && text.contains(#""id":"b""#) && !text.contains(#""id":"r""#))
    }

    /// What a patch puts in the frame cache is served to whoever sends the patched tree whole.
    @Test func thePatchedTreeSentWholeIsACacheHitUnderThePatchsETag() throws {
        var chain = try #require(PatchChain(body: Array(Self.tree(width: 40).utf8)))
        #expect(chain.patch(#"[{"op": "replace", "path": "/root/children/0/style/width", "value": 70}]"#).status == 200)
        let patched = Array(Self.tree(width: 70).utf8)
        let served = chain.compute(patched)
        #expect(served.status == 200 && served.cached)
        #expect(served.entityTag == chain.entityTag)
        #expect(served.body == LayoutOnce.answer(body: patched).body)
        #expect(chain.compute(patched, ifNoneMatch: chain.entityTag).status == 304)
        // A tree no patch made is laid out.
        #expect(chain.compute(Array(Self.tree(width: 90).utf8)).cached == false)
    }

    @Test func aPatchThatDoesNotApplyKeepsTheBase() throws {
        var chain = try #require(PatchChain(body: Array(Self.tree(width: 40).utf8)))
        let base = chain.entityTag
        #expect(chain.patch(#"[{"op": "remove", "path": "/root/children/7"}]"#).status == 422)
        #expect(chain.entityTag == base)
    }
}
