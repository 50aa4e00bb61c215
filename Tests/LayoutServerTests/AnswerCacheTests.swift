import Foundation
import LayoutServer
import Testing

/// The answer cache: whole `/compute` answers keyed by the exact request body.
@Suite struct AnswerCacheTests {
    static let request = RouteTests.rowRequest

    @Test func anIdenticalBodyIsAnsweredFromTheAnswerCache() throws {
        try LiveServer.with { server in
            let first = try server.post("/compute", json: Self.request)
            #expect(first.status == 200)
            #expect(first.header("X-Cache") == "miss")
            let second = try server.post("/compute", json: Self.request)
            #expect(second.status == 200)
            #expect(second.header("X-Cache") == "hit")
            #expect(second.header("Content-Type") == "application/json")
            #expect(second.header("ETag") == first.header("ETag"))
            #expect(second.body == first.body)
            let answers = server.host.service.answers.statistics
            #expect(answers.hits == 1)
            #expect(answers.entries == 1)
            // At least the exact-fit cost: the stored arrays' spare capacity is charged too.
            #expect(answers.bytes >= AnswerCache.cost(requestBytes: Self.request.utf8.count, answerBytes: first.body.count))
            // The hit never reached the frame cache: one miss there, no hit.
            #expect(server.host.service.cache.statistics.hits == 0)
            #expect(server.host.service.cache.statistics.misses == 1)
        }
    }

    @Test func aOneByteChangeIsNotAnAnswerCacheHit() throws {
        try LiveServer.with { server in
            _ = try server.post("/compute", json: Self.request)
            // Same tree, one space more: another body, so decoded again (a frame cache hit).
            let changed = try server.post("/compute", json: Self.request + " ")
            #expect(changed.status == 200)
            #expect(server.host.service.answers.statistics.hits == 0)
            #expect(server.host.service.answers.statistics.misses == 2)
            #expect(server.host.service.cache.statistics.hits == 1)
            // Another id is another answer, served with its own id.
            let otherId = try server.post("/compute", json: Self.request.replacingOccurrences(of: "\"bar\"", with: "\"baz\""))
            #expect(try #require(AnswerNode.root(of: otherId)).id == "baz")
            #expect(server.host.service.answers.statistics.entries == 3)
        }
    }

    @Test func ifNoneMatchAnswers304OnTheFastPath() throws {
        try LiveServer.with { server in
            let first = try server.post("/compute", json: Self.request)
            let tag = try #require(first.header("ETag"))
            let again = try server.post("/compute", json: Self.request,
                                        headers: [("Content-Type", "application/json"), ("If-None-Match", "W/\(tag)")])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == tag)
            #expect(again.header("X-Cache") == nil)
            #expect(server.host.service.answers.statistics.hits == 1)
            let stale = try server.post("/compute", json: Self.request,
                                        headers: [("Content-Type", "application/json"), ("If-None-Match", "\"other\"")])
            #expect(stale.status == 200)
            #expect(stale.body == first.body)
        }
    }

    @Test func errorsAreNotStored() throws {
        try LiveServer.with { server in
            let bad = #"{"root":{"style":{"width":-1}}}"#
            let first = try server.post("/compute", json: bad)
            let second = try server.post("/compute", json: bad)
            #expect(first.status == 422)
            #expect(second.status == 422)
            #expect(server.host.service.answers.statistics.entries == 0)
            #expect(server.host.service.answers.statistics.hits == 0)
        }
    }

    @Test func aZeroBudgetTurnsItOff() throws {
        try LiveServer.with({ $0.answerCacheBytes = 0 }) { server in
            _ = try server.post("/compute", json: Self.request)
            let second = try server.post("/compute", json: Self.request)
            #expect(second.header("X-Cache") == "hit") // from the frame cache
            #expect(server.host.service.answers.statistics == AnswerCache.Statistics())
            #expect(server.host.service.cache.statistics.hits == 1)
        }
    }

    @Test func metricsShowTheAnswerCache() throws {
        try LiveServer.with { server in
            _ = try server.post("/compute", json: Self.request)
            _ = try server.post("/compute", json: Self.request)
            let text = try server.get("/metrics").text
            #expect(text.contains("layoutd_answer_cache_hits_total 1\n"))
            #expect(text.contains("layoutd_answer_cache_misses_total 1\n"))
            #expect(text.contains("layoutd_answer_cache_entries 1\n"))
            #expect(text.contains("layoutd_answer_cache_capacity_bytes \(ServiceConfiguration.defaultAnswerCacheBytes)\n"))
            #expect(text.contains(#"layoutd_http_requests_total{route="/compute",status="200"} 2"#))
        }
    }

    // MARK: - The cache alone

    static func body(_ n: Int, size: Int = 100) -> [UInt8] {
        var bytes = [UInt8](repeating: UInt8(ascii: " "), count: size)
        for (i, byte) in "\(n)".utf8.enumerated() { bytes[i] = byte }
        return bytes
    }

    @Test func evictsTheLeastRecentlyUsedByBytes() {
        let answer = [UInt8](repeating: 7, count: 50)
        let cost = AnswerCache.cost(requestBytes: 100, answerBytes: 50)
        // Entries are charged their arrays' real capacity, which malloc may round up (a chunk it
        // does not split, < 32 bytes more per array): room for three even so, not for four.
        let slack = 3 * 2 * 32
        let cache = AnswerCache(capacityBytes: 3 * cost + slack, shardCount: 1)
        for n in 0..<3 {
            cache.insert(Self.body(n), key: cache.key(for: Self.body(n)), answer: answer, entityTag: "\"\(n)\"")
        }
        #expect(cache.statistics.entries == 3)
        #expect((3 * cost)...(3 * cost + slack) ~= cache.statistics.bytes)
        // Touch 0, so 1 is the oldest; a fourth entry evicts exactly it.
        #expect(cache.lookup(Self.body(0), key: cache.key(for: Self.body(0)))?.entityTag == "\"0\"")
        cache.insert(Self.body(3), key: cache.key(for: Self.body(3)), answer: answer, entityTag: "\"3\"")
        #expect(cache.statistics.evictions == 1)
        #expect((3 * cost)...(3 * cost + slack) ~= cache.statistics.bytes)
        #expect(cache.lookup(Self.body(1), key: cache.key(for: Self.body(1))) == nil)
        for n in [0, 2, 3] {
            #expect(cache.lookup(Self.body(n), key: cache.key(for: Self.body(n)))?.entityTag == "\"\(n)\"")
        }
        // Bigger than the whole budget: rejected, nothing evicted.
        let huge = Self.body(9, size: 4 * cost)
        cache.insert(huge, key: cache.key(for: huge), answer: answer, entityTag: "\"9\"")
        #expect(cache.statistics.rejected == 1)
        #expect(cache.statistics.entries == 3)
    }

    @Test func aHashCollisionIsNeverAHit() {
        let cache = AnswerCache(capacityBytes: 1 << 20, shardCount: 2)
        let a = Self.body(1), b = Self.body(2)
        // Force both bodies under one key, as a collision would.
        let key = cache.key(for: a)
        cache.insert(a, key: key, answer: [1], entityTag: "\"a\"")
        #expect(cache.lookup(b, key: key) == nil)
        #expect(cache.lookup(a, key: key)?.body == [1])
        // The colliding body replaces the entry; the first is then a miss, not b's answer.
        cache.insert(b, key: key, answer: [2], entityTag: "\"b\"")
        #expect(cache.statistics.entries == 1)
        #expect(cache.lookup(a, key: key) == nil)
        #expect(cache.lookup(b, key: key)?.body == [2])
    }
}
