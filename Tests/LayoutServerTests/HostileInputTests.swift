import Foundation
@testable import HTTPServer
import LayoutServer
import Testing

/// Hostile request bodies against a live service: each must get a clear 4xx with a JSON error
/// body, quickly and without exhausting the server, and the server must answer a normal request
/// afterwards. Durations are printed as figures, not asserted.
@Suite struct HostileInputTests {
    static let normalRequest = #"{"root":{"style":{"width":100,"height":50}}}"#

    /// Sends `body` to /compute with `headers`, checks the answer is `status` with a JSON error
    /// body carrying the same status (and `code` when given), then checks the server still
    /// answers a normal request. Returns the error object.
    @discardableResult
    private func expectRefusal(_ server: LiveServer, _ label: String, body: [UInt8], status: Int, code: String? = nil,
                               headers: [(String, String)] = [("Content-Type", "application/json")]) throws -> [String: Any]? {
        let started = Date()
        // A generous read timeout: big bodies are slow to refuse under sanitizers and in debug.
        let client = BlockingHTTPClient(host: "127.0.0.1", port: server.host.port, timeoutSeconds: 120)
        let response = try client.send("POST", "/compute", headers: headers, body: body)
        let elapsed = Date().timeIntervalSince(started)
        print("hostile \(label): \(body.count) bytes -> \(response.status) in \(String(format: "%.3f", elapsed)) s: \(response.text.prefix(160))")
        #expect(response.status == status, "\(label)")
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true, "\(label)")
        let error = response.error
        #expect(error != nil, "\(label): the body is not a JSON error")
        #expect((error?["status"] as? Int) == status, "\(label)")
        if let code { #expect((error?["code"] as? String) == code, "\(label)") }
        #expect(((error?["message"] as? String) ?? "").isEmpty == false, "\(label)")

        let after = try server.post("/compute", json: Self.normalRequest)
        #expect(after.status == 200, "\(label): the next normal request failed")
        return error
    }

