import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SyncSupport
import Testing
@testable import HTTPServer

/// The server-wide bounds on buffered bytes (`maxBufferedOutputBytesTotal`,
/// `maxBufferedInputBytesTotal`): many clients together cannot make the server hold more
/// than the bound, the worst offenders are closed, and a normal client is still answered.
@Suite(.serialized) struct BufferBudgetTests {
    static let answer = [UInt8](repeating: UInt8(ascii: "a"), count: 256 * 1024)
    static let handler = HTTPClosureHandler { request, respond in
        respond(HTTPResponse(status: 200, body: request.path == "/large" ? answer : Array("small".utf8)))
    }

    /// Asks `/small` on a fresh connection; true when answered.
    static func normalRequest(port: Int) -> Bool {
        guard let client = try? RawClient(port: port, timeoutSeconds: 5) else { return false }
        client.send("GET /small HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        return client.readResponse()?.text == "small"
    }

    /// Eight clients pipeline requests with 256 KiB answers and never read: together they
    /// would park megabytes; the accounted output stays within the 2 MiB bound (plus what
    /// connections admitted at the same instant may add), the stalled ones holding the most
    /// are closed long before the write timeout, and a normal client gets its answers.
    @Test(arguments: ioBackends)
    func clientsThatDoNotReadStayWithinTheOutputBound(backend: IOBackend) throws {
        let bound = 2 * 1024 * 1024
        let perConnection = 512 * 1024
        try withServer(backend, {
            $0.maxBufferedResponseBytes = perConnection
            $0.maxBufferedOutputBytesTotal = bound
            $0.writeTimeout = .seconds(60)
            $0.idleTimeout = .seconds(60)
            $0.headerTimeout = .seconds(60)
        }, handler: Self.handler) { server in
            var stuck: [RawClient] = []
            for _ in 0..<8 {
                let client = try RawClient(port: server.boundPort, receiveBufferBytes: 4096)
                client.send(String(repeating: "GET /large HTTP/1.1\r\nHost: t\r\n\r\n", count: 64))
                stuck.append(client)
            }
            let most = Locked(0)
            let sampling = Locked(true)
            let sampler = DispatchGroup()
            DispatchQueue.global().async(group: sampler) {
                while sampling.withLock({ $0 }) {
                    let now = server.bufferStatistics.outputBytes
                    most.withLock { $0 = max($0, now) }
                    usleep(1_000)
                }
            }
            // The stuck clients fill the bound first; then a normal client asks three times.
            #expect(waitUntil(seconds: 3) { server.bufferStatistics.pausedConnections > 0 })
            var answered = 0
            for _ in 0..<3 where Self.normalRequest(port: server.boundPort) { answered += 1 }
            #expect(answered == 3, "a normal client got \(answered) of 3 answers")
            #expect(waitUntil(seconds: 3) { server.bufferStatistics.closedTotal >= 2 })
            sampling.withLock { $0 = false }
            sampler.wait()
            let peak = most.withLock { $0 }
            #expect(peak > 0)
            #expect(peak <= bound + 2 * perConnection, "accounted output \(peak) over the bound \(bound)")
            #expect(server.bufferStatistics.pausedTotal >= 1)
            // Closed by the bound (the write timeout is a minute away): stuck clients see their
            // connection end once they read what the kernel holds.
            var ended = 0
            for client in stuck {
                var chunk = [UInt8](repeating: 0, count: 65536)
                var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
                _ = withUnsafePointer(to: &timeout) {
                    setsockopt(client.fd, SOL_SOCKET, SO_RCVTIMEO, $0, socklen_t(MemoryLayout<timeval>.size))
                }
                while true {
                    let count = recv(client.fd, &chunk, chunk.count, 0)
                    if count == 0 || (count < 0 && errno == ECONNRESET) { ended += 1; break }
                    if count < 0 { break }
                }
            }
            #expect(ended >= 2, "\(ended) stuck clients were closed")
            stuck.removeAll()
            // Once every client is gone, nothing is accounted.
            #expect(waitUntil(seconds: 5) {
                let now = server.bufferStatistics
                return server.openConnections == 0 && now.outputBytes == 0 && now.inputBytes == 0
                    && now.pausedConnections == 0
            })
        }
    }

    /// Clients send the head and part of a large body, then stall: beyond the input bound
    /// they stop being read, those paused longest holding the most are closed, and a normal
    /// client is answered meanwhile. Chunked bodies count like sized ones (their decoded part
    /// is held by the parser until the body ends).
    @Test(arguments: ioBackends, [false, true])
    func partialBodiesStayWithinTheInputBound(backend: IOBackend, chunked: Bool) throws {
        let bound = 256 * 1024
        try withServer(backend, {
            $0.maxBufferedInputBytesTotal = bound
            $0.bodyTimeout = .seconds(60)
            $0.headerTimeout = .seconds(60)
        }, handler: Self.handler) { server in
            var senders: [RawClient] = []
            let part = [UInt8](repeating: UInt8(ascii: "x"), count: 128 * 1024)
            for _ in 0..<6 {
                let client = try RawClient(port: server.boundPort)
                if chunked {
                    client.send("POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n400000\r\n")
                } else {
                    client.send("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 4194304\r\n\r\n")
                }
                client.send(part)
                senders.append(client)
            }
            var most = 0
            var answered = 0
            let end = DispatchTime.now() + .seconds(2)
            while DispatchTime.now() < end {
                most = max(most, server.bufferStatistics.inputBytes)
                if answered < 3 && Self.normalRequest(port: server.boundPort) { answered += 1 }
                usleep(2_000)
            }
            // One read pass per connection may land after the bound is passed.
            #expect(most <= bound + 6 * 64 * 1024, "accounted input \(most) over the bound \(bound)")
            #expect(answered == 3)
            #expect(server.bufferStatistics.pausedTotal >= 1)
            #expect(waitUntil(seconds: 3) { server.bufferStatistics.inputBytes <= bound })
            #expect(server.bufferStatistics.closedTotal >= 1)
            senders.removeAll()
            #expect(waitUntil(seconds: 5) {
                server.openConnections == 0 && server.bufferStatistics.inputBytes == 0
            })
        }
    }
}
