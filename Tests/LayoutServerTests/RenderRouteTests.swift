import Foundation
import HTTPServer
import Testing
@testable import LayoutServer

/// `POST /render` against a live server on 127.0.0.1, and through `handle` for admission.
@Suite struct RenderRouteTests {
    /// Nested boxes with padding, margins, a border and an absolute child, so absolute
    /// positions differ from the parent-relative frames `/compute` answers.
    static let tree = #"""
        {"available": {"width": 300, "height": null},
         "root": {"id": "root", "style": {"width": 300, "padding": 12, "gap": 6},
          "children": [
            {"id": "row", "style": {"flexDirection": "row", "padding": 4, "borderWidth": 2, "height": 60},
             "children": [{"id": "a", "style": {"width": 50, "margin": 5, "backgroundColor": "tomato"}},
                          {"id": "b", "style": {"flexGrow": 1, "paddingLeft": "10%"},
                           "children": [{"id": "b1", "style": {"height": 10, "marginTop": 7}}]}]},
            {"id": "abs", "style": {"position": "absolute", "right": 8, "bottom": 8, "width": 30, "height": 20}},
            {"id": "last", "style": {"height": 25, "marginHorizontal": 20}}]}}
        """#

    /// Absolute frames (x, y, width, height) by id, from `/compute`'s parent-relative answer.
    static func absoluteFrames(_ node: AnswerNode, originX: Double = 0, originY: Double = 0,
                               into frames: inout [String: [Double]]) {
        let x = originX + node.left, y = originY + node.top
        if let id = node.id { frames[id] = [x, y, node.width, node.height] }
        for child in node.children { absoluteFrames(child, originX: x, originY: y, into: &frames) }
    }

    /// The boxes of an SVG document: (x, y, width, height) by `data-id`.
    static func svgBoxes(_ body: [UInt8]) -> [String: [Double]] {
        let text = String(decoding: body, as: UTF8.self)
        var boxes: [String: [Double]] = [:]
        let pattern = try! NSRegularExpression(
            pattern: #"<rect class="box" data-node="\d+" data-id="([^"]*)" x="([^"]*)" y="([^"]*)" width="([^"]*)" height="([^"]*)""#)
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let groups = (1...5).map { String(text[Range(match.range(at: $0), in: text)!]) }
            boxes[groups[0]] = groups[1...].map { Double($0)! }
        }
        return boxes
    }

    @Test func svgRectanglesAreComputesFramesMadeAbsolute() throws {
        try LiveServer.with { server in
            let computed = try server.post("/compute", json: Self.tree)
            let root = try #require(AnswerNode.root(of: computed))
            var expected: [String: [Double]] = [:]
            Self.absoluteFrames(root, into: &expected)

            let rendered = try server.post("/render", json: Self.tree)
            #expect(rendered.status == 200)
            #expect(rendered.header("Content-Type") == "image/svg+xml")
            let boxes = Self.svgBoxes(rendered.body)
            #expect(boxes.count == 7)
            #expect(boxes == expected)
        }
    }

    @Test func formatFromQueryOrAcceptAndCaching() throws {
        try LiveServer.with { server in
            let png = try server.client.send("POST", "/render?scale=2&mode=paint", headers: [
                ("Content-Type", "application/json"), ("Accept", "image/png")], body: Array(Self.tree.utf8))
            #expect(png.status == 200)
            #expect(png.header("Content-Type") == "image/png")
            #expect(png.header("X-Cache") == "miss")
            #expect(Array(png.body[16..<20]) == [0, 0, 2, 88])  // IHDR width: 300 points at scale 2
            let again = try server.client.send("POST", "/render?mode=paint&scale=2&format=png", headers: [
                ("Content-Type", "application/json")], body: Array(Self.tree.utf8))
            #expect(again.header("X-Cache") == "hit")
            #expect(again.body == png.body)
            let metrics = try server.get("/metrics").text
            #expect(metrics.contains("layoutd_render_cache_hits_total 1\n"))
            #expect(metrics.contains("layoutd_render_cache_entries 1\n"))
            let svg = try server.client.send("POST", "/render?format=svg", headers: [
                ("Content-Type", "application/json"), ("Accept", "image/png")], body: Array(Self.tree.utf8))
            #expect(svg.header("Content-Type") == "image/svg+xml")
        }
    }

    @Test func refusals() throws {
        try LiveServer.with({ $0.maxRenderPixels = 10_000 }) { server in
            func post(_ target: String, _ headers: [(String, String)] = [("Content-Type", "application/json")],
                      body: String = RenderRouteTests.tree) throws -> BlockingHTTPClient.Response {
                try server.client.send("POST", target, headers: headers, body: Array(body.utf8))
            }
            let scale = try post("/render?scale=0")
            #expect(scale.status == 400)
            #expect(scale.error?["code"] as? String == "invalid-parameter")
            #expect(scale.error?["parameter"] as? String == "scale")
            #expect((scale.error?["message"] as? String)?.contains("scale") == true)
            let unknown = try post("/render?colour=red")
            #expect(unknown.status == 400)
            #expect(unknown.error?["parameter"] as? String == "colour")
            let accept = try post("/render", [("Content-Type", "application/json"), ("Accept", "application/json")])
            #expect(accept.status == 406)
            #expect(accept.error?["parameter"] as? String == "Accept")
            let large = try post("/render")
            #expect(large.status == 413)
            #expect(large.error?["code"] as? String == "picture-too-large")
            let bad = try post("/render?format=png", body: #"{"root": {"style": {"opacity": 2}}}"#)
            #expect(bad.status == 422)
            #expect(bad.error?["pointer"] as? String == "/root/style/opacity")
            #expect(try post("/render", [("Content-Type", "text/plain")]).status == 415)
            #expect(try server.get("/render").status == 405)
        }
    }

    @Test func paintKeysChangeNoFramesOnCompute() throws {
        try LiveServer.with { server in
            let plain = try server.post("/compute", json: Self.tree.replacingOccurrences(of: #", "backgroundColor": "tomato""#, with: ""))
            let painted = try server.post("/compute", json: Self.tree)
            #expect(plain.status == 200 && painted.status == 200)
            #expect(plain.body == painted.body)
            #expect(plain.header("ETag") == painted.header("ETag"))
        }
    }

    @Test func renderWorkGoesThroughTheComputeBudget() throws {
        let body = Array(Self.tree.utf8)
        let service = AdmissionTests.service(limitBytes: body.count)
        let gate = AdmissionTests.Gate()
        service.computeGate = { gate.hold() }
        func render(_ body: [UInt8]) -> AdmissionTests.Reply {
            let reply = AdmissionTests.Reply()
            service.handle(HTTPRequest(method: "POST", target: "/render", path: "/render",
                                       headers: ["Content-Type": "application/json"], body: body)) { reply.set($0) }
            return reply
        }
        let held = render(body)
        try #require(gate.waitUntilHolding(1))
        #expect(service.admission.statistics.pendingBytes == body.count)
        let refused = try #require(render(body).wait())
        #expect(refused.status == 503)
        #expect(refused.headers["Retry-After"] == "1")
        gate.open()
        #expect(held.wait()?.status == 200)
        #expect(service.admission.statistics.pendingRequests == 0)
    }
}
