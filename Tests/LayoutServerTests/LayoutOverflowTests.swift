import Foundation
import LayoutEngine
import LayoutServer
import LayoutWire
import Testing

/// Trees whose layout overflows 32-bit floats as Yoga's does. Found by the engine fuzzer
/// (Fuzz/README.md, finding 8) and reduced with `FUZZ_REDUCE=1`: a 400 % column gap and a 400 %
/// horizontal padding resolve against sizes that they themselves enlarge, so every measuring
/// pass multiplies the sizes (to ~10²⁰ px here) until a sum overflows and becomes NaN. Yoga main
/// (yoga-python, same config) gives the same frames, NaN included, so the engine keeps them; the
/// service refuses such a layout with 422 `layout-overflow` instead of answering nulls.
@Suite struct LayoutOverflowTests {
    static let request = #"""
        {"config": {"pointScaleFactor": 3, "useWebDefaults": true, "errata": "classic"},
         "root": {"id": "root", "children": [{"id": "a", "children": [{"id": "b", "style": {"flexShrink": 0}, "children": [
           {"id": "c", "children": [
             {"id": "d", "children": [{"id": "gapped", "style": {"columnGap": "400%"}, "children": [
               {"id": "e", "style": {"aspectRatio": 1.7777778, "paddingLeft": 33.3, "borderLeftWidth": 33.3}},
               {"id": "f", "style": {"flexShrink": 2, "paddingLeft": 33.3, "borderLeftWidth": 33.3}}]}]},
             {"id": "g", "style": {"boxSizing": "content-box", "minWidth": 33.3, "flexBasis": 33.3,
                                   "paddingHorizontal": "400%", "paddingLeft": "13.37%"}},
             {"id": "h", "style": {"maxWidth": 33.3}, "measure": {"kind": "fixed", "width": 2.5, "height": 4096}}]}]}]}]}}
        """#

    /// Yoga main's frames for the tree (yoga-python 0.1.5, `Errata.Classic`, web defaults, point
    /// scale 3, measured with the same fixed measure function), in pre-order; nil is NaN.
    static let yogaMain: [(Float?, Float?, Float?, Float?)] = [
        (0, 0, 701.6666870117188, 2.6093792469310243e19),
        (0, 0, 701.6666870117188, 2.6093792469310243e19),
        (0, 0, 2.3194481022130035e20, 2.6093792469310243e19),
        (0, 0, 2.319449509587887e20, 2.6093792469310243e19),
        (0, 0, nil, 2.6093792469310243e19),
        (0, 0, 0, 2.6093792469310243e19),
        (0, 0, 4.638896292386937e19, 2.6093792469310243e19),
        (4.638896292386937e19, 0, 0, 2.6093792469310243e19),
        (nil, 0, nil, 2.6093792469310243e19),
        (nil, 0, nil, 2.6093792469310243e19),
    ]

    @Test func engineOverflowsAsYogaMainDoes() throws {
        var request = try LayoutWire.decodeRequest(bytes: Array(Self.request.utf8), limits: .default)
        request.computeLayout()
        let order = request.tree.preorderPositions(root: request.root)
        var frames = [Frame](repeating: Frame(left: 0, top: 0, width: 0, height: 0), count: order.count)
        for node in 0..<order.count { frames[order[node]] = request.tree.frame(of: NodeID(node)) }
        #expect(frames.count == Self.yogaMain.count)
        func same(_ ours: Float, _ yoga: Float?) -> Bool {
            guard let yoga else { return ours.isNaN }
            return ours == yoga
        }
        for (i, (frame, yoga)) in zip(frames, Self.yogaMain).enumerated() {
            #expect(same(frame.left, yoga.0) && same(frame.top, yoga.1) && same(frame.width, yoga.2)
                        && same(frame.height, yoga.3), "node \(i): \(frame) against Yoga main's \(yoga)")
        }
    }

    @Test func serviceRefusesTheOverflowWithAPointer() throws {
        let answer = LayoutOnce.answer(body: Array(Self.request.utf8))
        #expect(answer.status == 422)
        let body = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        let error = body?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "layout-overflow")
        // Node "d", the first in pre-order with a non-finite frame (its width).
        #expect(error?["pointer"] as? String == "/root/children/0/children/0/children/0/children/0")
    }

    /// A patch in place that makes the layout overflow is refused as the whole tree is: a kept
    /// tree's frames are checked again only where they moved (`onlyAt`), and the overflowing
    /// node is among them. The base is the tree without its 400 % column gap.
    @Test func aPatchInPlaceThatOverflowsIsRefusedWithThePointer() throws {
        let base = Self.request.replacingOccurrences(of: #""columnGap": "400%""#, with: #""columnGap": "0%""#)
        try LiveServer.with { server in
            let first = try server.post("/compute", json: base)
            try #require(first.status == 200)
            // A first patch that lays the kept tree out, so that the next one starts from its frames.
            let resized = try server.post("/compute/patch", json: #"""
                {"base":\#(PatchFixture.quoted(try #require(first.header("ETag")))),
                 "patch":[{"op":"replace","path":"/root/children/0/children/0/children/0/children/2/style/maxWidth","value":30}]}
                """#)
            try #require(resized.status == 200)
            let answer = try server.post("/compute/patch", json: #"""
                {"base":\#(PatchFixture.quoted(try #require(resized.header("ETag")))),
                 "patch":[{"op":"replace","path":"/root/children/0/children/0/children/0/children/0/children/0/style/columnGap","value":"400%"}]}
                """#)
            #expect(answer.status == 422)
            // Applied to the kept tree (laid out afresh: the replay cannot follow sizes this large).
            #expect(answer.header("X-Patch")?.hasPrefix("in-place") == true)
            let error = (answer.json as? [String: Any])?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "layout-overflow")
            #expect(error?["pointer"] as? String == "/root/children/0/children/0/children/0/children/0")
        }
    }
}
