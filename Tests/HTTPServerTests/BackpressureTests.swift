import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SyncSupport
import Testing
@testable import HTTPServer

/// The most a connection's socket can hold for a client that does not read: the kernel's
/// largest automatic send buffer (tcp_wmem's maximum; 4 MiB when it cannot be read).
private func maxSocketSendBufferBytes() -> Int {
    guard let file = fopen("/proc/sys/net/ipv4/tcp_wmem", "r") else { return 4 << 20 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 128)
    guard fgets(&line, Int32(line.count), file) != nil else { return 4 << 20 }
    let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).last.flatMap { Int($0) } ?? 4 << 20
}

@Suite struct BackpressureTests {
    /// A client pipelines many requests with large answers and never reads. The server must
    /// stop taking its requests once its unsent output passes the bound (the handler sees only
    /// what fits in the socket buffers, the bound and one pipeline), keep serving others, and
    /// close it at the write timeout.
    @Test(arguments: ioBackends, [false, true])
    func aClientThatDoesNotReadGetsNoMoreWork(backend: IOBackend, respondLater: Bool) throws {
        let answerBytes = 128 * 1024
        let requests = 400
        let bufferedBound = 256 * 1024
        let pipeline = 16
        let calls = Locked(0)
        let answer = [UInt8](repeating: UInt8(ascii: "q"), count: answerBytes)
        let handler = HTTPClosureHandler { request, respond in
            guard request.path == "/large" else {
                respond(HTTPResponse(status: 200, body: Array("small".utf8)))
                return
            }
            calls.withLock { $0 += 1 }
            let response = HTTPResponse(status: 200, body: answer)
            if respondLater { DispatchQueue.global().async { respond(response) } } else { respond(response) }
        }
        try withServer(backend, {
            $0.maxBufferedResponseBytes = bufferedBound
            $0.maxPipelinedRequests = pipeline
            $0.writeTimeout = .seconds(1)
            $0.idleTimeout = .seconds(30)
        }, handler: handler) { server in
            let stuck = try RawClient(port: server.boundPort, receiveBufferBytes: 4096)
            stuck.send(String(repeating: "GET /large HTTP/1.1\r\nHost: t\r\n\r\n", count: requests))
            #expect(waitUntil(seconds: 2) { calls.withLock { $0 } > 0 })

            let other = try RawClient(port: server.boundPort, timeoutSeconds: 5)
            other.send("GET /other HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            let response = try #require(other.readResponse())
            #expect(response.status == 200)
            #expect(response.text == "small")

            // The stuck connection makes no write progress: closed at the write timeout.
            #expect(waitUntil(seconds: 5) { server.openConnections == 0 })
            let handled = calls.withLock { $0 }
            let parked = maxSocketSendBufferBytes() + 2 * stuck.receiveBufferBytes + bufferedBound
            let limit = parked / answerBytes + pipeline + 2
            #expect(handled <= limit, "handler ran \(handled) times for a client that reads nothing (limit \(limit))")
            #expect(handled < requests)
        }
    }

    /// Pipelined requests run concurrently only while their expected answers fit in the output
    /// bound: answers larger than the bound are computed one at a time, small ones in parallel
    /// (once the connection's first answer has shown their size).
    @Test(arguments: ioBackends, [(answerBytes: 64 * 1024, concurrent: false), (answerBytes: 100, concurrent: true)])
    func pipelinedHandlersRunConcurrentlyOnlyWhileTheirAnswersFit(backend: IOBackend, shape: (answerBytes: Int, concurrent: Bool)) throws {
        let (answerBytes, concurrent) = shape
        let running = Locked((now: 0, most: 0))
        let handler = HTTPClosureHandler { _, respond in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) {
                running.withLock { $0.now -= 1 }
                respond(HTTPResponse(status: 200, body: [UInt8](repeating: UInt8(ascii: "a"), count: answerBytes)))
            }
        }
        try withServer(backend, { $0.maxBufferedResponseBytes = 16 * 1024; $0.responseCompression.enabled = false },
                       handler: handler) { server in
            let client = try RawClient(port: server.boundPort, timeoutSeconds: 5)
            client.send(String(repeating: "GET /p HTTP/1.1\r\nHost: t\r\n\r\n", count: 10))
            for i in 0..<10 {
                let response = try #require(client.readResponse(), "answer \(i) missing")
                #expect(response.body.count == answerBytes)
            }
            let most = running.withLock { $0.most }
            #expect(concurrent ? most > 1 : most == 1, "at most \(most) handlers ran at once")
        }
    }

    /// A client that reads, slowly, still gets every pipelined answer in order: pausing on
    /// unsent output only delays intake, it never drops requests already read.
    @Test(arguments: ioBackends) func pausedIntakeResumesAndAnswersEveryRequest(backend: IOBackend) throws {
        let handler = HTTPClosureHandler { request, respond in
            let index = Int(request.path.dropFirst()) ?? -1
            var body = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
            body.replaceSubrange(0..<8, with: Array(eightDigits(index).utf8))
            respond(HTTPResponse(status: 200, body: body))
        }
        try withServer(backend, { $0.maxBufferedResponseBytes = 16 * 1024; $0.responseCompression.enabled = false },
                       handler: handler) { server in
            let client = try RawClient(port: server.boundPort, timeoutSeconds: 5, receiveBufferBytes: 4096)
            var pipelined = ""
            for i in 0..<60 { pipelined += "GET /\(i) HTTP/1.1\r\nHost: t\r\n\r\n" }
            pipelined += "GET /60 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
            client.send(pipelined)
            client.shutdownWrite() // a half-closed peer still gets answers to what it sent
            for i in 0...60 {
                let response = try #require(client.readResponse(), "answer \(i) missing")
                #expect(response.status == 200)
                #expect(response.body.count == 64 * 1024)
                #expect(String(decoding: response.body.prefix(8), as: UTF8.self) == eightDigits(i))
            }
            #expect(client.isClosedByPeer())
        }
    }
}

/// `value` as 8 decimal digits, zero-padded.
private func eightDigits(_ value: Int) -> String {
    let digits = "\(value)"
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
