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

    @Test func aPatchThatDoesNotApplyKeepsTheBase() throws {
        var chain = try #require(PatchChain(body: Array(Self.tree(width: 40).utf8)))
        let base = chain.entityTag
        #expect(chain.patch(#"[{"op": "remove", "path": "/root/children/7"}]"#).status == 422)
        #expect(chain.entityTag == base)
    }
}
