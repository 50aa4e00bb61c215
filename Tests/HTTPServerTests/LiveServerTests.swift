import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SyncSupport
import Testing
@testable import HTTPServer

/// Every attack ends with this: a fresh connection still gets a normal answer.
private func expectServerStillServes(_ server: HTTPServer, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let client = try RawClient(port: server.boundPort)
    client.send("GET /after HTTP/1.1\r\nHost: t\r\n\r\n")
    let response = client.readResponse()
    #expect(response?.status == 200, sourceLocation: sourceLocation)
    #expect(response?.text == "GET /after ", sourceLocation: sourceLocation)
}

@Suite struct LiveServerTests {
    @Test(arguments: ioBackends) func keepAliveServesSeveralRequestsOnOneConnection(backend: IOBackend) throws {
        try withServer(backend) { server in
            let client = try RawClient(port: server.boundPort)
            for i in 0..<3 {
                client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n#\(i)")
                let response = try #require(client.readResponse())
                #expect(response.status == 200)
                #expect(response.text == "POST /echo #\(i)")
                #expect(response.headers["Connection"] == nil)
                #expect(response.headers["Date"]?.hasSuffix(" GMT") == true)
                #expect(response.headers["Content-Type"] == "text/plain")
            }
            #expect(server.openConnections == 1)
        }
    }

    @Test(arguments: ioBackends) func pipelinedResponsesComeBackInRequestOrder(backend: IOBackend) throws {
        try withServer(backend) { server in
            let client = try RawClient(port: server.boundPort)
            // The first answer is the slowest: it must still come first.
            client.send("GET /slow?ms=300 HTTP/1.1\r\nHost: t\r\n\r\n"
                + "GET /slow?ms=10 HTTP/1.1\r\nHost: t\r\n\r\n"
                + "POST /p HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                + "GET /last HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.text == "slow 300")
            #expect(client.readResponse()?.text == "slow 10")
            #expect(client.readResponse()?.text == "POST /p abc")
            #expect(client.readResponse()?.text == "GET /last ")
        }
    }

    /// Large answers are written from the handler's array, apart from their heads (one
    /// `sendmsg` over both). Pipelined between small ones, megabytes to a client with a small
    /// receive window (so the server's writes stop part-way through heads and bodies and go on
    /// when it reads), each still arrives whole and in order.
    @Test(arguments: ioBackends) func largeAnswersArriveWholeAndInOrderAmongSmallOnes(backend: IOBackend) throws {
        try withServer(backend) { server in
            let client = try RawClient(port: server.boundPort, receiveBufferBytes: 4096)
            let sizes = [1_000_000, 3, 2_500_000, 10, 16 * 1024, 600_000]
            var expected: [[UInt8]] = []
            var stream: [UInt8] = []
            for (i, size) in sizes.enumerated() {
                let body = (0..<size).map { UInt8(ascii: "a") + UInt8(($0 + i) % 26) }
                stream += Array("POST /e\(i) HTTP/1.1\r\nHost: t\r\nContent-Length: \(size)\r\n\r\n".utf8) + body
                expected.append(Array("POST /e\(i) ".utf8) + body)
            }
            stream += Array("GET /last HTTP/1.1\r\nHost: t\r\n\r\n".utf8)
            // Sent while this thread reads: the server stops reading while its answers wait.
            let fd = client.fd, sent = DispatchSemaphore(value: 0)
            DispatchQueue.global().async { [stream] in
                RawClient.send(stream, to: fd)
                sent.signal()
            }
            for (i, body) in expected.enumerated() {
                let response = try #require(client.readResponse(), "answer \(i)")
                #expect(response.status == 200)
                #expect(response.headers["Content-Length"] == String(body.count))
                let same = response.body == body // compared apart: a failure must not print megabytes
                #expect(same, "answer \(i) of \(body.count) bytes differs (\(response.body.count) received)")
            }
            #expect(client.readResponse()?.text == "GET /last ")
            #expect(sent.wait(timeout: .now() + 10) == .success)
            try expectServerStillServes(server)
        }
    }

