import Dispatch
import Glibc

/// One client connection. All mutable state is confined to the connection's context (its
/// `ConnectionIO`: a serial Dispatch queue, or one event loop's thread), so reads, parsing,
/// handler calls, serialisation and writes of one connection never run concurrently.
final class Connection: @unchecked Sendable {
    /// A request whose response has not been written yet, in request order.
    private struct Pending {
        var context: ResponseContext
        var closeAfter: Bool
        var response: HTTPResponse?
        /// The head is in but the body is not: the handler has not been called yet.
        var awaitingBody: Bool
    }

    private static let readChunk = 16 * 1024

    let fd: Int32
    /// Socket events, the deadline timer and deferred work: the I/O backend.
    private let io: any ConnectionIO
    let remoteAddress: String?
    private let configuration: HTTPServerConfiguration
    private let handler: any HTTPHandler
    private let onClose: @Sendable (Connection) -> Void
    /// TLS state when the server has a certificate; nil for plain TCP.
    private var tls: TLSSession?
    private let usesTLS: Bool
    /// A TLS read needs the socket to be writable first.
    private var readWaitsForWritable = false

    private var readSuspended = false
    /// `processRequests` stopped because the intake was full: requests may wait in the parser.
    private var intakePaused = false
    private var intakeResumeScheduled = false
    private var writeArmed = false

    private var parser: RequestParser
    private var pending: [Pending] = []
    private var nextToWrite = 0
    private var currentHead: RequestHead?
    private var continueNeeded = false

    private var out: [UInt8] = []
    /// The header lines of the last response, reused when a handler sends the same list again.
    private var headerMemo = HeaderLinesMemo()
    private var outOffset = 0
    /// Bytes of the latest serialized response: what a request still in its handler is
    /// expected to add to `out`. Until one is known, one request's answer is assumed to take
    /// the whole output bound, so a new connection runs one handler at a time until it shows
    /// its answers are small.
    private lazy var responseBytesEstimate = configuration.maxBufferedResponseBytes
    private var processingDepth = 0

    /// No further requests are taken from the parser (error, close, drain, peer gone).
    private var stopParsing = false
    private var closeAfterFlush = false
    private var lingerAfterFlush = false
    private var peerClosed = false
    private var draining = false
    private var lingering = false
    private var closed = false

    private var servedAny = false
    private let openedAt = DispatchTime.now()
    private var lastActivity = DispatchTime.now()
    private var headStartedAt: DispatchTime?
    private var bodyStartedAt: DispatchTime?
    private var lastWriteProgress = DispatchTime.now()
    private var lingerDeadline = DispatchTime.now()
    private var deadline: DispatchTime?
    /// The time of the event being handled, read once when a socket event, timer or answer
    /// arrives (`tick()`) instead of at every step of it: a clock read is not free.
    private var now = DispatchTime.now()
    private let idleTimeout: DispatchTimeInterval
    private let headerTimeout: DispatchTimeInterval
    private let bodyTimeout: DispatchTimeInterval
    private let writeTimeout: DispatchTimeInterval
    private let lingerTimeout: DispatchTimeInterval
    private var armedDeadline: DispatchTime?

    init(fd: Int32, remoteAddress: String?, configuration: HTTPServerConfiguration, handler: any HTTPHandler,
         tls: TLSContext? = nil, io: any ConnectionIO, onClose: @escaping @Sendable (Connection) -> Void) {
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.configuration = configuration
        self.handler = handler
        self.onClose = onClose
        self.parser = RequestParser(limits: configuration.parserLimits)
        self.tls = tls?.makeSession(fd: fd)
        self.usesTLS = tls != nil
        self.io = io
        idleTimeout = .nanoseconds(Int(configuration.idleTimeout.nanoseconds))
        headerTimeout = .nanoseconds(Int(configuration.headerTimeout.nanoseconds))
        bodyTimeout = .nanoseconds(Int(configuration.bodyTimeout.nanoseconds))
        writeTimeout = .nanoseconds(Int(configuration.writeTimeout.nanoseconds))
        lingerTimeout = .nanoseconds(Int(configuration.lingerTimeout.nanoseconds))
    }

    @inline(__always)
    private func tick() { now = .now() }

