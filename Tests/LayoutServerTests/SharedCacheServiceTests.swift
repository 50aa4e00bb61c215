import Foundation
@testable import LayoutServer
import LayoutEngine
import LayoutWire
import RedisTestSupport
import SharedCache
import Testing

/// Two services sharing one redis-server (started by the test; skipped without redis-server).
@Suite(.enabled(if: RedisServerProcess.executable != nil, "redis-server is not on PATH (apt-get install redis-server)"),
       .serialized)
struct SharedCacheServiceTests {
    static func sharing(_ redis: RedisServerProcess) -> (inout ServiceConfiguration) -> Void {
        { configuration in
            configuration.sharedCache.url = redis.url
            configuration.sharedCache.timeout = .milliseconds(200)  // a shared, noisy test machine
            configuration.sharedCache.backoff = .milliseconds(200)
        }
    }

    @Test func aLayoutComputedByOneReplicaIsASharedHitOnAnother() throws {
        let redis = try RedisServerProcess()
        try LiveServer.with(Self.sharing(redis)) { a in
            let first = try a.post("/compute", json: RouteTests.rowRequest)
            #expect(first.status == 200)
            #expect(first.header("X-Cache") == "miss")
            #expect(first.header("X-Cache-Level") == nil)
            a.host.service.sharedCache?.waitForWrites()
            #expect(a.host.service.sharedCache?.statistics.writes == 1)
            try LiveServer.with(Self.sharing(redis)) { b in
                // Other ids: the same structure, so the same key; the answer carries b's ids.
                let shared = try b.post("/compute", json: RouteTests.rowRequest(ids: ("x", "y", "z")))
                #expect(shared.status == 200)
                #expect(shared.header("X-Cache") == "hit")
                #expect(shared.header("X-Cache-Level") == "shared")
                #expect(String(decoding: shared.body, as: UTF8.self).contains(#""id":"z""#))
                let local = try b.post("/compute", json: RouteTests.rowRequest(ids: ("p", "q", "r")))
                #expect(local.header("X-Cache-Level") == "local")
                let answer = try b.post("/compute", json: RouteTests.rowRequest(ids: ("p", "q", "r")))
                #expect(answer.header("X-Cache-Level") == "answer")
                #expect(b.host.service.sharedCache?.statistics.hits == 1)
                let metrics = String(decoding: try b.get("/metrics").body, as: UTF8.self)
                #expect(metrics.contains("layoutd_shared_cache_hits_total 1\n"))
                #expect(metrics.contains("layoutd_shared_cache_lookup_duration_seconds_count 1\n"))
            }
        }
    }

    /// Text leaves with lines: the local cache keeps each leaf's content box after the nodes'
    /// frames, and so does the shared one; the answer from Redis is the computed one.
    @Test func aTextLayoutWithLinesIsSharedWhole() throws {
        let redis = try RedisServerProcess()
        let body = #"{"available":{"width":300,"height":null},"textLines":true,"root":{"style":{"width":150},"#
            + #""children":[{"id":"t","text":"The quick brown fox jumps over the lazy dog"}]}}"#
        let computed = try LiveServer.with(Self.sharing(redis)) { a in
            let response = try a.post("/compute", json: body)
            #expect(response.status == 200)
            #expect(response.header("X-Cache") == "miss")
            a.host.service.sharedCache?.waitForWrites()
            return response.body
        }
        try LiveServer.with(Self.sharing(redis)) { b in
            let response = try b.post("/compute", json: body)
            #expect(response.header("X-Cache-Level") == "shared")
            #expect(response.body == computed)
            #expect(String(decoding: response.body, as: UTF8.self).contains(#""lines":["#))
        }
    }