    @Test(arguments: ioBackends) func expectContinueGetsAnInterimResponseBeforeTheBody(backend: IOBackend) throws {
        try withServer(backend) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("POST /up HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            let interim = try #require(client.readResponse())
            #expect(interim.status == 100)
            client.send("data")
            let final = try #require(client.readResponse())
            #expect(final.status == 200)
            #expect(final.text == "POST /up data")
        }
    }

    @Test(arguments: ioBackends) func expectContinueRefusedWithAFinalStatus(backend: IOBackend) throws {
        try withServer(backend, { $0.maxBodyBytes = 100 }) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("POST /up HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 413)
            #expect(response.headers["Connection"] == "close")
            #expect(client.isClosedByPeer())
            try expectServerStillServes(server)
        }
    }

    @Test(arguments: ioBackends) func headHasTheHeadersOfGetButNoBody(backend: IOBackend) throws {
        try withServer(backend) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\nHEAD /big HTTP/1.1\r\nHost: t\r\n\r\nGET /x HTTP/1.1\r\nHost: t\r\n\r\n")
            let get = try #require(client.readResponse())
            let head = try #require(client.readResponse(bodyExpected: false))
            #expect(head.status == 200)
            #expect(head.headers["Content-Length"] == "5000")
            #expect(head.headers["Content-Length"] == get.headers["Content-Length"])
            // Had HEAD sent a body, this would read its bytes instead of the next response.
            #expect(client.readResponse()?.text == "GET /x ")
        }
    }

    @Test(arguments: ioBackends) func http10ClosesByDefaultAndKeepsAliveOnRequest(backend: IOBackend) throws {
        try withServer(backend) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("GET /old HTTP/1.0\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 200)
            #expect(response.headers["Connection"] == "close")
            #expect(client.isClosedByPeer())

            let persistent = try RawClient(port: server.boundPort)
            for _ in 0..<2 {
                persistent.send("GET /old HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let answer = try #require(persistent.readResponse())
                #expect(answer.headers["Connection"] == "keep-alive")
                #expect(answer.text == "GET /old ")
            }
        }
    }

    /// A request followed at once by the client's FIN (one edge for both with epoll): the
    /// answer goes out, then the server closes without waiting for the idle timeout.
    @Test(arguments: ioBackends) func halfClosedClientIsAnsweredThenClosed(backend: IOBackend) throws {
        try withServer(backend, { $0.idleTimeout = .seconds(30) }) { server in
            let client = try RawClient(port: server.boundPort, timeoutSeconds: 3)
            client.send("GET /last HTTP/1.1\r\nHost: t\r\n\r\n")
            client.shutdownWrite()
            #expect(client.readResponse()?.text == "GET /last ")
            #expect(client.isClosedByPeer())
            #expect(waitUntil { server.openConnections == 0 })
        }
    }

    @Test(arguments: ioBackends) func connectionCloseIsHonoured(backend: IOBackend) throws {
        try withServer(backend) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("GET /a HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\nGET /ignored HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.headers["Connection"] == "close")
            #expect(client.isClosedByPeer())
        }
    }

    /// The reason phrases of the refusals' status lines, which the default error body repeats.
    private let expectedReasons = [
        400: "Bad Request", 413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
        431: "Request Header Fields Too Large", 501: "Not Implemented", 505: "HTTP Version Not Supported",
    ]

    @Test(arguments: ioBackends, [
        (414, "GET /\(String(repeating: "a", count: 300)) HTTP/1.1\r\nHost: t\r\n\r\n"),
        (431, "GET / HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 600))\r\n\r\n"),
        (413, "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 2000\r\n\r\n" + String(repeating: "c", count: 2000)),
        (413, "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n" + String(repeating: "c", count: 1024) + "\r\n400\r\n"),
        (400, "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n"),
        (400, "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
        (400, "GET / HTTP/1.1\nHost: t\n\n"),
        (400, "GET / HTTP/1.1\r\nHost : t\r\n\r\n"),
        (400, "GET / HTTP/1.1\r\n\r\n"),
        (400, "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nfoo\r\n"),
        (501, "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: compress\r\n\r\n"),
        (505, "GET / HTTP/2.0\r\nHost: t\r\n\r\n"),
        (415, "POST / HTTP/1.1\r\nHost: t\r\nContent-Encoding: br\r\nContent-Length: 1\r\n\r\nx"),
    ])
    func refusalsAnswerWithTheErrorBodyAndClose(backend: IOBackend, refusal: (status: Int, request: String)) throws {
        let (status, request) = refusal
        try withServer(backend, { $0.maxRequestLineBytes = 256; $0.maxHeaderBytes = 512; $0.maxBodyBytes = 1500 }) { server in
            let client = try RawClient(port: server.boundPort)
            client.send(request)
            let response = try #require(client.readResponse())
            #expect(response.status == status)
            #expect(response.headers["Connection"] == "close")
            #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
            #expect(response.text.hasPrefix("\(status) \(expectedReasons[status] ?? "?"): "))
            #expect(response.text.count > "\(status) \(expectedReasons[status] ?? "?"): \n".count)
            #expect(client.isClosedByPeer())
            try expectServerStillServes(server)
        }
    }

    @Test(arguments: ioBackends) func refusalsUseTheConfiguredErrorBody(backend: IOBackend) throws {
        let format = HTTPErrorBodyFormat(contentType: "application/problem+json") { refusal in
            Array("{\"status\":\(refusal.status),\"title\":\"\(refusal.reason)\",\"detail\":\"\(refusal.message)\"}".utf8)
        }
        try withServer(backend, { $0.errorBody = format; $0.maxBodyBytes = 10 }) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 20\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 413)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.headers["Content-Length"] == String(response.body.count))
            #expect(response.text.hasPrefix("{\"status\":413,\"title\":\"Content Too Large\",\"detail\":\""))
            #expect(response.text.hasSuffix("\"}"))
            #expect(client.isClosedByPeer())
            try expectServerStillServes(server)
        }
    }

    @Test(arguments: ioBackends) func gzipResponsesWhenAcceptedOnly(backend: IOBackend) throws {
        try withServer(backend) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("GET /big HTTP/1.1\r\nHost: t\r\nAccept-Encoding: deflate, gzip\r\n\r\n")
            let zipped = try #require(client.readResponse())
            #expect(zipped.headers["Content-Encoding"] == "gzip")
            #expect(zipped.headers["Vary"] == "Accept-Encoding")
            #expect(zipped.body.count < 5000)
            let plain = try Gzip.decompress(zipped.body, limit: 1 << 20)
            #expect(plain.count == 5000)
            client.send("GET /big HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip;q=0\r\n\r\n")
            let unzipped = try #require(client.readResponse())
            #expect(unzipped.headers["Content-Encoding"] == nil)
            #expect(unzipped.body == plain)
            // Small bodies are not worth compressing.
            client.send("GET /small HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\n\r\n")
            #expect(client.readResponse()?.headers["Content-Encoding"] == nil)
        }
    }

    @Test(arguments: ioBackends) func gzipRequestBodiesAreInflatedWithinALimit(backend: IOBackend) throws {
        try withServer(backend, { $0.maxInflatedBodyBytes = 3000 }) { server in
            let text = String(repeating: "z", count: 2000)
            let body = try #require(Gzip.compress(Array(text.utf8), level: 6))
            let client = try RawClient(port: server.boundPort)
            client.send(Array("POST /in HTTP/1.1\r\nHost: t\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
            #expect(client.readResponse()?.text == "POST /in " + text)

            let bomb = try #require(Gzip.compress([UInt8](repeating: 0, count: 100_000), level: 9))
            let attacker = try RawClient(port: server.boundPort)
            attacker.send(Array("POST /in HTTP/1.1\r\nHost: t\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n".utf8) + bomb)
            let refused = try #require(attacker.readResponse())
            #expect(refused.status == 413)
            #expect(attacker.isClosedByPeer())

            let corrupt = try RawClient(port: server.boundPort)
            corrupt.send("POST /in HTTP/1.1\r\nHost: t\r\nContent-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello")
            #expect(corrupt.readResponse()?.status == 400)
            try expectServerStillServes(server)
        }
    }

    @Test(arguments: ioBackends) func headerTimeoutAnswers408AndCloses(backend: IOBackend) throws {
        try withServer(backend, { $0.headerTimeout = .milliseconds(200) }) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("GET / HTTP/1.1\r\nHo")
            let response = try #require(client.readResponse())
            #expect(response.status == 408)
            #expect(response.text == "408 Request Timeout: The request head did not arrive in time.\n")
            #expect(client.isClosedByPeer())
            // A connection that never sends anything is closed silently.
            let silent = try RawClient(port: server.boundPort)
            #expect(silent.isClosedByPeer())
            try expectServerStillServes(server)
        }
    }

    @Test(arguments: ioBackends) func bodyTimeoutAnswers408(backend: IOBackend) throws {
        try withServer(backend, { $0.bodyTimeout = .milliseconds(200) }) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc")
            #expect(client.readResponse()?.status == 408)
            #expect(client.isClosedByPeer())
            try expectServerStillServes(server)
        }
    }

    @Test(arguments: ioBackends) func idleKeepAliveConnectionsAreClosed(backend: IOBackend) throws {
        try withServer(backend, { $0.idleTimeout = .milliseconds(200) }) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
            #expect(client.isClosedByPeer())
            try expectServerStillServes(server)
        }
    }

    @Test(arguments: ioBackends) func maxConnectionsIsEnforced(backend: IOBackend) throws {
        try withServer(backend, { $0.maxConnections = 2 }) { server in
            let first = try RawClient(port: server.boundPort)
            let second = try RawClient(port: server.boundPort)
            first.send("GET /1 HTTP/1.1\r\nHost: t\r\n\r\n")
            second.send("GET /2 HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(first.readResponse()?.status == 200)
            #expect(second.readResponse()?.status == 200)
            // The third waits in the backlog until a slot frees up.
            let third = try RawClient(port: server.boundPort, timeoutSeconds: 1)
            third.send("GET /3 HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(third.readResponse() == nil)
            #expect(server.openConnections == 2)
            first.send("GET /bye HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(first.readResponse()?.status == 200)
            #expect(third.readResponse()?.text == "GET /3 ")
        }
    }

    @Test(arguments: ioBackends) func slowReadersAreCutOffByTheWriteTimeout(backend: IOBackend) throws {
        try withServer(backend, { $0.writeTimeout = .milliseconds(200) }) { server in
            let reader = try RawClient(port: server.boundPort)
            reader.send("GET /huge HTTP/1.1\r\nHost: t\r\n\r\n")
            // Never read: the 16 MiB answer fills the socket buffers and the write blocks.
            #expect(waitUntil { server.openConnections == 0 })
            try expectServerStillServes(server)
        }
    }

    @Test(arguments: ioBackends) func everyClosePathReleasesTheConnection(backend: IOBackend) throws {
        try withServer(backend, { $0.headerTimeout = .seconds(2) }) { server in
            var clients: [RawClient] = []
            for i in 0..<24 {
                let client = try RawClient(port: server.boundPort)
                switch i % 6 {
                case 0: client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                case 1: client.send("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
                case 2: client.send("GET / HTTP/1.1\r\nHo")
                case 3: client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\nabc")
                case 4: client.send("GET /slow?ms=50 HTTP/1.1\r\nHost: t\r\n\r\n"); client.shutdownWrite()
                default: break
                }
                clients.append(client)
            }
            // Keep-alive, partial head, partial body and silent clients (16) stay open until they close.
            #expect(waitUntil { server.openConnections >= 16 })
            clients.removeAll() // closes every client socket, some mid-request
            #expect(waitUntil { server.openConnections == 0 })
            try expectServerStillServes(server)
        }
    }

    @Test(arguments: ioBackends) func gracefulShutdownFinishesInFlightRequests(backend: IOBackend) throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.ioBackend = backend
        configuration.idleTimeout = .seconds(30)
        let handler = ReachedCountingHandler()
        let server = HTTPServer(configuration: configuration, handler: handler)
        try server.start()
        // Waits are wide (a loaded machine can take seconds to schedule a thread); each ends as
        // soon as its condition holds, and a server that drops the in-flight answer still fails.
        let busy = try RawClient(port: server.boundPort, timeoutSeconds: 15)
        let idle = try RawClient(port: server.boundPort, timeoutSeconds: 15)
        idle.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(idle.readResponse()?.status == 200)
        busy.send("GET /slow?ms=300 HTTP/1.1\r\nHost: t\r\n\r\n")
        // Shut down once the slow request is in the handler: it is then in flight, not unread.
        #expect(waitUntil(seconds: 15) { handler.reached == 2 })
        server.shutdown(gracefully: true, timeout: .seconds(15))
        #expect(idle.isClosedByPeer())
        let response = try #require(busy.readResponse())
        #expect(response.text == "slow 300")
        #expect(response.headers["Connection"] == "close")
        #expect(busy.isClosedByPeer())
        server.waitUntilStopped()
        #expect(server.openConnections == 0)
        #expect(throws: SocketError.self) { try RawClient(port: server.boundPort) }
    }

    @Test(arguments: ioBackends) func listensOnIPv6Loopback(backend: IOBackend) throws {
        var configuration = HTTPServerConfiguration(host: "::1", port: 0)
        configuration.ioBackend = backend
        configuration.idleTimeout = .seconds(1)
        let server = HTTPServer(configuration: configuration, handler: TestHandler())
        do { try server.start() } catch { return } // no IPv6 on this host
        defer { server.shutdown(gracefully: false); server.waitUntilStopped() }
        let client = try RawClient(port: server.boundPort, host: "::1")
        client.send("GET /six HTTP/1.1\r\nHost: [::1]\r\n\r\n")
        #expect(client.readResponse()?.text == "GET /six ")
    }

    @Test(arguments: ioBackends) func remoteAddressAndHeadersReachTheHandler(backend: IOBackend) throws {
        let seen = Locked<HTTPRequest?>(nil)
        let handler = HTTPClosureHandler { request, respond in
            seen.withLock { $0 = request }
            respond(HTTPResponse(status: 204, headers: ["X-Evil": "a\r\nInjected: yes"]))
        }
        try withServer(backend, handler: handler) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("GET /who?x=1 HTTP/1.1\r\nHost: t\r\nX-Custom: v\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 204)
            #expect(response.headers["Injected"] == nil)
            #expect(response.headers["Content-Length"] == nil)
            let request = try #require(seen.withLock { $0 })
            #expect(request.remoteAddress == "127.0.0.1")
            #expect(request.query == "x=1")
            #expect(request.headers["x-custom"] == "v")
        }
    }
}

@Suite struct ConnectionLimitTests {
    @Test func descriptorsStayInReserveBelowTheProcessLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let soft = Int(clamping: limit.rlim_cur)
        #expect(HTTPServer.connectionLimit(configured: 10) == min(10, HTTPServer.connectionLimit(configured: .max)))
        #expect(HTTPServer.connectionLimit(configured: .max) <= soft - 8)
        #expect(HTTPServer.connectionLimit(configured: 1) == 1)
    }
}

@Suite struct SignalShutdownTests {
    /// One case only (the default backend): a second server calling `stopOnSignals` in the
    /// same process does not get the signal (the first one's Dispatch signal source does),
    /// whichever backend either uses. Signal handling does not depend on the backend.
    @Test func sigtermDrainsAndStops() throws {
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        let handler = ReachedCountingHandler()
        let server = HTTPServer(configuration: configuration, handler: handler)
        try server.start()
        server.stopOnSignals()
        // Wide waits for a loaded machine, each ending as soon as its condition holds.
        let client = try RawClient(port: server.boundPort, timeoutSeconds: 15)
        client.send("GET /slow?ms=200 HTTP/1.1\r\nHost: t\r\n\r\n")
        // The signal comes once the request is in the handler, so the drain must finish it.
        #expect(waitUntil(seconds: 15) { handler.reached == 1 })
        kill(getpid(), SIGTERM)
        let response = try #require(client.readResponse())
        #expect(response.text == "slow 200")
        #expect(response.headers["Connection"] == "close")
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { server.waitUntilStopped(); stopped.signal() }
        #expect(stopped.wait(timeout: .now() + 15) == .success)
    }
}