    @Test func nestingOneHundredThousandDeepIsRefusedAsTooDeep() throws {
        let depth = 100_000
        var text = #"{"root":"#
        text += String(repeating: #"{"children":["#, count: depth)
        text += "{}"
        text += String(repeating: "]}", count: depth)
        text += "}"
        try LiveServer.with { server in
            let error = try expectRefusal(server, "nesting \(depth)", body: Array(text.utf8), status: 413, code: "too-deep")
            #expect((error?["pointer"] as? String)?.hasPrefix("/root/children/0") ?? true)
        }
    }

    @Test func oneMillionSiblingsHitTheNodeLimit() throws {
        let siblings = 1_000_000
        var bytes = Array(#"{"root":{"children":["#.utf8)
        bytes.reserveCapacity(siblings * 3 + 32)
        for i in 0..<siblings {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        }
        bytes.append(contentsOf: Array("]}}".utf8))
        try LiveServer.with { server in
            let limit = server.host.service.configuration.wire.maxNodes
            #expect(siblings > limit)
            try expectRefusal(server, "\(siblings) siblings", body: bytes, status: 413, code: "too-many-nodes")
        }
    }

    @Test func aTenMegabyteStringIsRefusedBeforeTheBodyIsRead() throws {
        let text = #"{"root":{"id":""# + String(repeating: "x", count: 10 << 20) + #""}}"#
        try LiveServer.with { server in
            #expect(text.utf8.count > server.host.service.configuration.http.maxBodyBytes)
            try expectRefusal(server, "10 MB string", body: Array(text.utf8), status: 413)
        }
    }

    @Test func aStringOverTheStringLimitButInsideTheBodyLimitIsRefused() throws {
        try LiveServer.with { server in
            let limit = server.host.service.configuration.wire.maxStringBytes
            let text = #"{"root":{"id":""# + String(repeating: "x", count: limit + 1) + #""}}"#
            #expect(text.utf8.count < server.host.service.configuration.http.maxBodyBytes)
            try expectRefusal(server, "string over the limit", body: Array(text.utf8), status: 413, code: "string-too-long")
        }
    }

    @Test func numbersOutOfRangeAreRefused() throws {
        try LiveServer.with { server in
            for number in ["1e400", "-1e400", "1e999999999999"] {
                let body = #"{"root":{"style":{"width":"# + number + "}}}"
                let error = try expectRefusal(server, "width \(number)", body: Array(body.utf8), status: 422)
                #expect((error?["pointer"] as? String) == "/root/style/width", "\(number)")
            }
        }
    }

    @Test func nanAndInfinityLiteralsAreNotJSON() throws {
        try LiveServer.with { server in
            for literal in ["NaN", "Infinity", "-Infinity", "nan", "inf"] {
                let body = #"{"root":{"style":{"width":"# + literal + "}}}"
                try expectRefusal(server, "literal \(literal)", body: Array(body.utf8), status: 400, code: "invalid-json")
            }
        }
    }

    @Test func duplicateKeysAreRefusedWithAPointer() throws {
        try LiveServer.with { server in
            let body = #"{"root":{"style":{"width":10,"width":20}}}"#
            let error = try expectRefusal(server, "duplicate key", body: Array(body.utf8), status: 422, code: "duplicate-key")
            #expect((error?["pointer"] as? String) == "/root/style/width")
            let top = #"{"root":{},"root":{}}"#
            try expectRefusal(server, "duplicate root", body: Array(top.utf8), status: 422, code: "duplicate-key")
        }
    }

    @Test func invalidUTF8IsRefused() throws {
        let cases: [(String, [UInt8])] = [
            ("lone continuation byte", [0x80]),
            ("overlong slash", [0xC0, 0xAF]),
            ("surrogate half", [0xED, 0xA0, 0x80]),
            ("beyond U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
            ("truncated sequence", [0xE2, 0x82]),
            ("0xFF", [0xFF]),
        ]
        try LiveServer.with { server in
            for (label, bad) in cases {
                let body = Array(#"{"root":{"id":""#.utf8) + bad + Array(#""}}"#.utf8)
                try expectRefusal(server, "invalid UTF-8 (\(label))", body: body, status: 400)
            }
        }
    }

    @Test func aGzipBombIsRefusedAtTheInflatedLimit() throws {
        try LiveServer.with { server in
            let limit = server.host.service.configuration.http.maxInflatedBodyBytes
            // 64 MiB of the same JSON-ish byte compresses to ~64 KiB: far over the inflated
            // limit, far under the body limit. The inflater stops at the limit (Gzip.decompress).
            let plain = [UInt8](repeating: UInt8(ascii: " "), count: 64 << 20)
            let bomb = try #require(Gzip.compress(plain, level: 9))
            #expect(plain.count > limit && bomb.count < server.host.service.configuration.http.maxBodyBytes)
            try expectRefusal(server, "gzip bomb \(plain.count) -> \(bomb.count)", body: bomb, status: 413,
                              headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
            // A corrupt gzip body is a 400, not a crash or a hang.
            var corrupt = try #require(Gzip.compress(Array(Self.normalRequest.utf8), level: 5))
            corrupt[corrupt.count / 2] ^= 0xFF
            try expectRefusal(server, "corrupt gzip", body: corrupt, status: 400,
                              headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
        }
    }

    @Test func aBatchOfHostileItemsAnswersPerItemAndTheServerSurvives() throws {
        try LiveServer.with { server in
            // 1,001 nodes deep: inside the JSON nesting bound, one over the node depth limit.
            let depth = server.host.service.configuration.wire.maxDepth + 1
            let deep = String(repeating: #"{"children":["#, count: depth - 1) + "{}" + String(repeating: "]}", count: depth - 1)
            let body = "[" + #"{"root":"# + deep + "}," + #"{"root":{"style":{"width":1e400}}},"# + Self.normalRequest + "]"
            let response = try server.post("/compute/batch", json: body)
            print("hostile batch: \(body.utf8.count) bytes -> \(response.status): \(response.text.prefix(300))")
            #expect(response.status == 200)
            let answers = try #require(response.json as? [[String: Any]])
            #expect(answers.count == 3)
            if answers.count == 3 {
                #expect(((answers[0]["error"] as? [String: Any])?["status"] as? Int) == 413)
                #expect(((answers[1]["error"] as? [String: Any])?["status"] as? Int) == 422)
                #expect(answers[2]["error"] == nil)
            }
            let after = try server.post("/compute", json: Self.normalRequest)
            #expect(after.status == 200)
        }
    }
}
