import Foundation
import RedisTestSupport
import SharedCache
import Testing

/// The client against a real redis-server (CI installs it; skipped when it is not on PATH).
@Suite(.enabled(if: RedisServerProcess.executable != nil, "redis-server is not on PATH (apt-get install redis-server)"),
       .serialized)
struct RedisClientTests {
    @Test func setWithTTLThenGetIsBinarySafe() throws {
        let server = try RedisServerProcess()
        let connection = try RedisConnection(endpoint: server.endpoint, timeout: .milliseconds(500))
        let key = Array("k\u{0}ey".utf8)
        let value: [UInt8] = [0, 255, 13, 10, 36, 42, 0]
        try connection.set(key, value, ttl: .seconds(60))
        #expect(try connection.get(key) == value)
        #expect(try connection.get(Array("absent".utf8)) == nil)
        guard case .integer(let ttl) = try connection.command([Array("PTTL".utf8), key]) else {
            Issue.record("PTTL did not answer an integer"); return
        }
        #expect(ttl > 59_000 && ttl <= 60_000)
    }

    @Test func serverErrorsAreErrors() throws {
        let server = try RedisServerProcess()
        let connection = try RedisConnection(endpoint: server.endpoint, timeout: .milliseconds(500))
        #expect(throws: RedisError.self) { try connection.command([Array("NOSUCHCOMMAND".utf8)]) }
    }

    @Test func selectsTheDatabaseOfTheURL() throws {
        let server = try RedisServerProcess()
        var endpoint = server.endpoint
        endpoint.database = 3
        let inThree = try RedisConnection(endpoint: endpoint, timeout: .milliseconds(500))
        try inThree.set(Array("k".utf8), Array("three".utf8), ttl: .seconds(10))
        let inZero = try RedisConnection(endpoint: server.endpoint, timeout: .milliseconds(500))
        #expect(try inZero.get(Array("k".utf8)) == nil)
        #expect(try inThree.get(Array("k".utf8)) == Array("three".utf8))
    }

    @Test func aStoppedServerFailsFastThenTheBreakerStopsCallingAndAProbeReconnects() throws {
        let server = try RedisServerProcess()
        let port = server.port
        let pool = RedisPool(endpoint: server.endpoint, size: 2, timeout: .milliseconds(200), backoff: .milliseconds(300),
                             failureThreshold: 2)
        guard case .done = pool.withConnection({ connection throws(RedisError) in try connection.set(Array("a".utf8), [1], ttl: .seconds(10)) }) else {
            Issue.record("the first call failed"); return
        }
        server.stop()
        for _ in 0..<2 {
            let outcome = pool.withConnection { connection throws(RedisError) in try connection.get(Array("a".utf8)) }
            guard case .failed = outcome else { Issue.record("a call to a stopped server did not fail: \(outcome)"); return }
        }
        #expect(pool.breaker.state == .open)
        guard case .breakerOpen = pool.withConnection({ connection throws(RedisError) in try connection.get(Array("a".utf8)) }) else {
            Issue.record("the open breaker let a call through"); return
        }
        // The same port again, after the back-off: the probe reconnects and closes the breaker.
        let restarted = try RedisServerProcess(port: port)
        usleep(350_000)
        let outcome = pool.withConnection { connection throws(RedisError) in try connection.get(Array("a".utf8)) }
        guard case .done(let value) = outcome else { Issue.record("the probe did not reconnect: \(outcome)"); return }
        #expect(value == nil)  // a new, empty server
        #expect(pool.breaker.state == .closed)
        restarted.stop()
    }

    @Test func aKeptConnectionClosedByARestartedServerIsReplacedWithoutAFailure() throws {
        let server = try RedisServerProcess()
        let port = server.port
        let pool = RedisPool(endpoint: server.endpoint, size: 1, timeout: .milliseconds(500), backoff: .seconds(1))
        guard case .done = pool.withConnection({ connection throws(RedisError) in try connection.get(Array("a".utf8)) }) else {
            Issue.record("the first call failed"); return
        }
        server.stop()
        let restarted = try RedisServerProcess(port: port)
        let outcome = pool.withConnection { connection throws(RedisError) in
            try connection.set(Array("a".utf8), [7], ttl: .seconds(10))
        }
        guard case .done = outcome else { Issue.record("the stale connection was not replaced: \(outcome)"); return }
        #expect(pool.openConnections == 1)
        #expect(pool.breaker.timesOpened == 0)
        restarted.stop()
    }

    @Test func aServerThatDoesNotAnswerTimesOut() throws {
        // A listening socket that never accepts or answers: connect completes (backlog), the
        // command's read times out.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        try #require(listening)
        let endpoint = RedisEndpoint(host: "127.0.0.1", port: Int(UInt16(bigEndian: address.sin_port)))
        let connection = try RedisConnection(endpoint: endpoint, timeout: .milliseconds(50))
        let started = Date()
        #expect(throws: RedisError.timeout) { try connection.get(Array("k".utf8)) }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func thePoolNeverOpensMoreThanItsSize() throws {
        let server = try RedisServerProcess()
        let pool = RedisPool(endpoint: server.endpoint, size: 1, timeout: .milliseconds(500), backoff: .seconds(1))
        let inner = pool.withConnection { _ throws(RedisError) in
            pool.withConnection { _ throws(RedisError) in 1 }
        }
        guard case .done(let nested) = inner, case .poolBusy = nested else {
            Issue.record("a second connection was opened beyond the pool's size: \(inner)"); return
        }
        #expect(pool.openConnections == 1)
    }
}