    @Test func aGarbageValueUnderTheKeyIsIgnoredAndCountedNeverServed() throws {
        let redis = try RedisServerProcess()
        let expected = try LiveServer.with { try $0.post("/compute", json: RouteTests.rowRequest).body }
        try LiveServer.with(Self.sharing(redis)) { a in
            _ = try a.post("/compute", json: RouteTests.rowRequest)
            a.host.service.sharedCache?.waitForWrites()
        }
        // The key the service wrote (the server holds nothing else), then damaged copies of its value.
        let connection = try RedisConnection(endpoint: redis.endpoint, timeout: .seconds(1))
        let key = try #require(try Self.onlyKey(connection))
        let hash = try Self.structuralHash(of: RouteTests.rowRequest)
        #expect(key == SharedFrameCodec.key(hash))
        try checkGarbage(under: key, connection: connection, redis: redis, expected: expected)
    }

    static func structuralHash(of json: String) throws -> StructuralHash {
        let request = try LayoutWire.decodeRequest(bytes: Array(json.utf8), limits: .default)
        return request.tree.structuralHash(root: request.root, available: request.available, direction: request.direction)
    }

    private func checkGarbage(under key: [UInt8], connection: RedisConnection, redis: RedisServerProcess,
                              expected: [UInt8]) throws {
        let value = try #require(try connection.get(key))
        var otherVersion = value
        otherVersion[3] = 2
        let damaged = [otherVersion, Array(value.prefix(value.count - 5)), Array("garbage".utf8)]
        for (index, garbage) in damaged.enumerated() {
            try connection.set(key, garbage, ttl: .seconds(60))
            try LiveServer.with(Self.sharing(redis)) { b in
                let response = try b.post("/compute", json: RouteTests.rowRequest)
                #expect(response.status == 200, "value \(index)")
                #expect(response.header("X-Cache") == "miss", "value \(index)")
                #expect(response.body == expected, "value \(index)")
                #expect(b.host.service.sharedCache?.statistics.invalid == 1, "value \(index)")
                b.host.service.sharedCache?.waitForWrites()
            }
            // The replica that found garbage computed and stored a good value again.
            #expect(try connection.get(key) == value, "value \(index)")
        }
    }

    /// The one key in the server (a fresh server holds only what the test wrote).
    static func onlyKey(_ connection: RedisConnection) throws -> [UInt8]? {
        guard case .string(let key) = try connection.command([Array("RANDOMKEY".utf8)]) else { return nil }
        return key
    }

    @Test func withRedisDownEveryAnswerIsComputedAndTheServiceStaysHealthyAndReady() throws {
        let redis = try RedisServerProcess()
        redis.stop()
        try LiveServer.with(Self.sharing(redis)) { server in
            for index in 0..<5 {
                // Other structures (available widths), so that each misses the local cache too.
                let json = RouteTests.rowRequest.replacingOccurrences(of: #""available":{"width":300"#,
                                                                      with: #""available":{"width":\#(400 + index)"#)
                let response = try server.post("/compute", json: json)
                #expect(response.header("X-Cache") == "miss")
                #expect(response.status == 200)
            }
            #expect(try server.get("/healthz").status == 200)
            #expect(try server.get("/readyz").status == 200)
            server.host.service.sharedCache?.waitForWrites()
            let statistics = try #require(server.host.service.sharedCache?.statistics)
            #expect(statistics.errors >= 3)  // then the breaker opened
            #expect(statistics.breakerOpened >= 1)
            #expect(statistics.hits == 0)
        }
    }
}

@Suite struct ReadinessTests {
    @Test func readyUntilDrainingThenServiceUnavailableWhileStillServing() throws {
        try LiveServer.with { server in
            let ready = try server.get("/readyz")
            #expect(ready.status == 200)
            #expect(String(decoding: ready.body, as: UTF8.self) == #"{"status":"ready"}"#)
            server.host.service.startDraining()
            let draining = try server.get("/readyz")
            #expect(draining.status == 503)
            #expect(String(decoding: draining.body, as: UTF8.self) == #"{"status":"draining"}"#)
            #expect(try server.get("/healthz").status == 200)
            #expect(try server.post("/compute", json: RouteTests.rowRequest).status == 200)
        }
    }
}
