import Foundation
import HTTPServer
import LayoutServer
import LayoutWire
import Testing

/// The service's routes against a live server on 127.0.0.1.
@Suite struct RouteTests {
    /// The openapi.yaml example: a 300×100 row with 10 points of padding, an 80-point icon and
    /// a label that grows after a 10-point margin. Inner box 280×80; the label gets
    /// 280 − 80 − 10 = 190 and starts at 10 + 80 + 10 = 100.
    static let rowRequest = """
        {"available":{"width":300,"height":null},"direction":"ltr",
         "root":{"id":"bar","style":{"flexDirection":"row","width":300,"height":100,"padding":10},
                 "children":[{"id":"icon","style":{"width":80}},
                             {"id":"label","style":{"flexGrow":1,"marginLeft":10}}]}}
        """

    static func rowRequest(ids: (String, String, String)) -> String {
        rowRequest.replacingOccurrences(of: "\"bar\"", with: "\"\(ids.0)\"")
            .replacingOccurrences(of: "\"icon\"", with: "\"\(ids.1)\"")
            .replacingOccurrences(of: "\"label\"", with: "\"\(ids.2)\"")
    }

    /// Each way a request can be run: with Dispatch sources on the connection's queue (small
    /// body) or on the compute queue, and on one or two event loops (always the compute queue).
    @Test(arguments: [(HTTPServerConfiguration.IOBackend.dispatchSources, 8192, 0), (.dispatchSources, 0, 0),
                      (.eventLoop, 8192, 1), (.eventLoop, 8192, 2)])
    func computeAnswersFramesInTheRequestsShape(backend: HTTPServerConfiguration.IOBackend, inlineLimit: Int,
                                                eventLoops: Int) throws {
        try LiveServer.with({
            $0.http.ioBackend = backend
            $0.inlineComputeMaxBytes = inlineLimit
            $0.http.eventLoopCount = eventLoops
        }) { server in
            let response = try server.post("/compute", json: Self.rowRequest)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            let root = try #require(AnswerNode.root(of: response))
            #expect(root == AnswerNode(id: "bar", 0, 0, 300, 100, [
                AnswerNode(id: "icon", 10, 10, 80, 80),
                AnswerNode(id: "label", 100, 10, 190, 80),
            ]))
        }
    }

    @Test func contentTypeWithParametersIsAccepted() throws {
        try LiveServer.with { server in
            let response = try server.post("/compute", json: Self.rowRequest,
                                           headers: [("Content-Type", "Application/JSON; charset=utf-8")])
            #expect(response.status == 200)
        }
    }

    @Test func aHitWithOtherIdsAnswersTheNewIds() throws {
        try LiveServer.with { server in
            let first = try server.post("/compute", json: Self.rowRequest(ids: ("a", "b", "c")))
            #expect(first.status == 200)
            #expect(first.header("X-Cache") == "miss")
            let second = try server.post("/compute", json: Self.rowRequest(ids: ("x", "y", "z")))
            #expect(second.status == 200)
            #expect(second.header("X-Cache") == "hit")
            let firstRoot = try #require(AnswerNode.root(of: first))
            let secondRoot = try #require(AnswerNode.root(of: second))
            #expect(firstRoot.ids == ["a", "b", "c"])
            #expect(secondRoot.ids == ["x", "y", "z"])
            // Same frames, only the ids differ: the hit's body is the miss's with ids swapped.
            #expect(second.text == first.text.replacingOccurrences(of: "\"a\"", with: "\"x\"")
                .replacingOccurrences(of: "\"b\"", with: "\"y\"").replacingOccurrences(of: "\"c\"", with: "\"z\""))
            #expect(server.host.service.cache.statistics.hits == 1)
            #expect(server.host.service.cache.statistics.entries == 1)

            // A different available size is a different layout: a miss.
            let other = try server.post("/compute", json: Self.rowRequest.replacingOccurrences(
                of: #""width":300,"height":null"#, with: #""width":200,"height":null"#))
            #expect(other.header("X-Cache") == "miss")
        }
    }

    @Test func anIdenticalRequestWithoutIdsIsAHitWithoutIds() throws {
        try LiveServer.with { server in
            _ = try server.post("/compute", json: Self.rowRequest)
            let anonymous = Self.rowRequest.replacingOccurrences(of: #""id":"bar","#, with: "")
                .replacingOccurrences(of: #""id":"icon","#, with: "").replacingOccurrences(of: #""id":"label","#, with: "")
            let response = try server.post("/compute", json: anonymous)
            #expect(response.header("X-Cache") == "hit")
            #expect(try #require(AnswerNode.root(of: response)).ids == [nil, nil, nil])
        }
    }

    @Test func etagAndIfNoneMatchAnswer304WithoutBody() throws {
        try LiveServer.with { server in
            let first = try server.post("/compute", json: Self.rowRequest)
            let tag = try #require(first.header("ETag"))
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 2 + 32 + 1 + 16)

            let again = try server.post("/compute", json: Self.rowRequest,
                                        headers: [("Content-Type", "application/json"), ("If-None-Match", tag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == tag)

            let listed = try server.post("/compute", json: Self.rowRequest,
                                         headers: [("Content-Type", "application/json"), ("If-None-Match", "\"nope\", W/\(tag)")])
            #expect(listed.status == 304)

            // Other ids: another body, so another tag, and a full answer.
            let otherIds = try server.post("/compute", json: Self.rowRequest(ids: ("p", "q", "r")),
                                           headers: [("Content-Type", "application/json"), ("If-None-Match", tag)])
            #expect(otherIds.status == 200)
            #expect(otherIds.header("ETag") != tag)
            #expect(otherIds.header("ETag")?.prefix(33) == tag.prefix(33)) // same structure hash
        }
    }

    @Test func batchAnswersEachItemOrItsError() throws {
        try LiveServer.with { server in
            let batch = "[\(Self.rowRequest), {\"root\":{\"id\":\"bad\",\"style\":{\"width\":-1}}}, {\"root\":{\"id\":\"ok\"}}]"
            let response = try server.post("/compute/batch", json: batch)
            #expect(response.status == 200)
            let items = try #require(response.json as? [[String: Any]])
            #expect(items.count == 3)
            #expect(AnswerNode(items[0]["root"])?.ids == ["bar", "icon", "label"])
            let error = try #require(items[1]["error"] as? [String: Any])
            #expect(error["status"] as? Int == 422)
            #expect(error["pointer"] as? String == "/1/root/style/width")
            #expect(AnswerNode(items[2]["root"])?.id == "ok")
        }
    }

    @Test func batchLimitsAndShape() throws {
        try LiveServer.with({ $0.maxBatchItems = 2 }) { server in
            let three = "[{\"root\":{}},{\"root\":{}},{\"root\":{}}]"
            let tooMany = try server.post("/compute/batch", json: three)
            #expect(tooMany.status == 413)
            #expect(tooMany.error?["code"] as? String == "too-many-items")

            let notArray = try server.post("/compute/batch", json: "{\"root\":{}}")
            #expect(notArray.status == 422)

            let empty = try server.post("/compute/batch", json: "[]")
            #expect(empty.status == 200)
            #expect(empty.text == "[]")
        }
    }

    @Test func unknownPathsAnswer404AndWrongMethods405WithAllow() throws {
        try LiveServer.with { server in
            let missing = try server.get("/nope")
            #expect(missing.status == 404)
            #expect(missing.error?["code"] as? String == "not-found")

            let getCompute = try server.get("/compute")
            #expect(getCompute.status == 405)
            #expect(getCompute.header("Allow") == "POST")

            let postHealth = try server.post("/healthz", json: "{}")
            #expect(postHealth.status == 405)
            #expect(postHealth.header("Allow") == "GET, HEAD")

            let deleteMetrics = try server.client.send("DELETE", "/metrics")
            #expect(deleteMetrics.status == 405)
        }
    }

    @Test func headWorksWhereGetDoes() throws {
        try LiveServer.with { server in
            for path in ["/healthz", "/metrics", "/openapi.yaml"] {
                let get = try server.get(path)
                let head = try server.get(path, method: "HEAD")
                #expect(get.status == 200)
                #expect(head.status == 200)
                #expect(head.body.isEmpty)
                #expect(head.header("Content-Type") == get.header("Content-Type"))
            }
        }
    }

    @Test func aBodyThatIsNotJSONIsRefusedWith415() throws {
        try LiveServer.with { server in
            let plain = try server.post("/compute", json: Self.rowRequest, headers: [("Content-Type", "text/plain")])
            #expect(plain.status == 415)
            #expect(plain.error?["code"] as? String == "unsupported-media-type")
            let none = try server.post("/compute", json: Self.rowRequest, headers: [])
            #expect(none.status == 415)
            let batch = try server.post("/compute/batch", json: "[]", headers: [("Content-Type", "application/jsonx")])
            #expect(batch.status == 415)
        }
    }

    @Test func tooManyNodesIs413() throws {
        try LiveServer.with({ $0.wire.maxNodes = 2 }) { server in
            let response = try server.post("/compute", json: Self.rowRequest)
            #expect(response.status == 413)
            #expect(response.error?["code"] as? String == "too-many-nodes")
            #expect(response.error?["pointer"] as? String == "/root/children/1")
        }
    }

    @Test func invalidValuesAre422WithAPointer() throws {
        try LiveServer.with { server in
            let negative = try server.post("/compute", json: #"{"root":{"children":[{"style":{"width":-5}}]}}"#)
            #expect(negative.status == 422)
            #expect(negative.error?["pointer"] as? String == "/root/children/0/style/width")

            let unknown = try server.post("/compute", json: #"{"root":{"style":{"colour":"red"}}}"#)
            #expect(unknown.status == 422)
            #expect(unknown.error?["pointer"] as? String == "/root/style/colour")

            let syntax = try server.post("/compute", json: #"{"root":"#)
            #expect(syntax.status == 400)
        }
    }

    @Test func metricsCountRequestsAndTheCache() throws {
        // Without the answer cache, so the repeat reaches the frame cache.
        try LiveServer.with({ $0.answerCacheBytes = 0 }) { server in
            _ = try server.post("/compute", json: Self.rowRequest)
            _ = try server.post("/compute", json: Self.rowRequest)
            _ = try server.get("/nope")
            let metrics = try server.get("/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = metrics.text
            #expect(text.contains(#"layoutd_http_requests_total{route="/compute",status="200"} 2"#))
            #expect(text.contains(#"layoutd_http_requests_total{route="other",status="404"} 1"#))
            #expect(text.contains(#"layoutd_http_request_duration_seconds_count{route="/compute"} 2"#))
            #expect(text.contains(#"layoutd_http_request_duration_seconds_bucket{route="/compute",le="+Inf"} 2"#))
            #expect(text.contains("layoutd_cache_hits_total 1\n"))
            #expect(text.contains("layoutd_cache_misses_total 1\n"))
            #expect(text.contains("layoutd_cache_entries 1\n"))
            let cacheBytes = text.split(separator: "\n").first { $0.hasPrefix("layoutd_cache_bytes ") }
                .flatMap { Int($0.dropFirst("layoutd_cache_bytes ".count)) }
            #expect(cacheBytes.map { FrameCacheTests.isCharge($0, entries: 1, frames: 3) } == true)
            // The metrics request itself is on an open connection; the earlier requests'
            // connections close on the server's side asynchronously, so under load the gauge
            // may still count one of them for a moment (bounded wait, then the exact figure).
            var gauge = text
            for _ in 0..<200 where !gauge.contains("layoutd_open_connections 1\n") {
                usleep(10_000)
                gauge = try server.get("/metrics").text
            }
            #expect(gauge.contains("layoutd_open_connections 1\n"))
        }
    }

    /// Every metric family /metrics renders is named in the spec's description of /metrics.
    @Test func everyMetricIsDocumentedInTheSpec() throws {
        try LiveServer.with { server in
            let families = try server.get("/metrics").text.split(separator: "\n")
                .filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) }
            let spec = try server.get("/openapi.yaml").text
            #expect(families.count >= 20)
            for family in families {
                let documented = spec.contains("`\(family)`") || spec.contains("`\(family){")
                    || (family.hasPrefix("layoutd_answer_cache_") && spec.contains("`layoutd_answer_cache_*`"))
                    || (family.hasPrefix("layoutd_render_cache_") && spec.contains("`layoutd_render_cache_*`"))
                    || (family.hasPrefix("layoutd_patch_bases_") && spec.contains("`layoutd_patch_bases_*`"))
                #expect(documented, "\(family) is not in openapi.yaml's /metrics description")
            }
        }
    }

    @Test func openapiIsServedAsEmbedded() throws {
        try LiveServer.with { server in
            let response = try server.get("/openapi.yaml")
            #expect(response.status == 200)
            #expect(response.text.hasPrefix("openapi: 3.1"))
            let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
            let onDisk = try String(contentsOf: file, encoding: .utf8)
            #expect(response.text == onDisk, "the binary serves a different openapi.yaml than the one on disk")
        }
    }

    @Test func healthz() throws {
        try LiveServer.with { server in
            let response = try server.get("/healthz")
            #expect(response.status == 200)
            #expect((response.json as? [String: String])?["status"] == "ok")
        }
    }
}

@Suite struct OverflowTests {
    @Test func aLayoutThatOverflowsFloatsIs422AtTheFirstBadNode() throws {
        try LiveServer.with { server in
            let request = #"{"root":{"style":{"flexDirection":"row","width":100},"children":["#
                + #"{"style":{"width":10}},{"style":{"width":3e38,"flexShrink":0}},{"style":{"width":3e38,"flexShrink":0}}]}}"#
            let response = try server.post("/compute", json: request)
            #expect(response.status == 422)
            #expect(response.error?["code"] as? String == "layout-overflow")
            #expect(response.error?["pointer"] as? String == "/root/children/2")
            #expect(server.host.service.cache.statistics.entries == 0)
        }
    }
}

@Suite struct LayoutOnceTests {
    @Test func answersLikeComputeWithoutAServer() throws {
        let ok = LayoutOnce.answer(body: Array(RouteTests.rowRequest.utf8))
        #expect(ok.status == 200)
        #expect(AnswerNode((try JSONSerialization.jsonObject(with: Data(ok.body)) as? [String: Any])?["root"])?.width == 300)

        let bad = LayoutOnce.answer(body: Array(#"{"root":{"style":{"width":-1}}}"#.utf8))
        #expect(bad.status == 422)
        let tooMany = LayoutOnce.answer(body: Array(RouteTests.rowRequest.utf8), limits: WireLimits(maxNodes: 1))
        #expect(tooMany.status == 413)
    }
}
