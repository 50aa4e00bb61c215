#if os(Linux)
import CEpoll
import Dispatch
import Glibc
import SyncSupport
import Testing
@testable import HTTPServer

/// Runs `body` on `loop`'s thread and returns its result.
private func onLoop<R: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () -> R) -> R {
    let result = Locked<R?>(nil)
    let done = DispatchSemaphore(value: 0)
    loop.execute {
        result.withLock { $0 = body() }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

/// Records what a loop hands a registration.
private final class RecordingRegistrant: EventLoopRegistrant, @unchecked Sendable {
    private let log = Locked<(events: [UInt32], deadlines: Int)>(([], 0))
    var onEvent: ((UInt32) -> Void)?
    func handle(events: UInt32) {
        log.withLock { $0.events.append(events) }
        onEvent?(events)
    }
    func deadlineReached() { log.withLock { $0.deadlines += 1 } }
    var events: [UInt32] { log.withLock { $0.events } }
    var deadlines: Int { log.withLock { $0.deadlines } }
}

private func socketPair() -> (Int32, Int32) {
    var fds: [Int32] = [0, 0]
    let status = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
    precondition(status == 0)
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    return (fds[0], fds[1])
}

@Suite struct EventLoopTests {
    @Test func allowedCPUCountFollowsTheAffinityMask() throws {
        // /proc/self/status: "Cpus_allowed:\tff,ffffffff" (hex words).
        guard let file = fopen("/proc/self/status", "r") else { return }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        var expected: Int?
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("Cpus_allowed:") else { continue }
            expected = text.dropFirst("Cpus_allowed:".count).compactMap { $0.hexDigitValue?.nonzeroBitCount }.reduce(0, +)
        }
        let count = try #require(expected)
        #expect(count >= 1)
        #expect(EventLoopGroup.allowedCPUCount() == count)
    }

    @Test func groupHandsOutLoopsRoundRobin() throws {
        let group = try EventLoopGroup(count: 3)
        defer { group.stop() }
        let picked = (0..<6).map { _ in ObjectIdentifier(group.nextLoop()) }
        #expect(Set(picked).count == 3)
        #expect(Array(picked[0..<3]) == Array(picked[3..<6]))
    }

    @Test func executeRunsOnTheLoopThreadInOrder() throws {
        let loop = try EventLoop(name: "test-loop")
        defer { loop.stop() }
        #expect(!loop.inEventLoop)
        let seen = Locked<[Int]>([])
        let onThread = Locked(true)
        for i in 0..<100 {
            loop.execute {
                if !loop.inEventLoop { onThread.withLock { $0 = false } }
                seen.withLock { $0.append(i) }
            }
        }
        #expect(onLoop(loop) { loop.inEventLoop })
        #expect(seen.withLock { $0 } == Array(0..<100))
        #expect(onThread.withLock { $0 })
    }

    @Test func deadlinesFireInOrderAndAClosedRegistrationsDeadlineNeverFires() throws {
        let loop = try EventLoop(name: "test-loop")
        defer { loop.stop() }
        let (a, aPeer) = socketPair()
        let (b, bPeer) = socketPair()
        defer { close(aPeer); close(bPeer); close(b) }
        let first = RecordingRegistrant()
        let second = RecordingRegistrant()
        let now = DispatchTime.now().uptimeNanoseconds
        let slots = onLoop(loop) { () -> [Int] in
            let slotA = loop.register(fd: a, owner: first)!
            let slotB = loop.register(fd: b, owner: second)!
            loop.schedule(slot: slotA, deadline: now + 100_000_000)
            loop.schedule(slot: slotB, deadline: now + 50_000_000)
            return [slotA, slotB]
        }
        // Close the first registration before its deadline; a new one reuses its slot and
        // even its descriptor number.
        let reused = RecordingRegistrant()
        let reuse = onLoop(loop) { () -> (Int32, Int, Int) in
            loop.deregister(slot: slots[0], fd: a)
            close(a)
            let (c, cPeer) = socketPair()
            let slot = loop.register(fd: c, owner: reused)!
            return (c, slot, Int(cPeer))
        }
        defer { close(reuse.0); close(Int32(reuse.2)) }
        #expect(reuse.1 == slots[0])
        #expect(waitUntil(seconds: 2) { second.deadlines == 1 })
        usleep(150_000)
        #expect(first.deadlines == 0)
        #expect(reused.deadlines == 0)
        #expect(second.deadlines == 1)
        #expect(onLoop(loop) { loop.deadlineCount } == 0)
        #expect(onLoop(loop) { loop.registrationCount } == 2)
    }

    /// Two sockets become readable in one epoll batch; the first handler to run closes the
    /// other registration and registers a fresh socket that reuses its descriptor and slot.
    /// The stale readable event must not reach the newcomer.
    @Test func staleEventsDoNotReachARegistrationThatReusesTheDescriptor() throws {
        let loop = try EventLoop(name: "test-loop")
        defer { loop.stop() }
        let (a, aPeer) = socketPair()
        let (b, bPeer) = socketPair()
        defer { close(aPeer); close(bPeer) }
        let newcomer = RecordingRegistrant()
        let owners = [RecordingRegistrant(), RecordingRegistrant()]
        let state = Locked<(slots: [Int], fds: [Int32], replaced: Int?, newPeer: Int32)>(([], [a, b], nil, -1))
        for (index, owner) in owners.enumerated() {
            owner.onEvent = { events in
                guard events & EPOLLIN.rawValue != 0 else { return }
                let other = 1 - index
                let (slots, fds, replaced) = state.withLock { ($0.slots, $0.fds, $0.replaced) }
                guard replaced == nil else { return }
                loop.deregister(slot: slots[other], fd: fds[other])
                close(fds[other])
                let (c, cPeer) = socketPair()
                let slot = loop.register(fd: c, owner: newcomer)
                state.withLock { $0.replaced = other; $0.fds[other] = c; $0.newPeer = cPeer; $0.slots.append(slot ?? -1) }
            }
        }
        onLoop(loop) {
            let slotA = loop.register(fd: a, owner: owners[0])!
            let slotB = loop.register(fd: b, owner: owners[1])!
            state.withLock { $0.slots = [slotA, slotB] }
        }
        // Both become readable before the loop wakes: one batch.
        onLoop(loop) {
            _ = write(aPeer, "x", 1)
            _ = write(bPeer, "y", 1)
        }
        #expect(waitUntil(seconds: 2) { state.withLock { $0.replaced } != nil })
        usleep(100_000)
        let final = state.withLock { $0 }
        let replaced = try #require(final.replaced)
        #expect(final.slots[2] == final.slots[replaced], "the newcomer reuses the freed slot")
        #expect(newcomer.events.allSatisfy { $0 & EPOLLIN.rawValue == 0 }, "a stale readable event reached the newcomer")
        #expect(owners[replaced].events.allSatisfy { $0 & EPOLLIN.rawValue == 0 } || owners[1 - replaced].events.isEmpty)
        onLoop(loop) {
            loop.deregister(slot: final.slots[1 - replaced], fd: final.fds[1 - replaced])
            loop.deregister(slot: final.slots[2], fd: final.fds[replaced])
        }
        close(final.fds[0]); close(final.fds[1]); close(final.newPeer)
    }
}

@Suite struct EventLoopServerTests {
    /// Many keep-alive connections over two loops: every request is answered, handlers run
    /// on both loops' threads (round-robin at accept) and never elsewhere.
    @Test func manyConnectionsAcrossTwoLoops() throws {
        let threads = Locked<Set<UInt>>([])
        let handler = HTTPClosureHandler { request, respond in
            threads.withLock { _ = $0.insert(UInt(pthread_self())) }
            respond(HTTPResponse(status: 200, body: Array("\(request.path)".utf8)))
        }
        try withServer(.eventLoop, { $0.eventLoopCount = 2 }, handler: handler) { server in
            #expect(server.eventLoopCount == 2)
            let failures = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 40) { index in
                guard let client = try? RawClient(port: server.boundPort, timeoutSeconds: 5) else {
                    failures.withLock { $0 += 1 }
                    return
                }
                for round in 0..<5 {
                    client.send("GET /c\(index)r\(round) HTTP/1.1\r\nHost: t\r\n\r\n")
                    if client.readResponse()?.text != "/c\(index)r\(round)" { failures.withLock { $0 += 1 } }
                }
            }
            #expect(failures.withLock { $0 } == 0)
            #expect(threads.withLock { $0.count } == 2)
        }
    }

    /// `respond` from other threads (Dispatch and a plain pthread) hops back to the loop, and
    /// pipelined answers still come back in order.
    @Test func handlerAnswersFromAnotherThread() throws {
        let handler = HTTPClosureHandler { request, respond in
            let delay = request.path == "/first" ? 100 : 5
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) {
                respond(HTTPResponse(status: 200, body: Array(request.path.utf8)))
            }
        }
        try withServer(.eventLoop, { $0.eventLoopCount = 1 }, handler: handler) { server in
            let client = try RawClient(port: server.boundPort)
            client.send("GET /first HTTP/1.1\r\nHost: t\r\n\r\nGET /second HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.text == "/first")
            #expect(client.readResponse()?.text == "/second")
            // The loop thread is the one that calls handlers.
            let handlerThread = Locked<UInt?>(nil)
            let probe = HTTPClosureHandler { _, respond in
                handlerThread.withLock { $0 = UInt(pthread_self()) }
                respond(HTTPResponse(status: 204))
            }
            try withServer(.eventLoop, { $0.eventLoopCount = 1 }, handler: probe) { other in
                let otherLoop = try #require(other.eventLoopGroup?.loops.first)
                let probeClient = try RawClient(port: other.boundPort)
                probeClient.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect(probeClient.readResponse()?.status == 204)
                let loopThread = onLoop(otherLoop) { UInt(pthread_self()) }
                #expect(handlerThread.withLock { $0 } == loopThread)
            }
        }
    }

    /// Header timeouts fire from the loop's deadline heap while other connections on the
    /// same loop are served; closed connections leave no deadline behind.
    @Test func headerTimeoutsFireOnALoop() throws {
        try withServer(.eventLoop, { $0.eventLoopCount = 1; $0.headerTimeout = .milliseconds(300); $0.idleTimeout = .seconds(30) }) { server in
            let loop = try #require(server.eventLoopGroup?.loops.first)
            let slow = try (0..<5).map { _ in try RawClient(port: server.boundPort) }
            for client in slow { client.send("GET / HTTP/1.1\r\nHo") }
            let busy = try RawClient(port: server.boundPort)
            for i in 0..<3 {
                busy.send("GET /busy\(i) HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect(busy.readResponse()?.text == "GET /busy\(i) ")
            }
            for client in slow {
                let response = client.readResponse()
                #expect(response?.status == 408)
                #expect(client.isClosedByPeer())
            }
            #expect(waitUntil { server.openConnections == 1 })
            // Only the keep-alive connection's idle deadline is left.
            #expect(onLoop(loop) { loop.deadlineCount } == 1)
            #expect(onLoop(loop) { loop.registrationCount } == 1)
        }
    }

    /// The edge-trigger trap: while reading is paused (the pipeline is full), the next request
    /// arrives and its edge passes; once the first answer goes out, reading resumes and must
    /// find those bytes without any new edge. A body larger than one read pass (64 KiB) must
    /// be read to the end too.
    @Test(arguments: [16, 200 * 1024])
    func readResumesAfterBackpressureWithBytesAlreadyBuffered(bodyBytes: Int) throws {
        let handler = HTTPClosureHandler { request, respond in
            let answer = HTTPResponse(status: 200, body: Array("\(request.path) \(request.body.count)".utf8))
            if request.path == "/held" {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(150)) { respond(answer) }
            } else {
                respond(answer)
            }
        }
        try withServer(.eventLoop, { $0.maxPipelinedRequests = 1; $0.eventLoopCount = 1 }, handler: handler) { server in
            let client = try RawClient(port: server.boundPort, timeoutSeconds: 3)
            client.send("GET /held HTTP/1.1\r\nHost: t\r\n\r\n")
            usleep(50_000) // the server has read /held and paused reading
            let body = String(repeating: "b", count: bodyBytes)
            let sender = DispatchQueue(label: "sender")
            sender.async { client.send("POST /next HTTP/1.1\r\nHost: t\r\nContent-Length: \(bodyBytes)\r\n\r\n" + body) }
            #expect(client.readResponse()?.text == "/held 0")
            // Nothing more is sent: the server must read what is already in the socket.
            #expect(client.readResponse()?.text == "/next \(bodyBytes)")
            sender.sync {}
        }
    }

    /// A closed connection's descriptor is reused at once by the next one, which is served
    /// normally and is not closed by the old connection's header deadline.
    @Test func descriptorReuseAfterCloseGetsNoStaleDeadline() throws {
        try withServer(.eventLoop, { $0.eventLoopCount = 1; $0.headerTimeout = .milliseconds(300); $0.idleTimeout = .seconds(30) }) { server in
            for _ in 0..<3 {
                let quitter = try RawClient(port: server.boundPort)
                quitter.send("GET / HTTP/1.1\r\nHo")
                #expect(waitUntil { server.openConnections == 1 })
            }
            // The quitters close (their RawClients are gone); their deadlines go with them.
            #expect(waitUntil { server.openConnections == 0 })
            let client = try RawClient(port: server.boundPort)
            client.send("GET /one HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.text == "GET /one ")
            usleep(450_000) // past every quitter's header deadline
            client.send("GET /two HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.text == "GET /two ")
            let loop = try #require(server.eventLoopGroup?.loops.first)
            #expect(onLoop(loop) { loop.deadlineCount } == 1)
        }
    }
}
#endif