    /// Starts reading; called once after accept.
    func start() {
        io.execute { [self] in
            guard io.activate(self), !(usesTLS && tls == nil) else { closeNow(); return }
            tick()
            updateDeadline()
        }
    }

    /// Graceful shutdown: finish requests already received, then close; idle closes now.
    func drain() {
        io.execute { [self] in
            guard !closed, !draining else { return }
            draining = true
            stopParsing = true
            intakePaused = false
            suspendReading()
            if let last = pending.last, last.awaitingBody { pending.removeLast() }
            if pending.isEmpty {
                if outOffset < out.count { closeAfterFlush = true } else { closeNow() }
            } else {
                pending[pending.count - 1].closeAfter = true
            }
        }
    }

    /// Immediate close (forced shutdown).
    func forceClose() {
        io.execute { [self] in closeNow() }
    }

    // MARK: Reading

    func readable() {
        guard !closed else { return }
        tick()
        if lingering { discardInput(); return }
        if let tls, !tls.handshakeDone {
            guard continueHandshake(tls) else { return }
        }
        var failed = false
        var received = 0
        var stoppedEarly = false
        // The loop's shared scratch when there is one: no 16 KiB allocation per read pass.
        func readPass(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
            for _ in 0..<(usesTLS ? 16 : 4) {
                switch receive(into: buffer) {
                case .bytes(let count):
                    received += count
                    parser.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[0..<count])))
                    if count < buffer.count && !usesTLS { return }
                case .wantRead:
                    return
                case .wantWrite:
                    readWaitsForWritable = true
                    armWrite()
                    return
                case .closed:
                    peerClosed = true
                    return
                case .failed:
                    failed = true
                    return
                }
            }
            // Every read filled the buffer: the socket may hold more.
            stoppedEarly = true
        }
        if let scratch = io.readScratch {
            readPass(scratch)
        } else {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.readChunk, readPass)
        }
        if failed { closeNow(); return }
        if stoppedEarly { io.readStoppedEarly() }
        if let tls, tls.pendingBytes > 0, !peerClosed {
            // OpenSSL holds decrypted bytes the socket will not signal again.
            io.execute { [self] in if !closed && !readSuspended { readable() } }
        }
        if received > 0 { lastActivity = now }
        if peerClosed { suspendReading() }
        processRequests()
        if peerClosed && !closed && !intakePaused && pending.allSatisfy({ $0.awaitingBody }) && outOffset >= out.count {
            closeNow()
            return
        }
        updateDeadline()
    }

    /// One read from the socket, or from TLS.
    @inline(__always)
    private func receive(into buffer: UnsafeMutableBufferPointer<UInt8>) -> TLSSession.Result {
        if let tls { return tls.read(into: buffer) }
        let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .closed }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? .wantRead : .failed
    }

    /// One write to the socket, or through TLS.
    @inline(__always)
    private func transmit(_ bytes: UnsafeRawBufferPointer) -> TLSSession.Result {
        if let tls { return tls.write(bytes) }
        let sent = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        if sent > 0 { return .bytes(sent) }
        let code = errno
        if sent < 0 && code == EINTR { return .bytes(0) }
        return sent < 0 && (code == EAGAIN || code == EWOULDBLOCK) ? .wantWrite : .failed
    }

    /// Drives the TLS handshake (bounded by the header timeout); true once it is done.
    private func continueHandshake(_ tls: TLSSession) -> Bool {
        switch tls.handshake() {
        case .bytes:
            disarmWrite()
            return true
        case .wantRead:
            disarmWrite()
            return false
        case .wantWrite:
            armWrite()
            return false
        case .closed, .failed:
            closeNow()
            return false
        }
    }

    /// Takes complete requests from the parser while the pipeline has room.
    private func processRequests() {
        processingDepth += 1
        intakePaused = false
        while !stopParsing && !closed {
            if intakeFull { intakePaused = true; break }
            let next: RequestParserEvent?
            do {
                next = try parser.next()
            } catch {
                refuse(ResponseSerializer.errorResponse(for: error), replacingLast: pending.last?.awaitingBody ?? false)
                break
            }
            // Events, heads and bodies are moved along, not copied (each copy retains every
            // string and array inside).
            guard let event = consume next else { break }
            switch consume event {
            case .head(let head):
                continueNeeded = head.expectsContinue
                bodyStartedAt = now
                pending.append(Pending(
                    context: ResponseContext(isHead: head.method == "HEAD", version: head.version,
                                             acceptsGzip: head.headers["Accept-Encoding"].map(Gzip.accepts) ?? false),
                    closeAfter: !head.keepAlive, response: nil, awaitingBody: true))
                currentHead = consume head
            case .end(let body):
                guard let head = currentHead.take() else { break }
                continueNeeded = false
                pending[pending.count - 1].awaitingBody = false
                if !head.keepAlive { stopParsing = true }
                dispatch(head, body: body, sequence: nextToWrite + pending.count - 1)
            }
        }
        sendContinueIfDue()
        updateIntake()
        processingDepth -= 1
        if processingDepth == 0 { flush() }
    }

    /// Backpressure: the pipeline is full, or the unsent output plus what the handlers still
    /// running are expected to add would pass the output bound (the client does not read its
    /// answers, or they are large). One request is always taken while the unsent output is
    /// within the bound.
    private var intakeFull: Bool {
        // A request whose head is in but whose body is not still gets its body read.
        let taken = pending.count - (pending.last?.awaitingBody == true ? 1 : 0)
        if taken >= configuration.maxPipelinedRequests { return true }
        let unsent = out.count - outOffset
        let bound = configuration.maxBufferedResponseBytes
        if unsent > bound { return true }
        var running = 0
        for request in pending where request.response == nil && !request.awaitingBody { running += 1 }
        let (expected, overflow) = (running + 1).multipliedReportingOverflow(by: responseBytesEstimate)
        return running > 0 && (overflow || expected > bound - unsent)
    }

    /// Reads and takes requests only while the intake has room: a full intake, or a
    /// connection that will take no more requests, reads nothing more (the parser buffer stays
    /// bounded, and a client that does not read gets no more handler calls). Once both the
    /// pipeline and the unsent output are below their bounds, reading resumes and requests
    /// already in the parser are taken.
    private func updateIntake() {
        guard !closed, !lingering else { return }
        if stopParsing || intakeFull {
            suspendReading()
            return
        }
        if peerClosed { suspendReading() } else { resumeReading() }
        // `intakePaused` stays set until the requests are taken, so a half-closed peer is not
        // closed on in the meantime.
        if intakePaused && !intakeResumeScheduled && processingDepth == 0 {
            intakeResumeScheduled = true
            io.execute { [self] in
                intakeResumeScheduled = false
                if !closed { tick(); processRequests(); updateDeadline() }
            }
        }
    }

    /// 100 Continue goes out only once every earlier response is written, and only while the
    /// body is still missing.
    private func sendContinueIfDue() {
        guard continueNeeded, pending.count == 1, pending[0].awaitingBody, !stopParsing else { return }
        continueNeeded = false
        out.append(contentsOf: ResponseSerializer.continueBytes)
    }

    private func dispatch(_ head: consuming RequestHead, body: consuming [UInt8], sequence: Int) {
        if head.contentEncoding == .gzip && !body.isEmpty {
            do {
                body = try Gzip.decompress(body, limit: configuration.maxInflatedBodyBytes)
            } catch .tooLarge {
                let error = HTTPParseError(.inflatedBodyTooLarge,
                                           "The inflated body is larger than \(configuration.maxInflatedBodyBytes) bytes.")
                refuse(ResponseSerializer.errorResponse(for: error), replacingLast: true)
                return
            } catch {
                refuse(ResponseSerializer.errorResponse(for: HTTPParseError(.invalidGzipBody, "The gzip body is corrupt.")),
                       replacingLast: true)
                return
            }
        }
        servedAny = true
        // The head's strings and fields move into the request (the head is spent here).
        let request = HTTPRequest(method: takeValue(&head.method), target: takeValue(&head.target),
                                  path: takeValue(&head.path), query: head.query.take(), version: head.version,
                                  headers: takeValue(&head.headers), body: body, remoteAddress: remoteAddress)
        // A strong capture: no weak side-table load per answer. The connection lives until its
        // handler answers (which it must, once); `complete` ignores answers after a close.
        handler.handle(request) { [self] response in
            if io.inContext {
                complete(sequence, response)
            } else {
                io.execute { [self] in complete(sequence, response) }
            }
        }
    }

    /// Answers the newest request (or a request that never got a head) with an error, then
    /// closes after a lingering read so the client sees the answer.
    private func refuse(_ response: HTTPResponse, replacingLast: Bool) {
        stopParsing = true
        lingerAfterFlush = true
        continueNeeded = false
        if replacingLast, let last = pending.last, last.response == nil {
            pending[pending.count - 1].response = response
            pending[pending.count - 1].closeAfter = true
            pending[pending.count - 1].awaitingBody = false
        } else {
            pending.append(Pending(context: ResponseContext(isHead: false, version: .http1_1, acceptsGzip: false),
                                   closeAfter: true, response: response, awaitingBody: false))
        }
        writeReadyResponses()
    }

    // MARK: Responses

    private func complete(_ sequence: Int, _ response: HTTPResponse) {
        let index = sequence - nextToWrite
        guard !closed, index >= 0, index < pending.count, pending[index].response == nil,
              !pending[index].awaitingBody else { return }
        // An answer from another queue arrives on its own; one given inside `processRequests`
        // shares that event's time.
        if processingDepth == 0 { tick() }
        if index == 0 {
            // Next in order (the usual case): serialised straight from the handler's value,
            // never stored in the queue (which would retain its headers and body).
            compactOutput()
            let first = pending.removeFirst()
            if write(response, context: first.context, closeAfter: first.closeAfter) {
                writeReadyResponses()
            } else {
                sendContinueIfDue()
            }
        } else {
            pending[index].response = response
            writeReadyResponses()
        }
        if processingDepth == 0 { flush() }
    }

    /// Serialises responses that are next in order.
    private func writeReadyResponses() {
        if !pending.isEmpty && pending[0].response != nil { compactOutput() }
        while !pending.isEmpty, pending[0].response != nil {
            // Moved out of the queue: the response is not copied (retained) on the way.
            let response = pending[0].response.take()!
            let first = pending.removeFirst()
            guard write(response, context: first.context, closeAfter: first.closeAfter) else { break }
        }
        sendContinueIfDue()
        // Reading resumes (if it may) in `flush`, once the unsent output is known.
    }

    /// Serialises the response that is next in order (already taken off `pending`); false
    /// when it closes the connection, so nothing after it is written.
    private func write(_ response: HTTPResponse, context: ResponseContext, closeAfter: Bool) -> Bool {
        nextToWrite += 1
        let close = closeAfter || (draining && pending.isEmpty)
        let start = out.count
        ResponseSerializer.serialize(response, context: context, close: close,
                                     configuration: configuration, memo: &headerMemo, into: &out)
        responseBytesEstimate = out.count - start
        if close {
            closeAfterFlush = true
            stopParsing = true
            pending.removeAll()
            return false
        }
        return true
    }

    /// Drops bytes already sent before more are appended, so `out` holds only unsent output
    /// (a client that reads slowly but steadily must not grow it without bound).
    private func compactOutput() {
        guard outOffset > 0 else { return }
        out.removeFirst(outOffset)
        outOffset = 0
    }

    // MARK: Writing

    private func flush() {
        guard !closed else { return }
        let hadOutput = outOffset < out.count
        while outOffset < out.count {
            let result = out.withUnsafeBytes { bytes in
                transmit(UnsafeRawBufferPointer(rebasing: bytes[outOffset...]))
            }
            switch result {
            case .bytes(let sent):
                outOffset += sent
                if sent > 0 { lastWriteProgress = now }
            case .wantWrite, .wantRead:
                armWrite()
                updateIntake()
                updateDeadline()
                return
            case .closed, .failed:
                closeNow()
                return
            }
        }
        // Kept only when small: hundreds of idle connections must not each hold a large answer's buffer.
        out.removeAll(keepingCapacity: out.capacity <= 16 * 1024)
        outOffset = 0
        if !readWaitsForWritable { disarmWrite() }
        if closeAfterFlush {
            if lingerAfterFlush && !peerClosed { startLingering() } else { closeNow() }
            return
        }
        // While the intake is paused the parser may still hold requests a half-closed peer sent.
        if (draining || (peerClosed && !intakePaused)) && pending.allSatisfy({ $0.awaitingBody }) {
            closeNow()
            return
        }
        if hadOutput && pending.isEmpty { lastActivity = now }
        updateIntake()
        updateDeadline()
    }

    func writable() {
        guard !closed else { return }
        tick()
        if let tls, !tls.handshakeDone {
            if continueHandshake(tls) { readable() }
            return
        }
        if readWaitsForWritable {
            readWaitsForWritable = false
            if outOffset >= out.count { disarmWrite() }
            readable()
        }
        flush()
    }

    private func armWrite() {
        guard !closed, !writeArmed else { return }
        writeArmed = true
        io.setWriteInterest(true)
    }

    private func disarmWrite() {
        guard !closed, writeArmed else { return }
        writeArmed = false
        io.setWriteInterest(false)
    }

    // MARK: Closing

    /// After an error: stop sending, keep reading and discarding for a while, then close,
    /// so the kernel does not reset the connection while the client still reads the answer.
    private func startLingering() {
        lingering = true
        tls?.shutdown()
        shutdown(fd, Int32(SHUT_WR))
        lingerDeadline = now + lingerTimeout
        resumeReading()
        updateDeadline()
    }

    private func discardInput() {
        let drained = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.readChunk) { buffer -> Bool in
            for _ in 0..<4 {
                let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { closeNow(); return true }
                if count < buffer.count { return true }
            }
            return false
        }
        if !drained { io.readStoppedEarly() }
    }

    private func closeNow() {
        guard !closed else { return }
        closed = true
        pending.removeAll()
        out = []
        headerMemo = HeaderLinesMemo()
        tls = nil // SSL_free before the descriptor closes
        io.close()
        onClose(self)
    }

    private func suspendReading() {
        guard !closed, !readSuspended else { return }
        readSuspended = true
        io.setReadInterest(false)
    }

    private func resumeReading() {
        guard !closed, readSuspended, !(peerClosed && !lingering) else { return }
        readSuspended = false
        io.setReadInterest(true)
        if let tls, tls.pendingBytes > 0 {
            io.execute { [self] in if !closed && !readSuspended { readable() } }
        }
    }

    // MARK: Timeouts

    /// Picks the deadline for the current state. The timer is only rescheduled when the
    /// deadline moves earlier; a later deadline is picked up when the timer fires.
    private func updateDeadline() {
        guard !closed else { return }
        let phase = parser.phase
        if phase != .head { headStartedAt = nil } else if headStartedAt == nil { headStartedAt = now }
        let handlersRunning = pending.contains { !$0.awaitingBody }
        var next: DispatchTime?
        if lingering {
            next = lingerDeadline
        } else if outOffset < out.count {
            next = lastWriteProgress + writeTimeout
        } else if handlersRunning || stopParsing {
            next = nil
        } else {
            switch phase {
            case .idle:
                next = servedAny ? lastActivity + idleTimeout : openedAt + headerTimeout
            case .head:
                next = (servedAny ? headStartedAt ?? now : openedAt) + headerTimeout
            case .body:
                next = (bodyStartedAt ?? now) + bodyTimeout
            case .failed:
                next = nil
            }
        }
        deadline = next
        if let next, armedDeadline == nil || next < armedDeadline! {
            armedDeadline = next
            io.schedule(deadline: next)
        }
    }

    func timerFired() {
        guard !closed else { return }
        tick()
        armedDeadline = nil
        // Bytes that reached the socket before the deadline but whose read event has not run
        // yet count as received: take them first, so the outcome does not depend on scheduling.
        if !lingering && !readSuspended && outOffset >= out.count {
            readable()
            if closed { return }
        }
        guard let deadline else { return }
        if now < deadline {
            armedDeadline = deadline
            io.schedule(deadline: deadline)
            return
        }
        if lingering || outOffset < out.count || parser.phase == .idle {
            closeNow()
            return
        }
        let status = parser.phase == .body ? "The request body" : "The request head"
        refuse(ResponseSerializer.errorResponse(status: 408, code: ResponseSerializer.errorCode(408),
                                                message: "\(status) did not arrive in time."),
               replacingLast: pending.last?.awaitingBody ?? false)
        flush()
    }
}
