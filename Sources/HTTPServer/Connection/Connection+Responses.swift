/// A request whose response has not been written yet, in request order.
struct PendingResponse {
    var context: ResponseContext
    var closeAfter: Bool
    var response: HTTPResponse?
    /// The head is in but the body is not: the handler has not been called yet.
    var awaitingBody: Bool
}

/// Serialised output not yet sent, and what serialising needs to remember.
struct OutputBuffer {
    var bytes: [UInt8] = []
    /// Bytes of `bytes` already sent.
    var offset = 0
    /// The header lines of the last response, reused when a handler sends the same list again.
    var headerMemo = HeaderLinesMemo()
    /// Bytes of the latest serialized response: what a request still in its handler is
    /// expected to add. Until one is known, one request's answer is assumed to take the whole
    /// output bound, so a new connection runs one handler at a time until it shows its
    /// answers are small.
    var responseBytesEstimate: Int

    init(responseBytesEstimate: Int) {
        self.responseBytesEstimate = responseBytesEstimate
    }

    var hasUnsent: Bool { offset < bytes.count }

    var unsentCount: Int { bytes.count - offset }

    mutating func append(_ more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    mutating func serialize(_ response: HTTPResponse, context: ResponseContext, close: Bool,
                            configuration: HTTPServerConfiguration) {
        let start = bytes.count
        ResponseSerializer.serialize(response, context: context, close: close,
                                     configuration: configuration, memo: &headerMemo, into: &bytes)
        responseBytesEstimate = bytes.count - start
    }

    /// Drops bytes already sent before more are appended, so the buffer holds only unsent
    /// output (a client that reads slowly but steadily must not grow it without bound).
    mutating func compact() {
        guard offset > 0 else { return }
        bytes.removeFirst(offset)
        offset = 0
    }

    /// Everything was sent. The storage is kept only up to `retainedBytes`: hundreds of idle
    /// connections must not each hold a large answer's buffer.
    mutating func sent(retainedBytes: Int) {
        bytes.removeAll(keepingCapacity: bytes.capacity <= retainedBytes)
        offset = 0
    }
}

/// Answers in request order (pipelining), serialisation and flushing.
extension Connection {
    /// A handler's answer for request `sequence`.
    func complete(_ sequence: Int, _ response: HTTPResponse) {
        let index = sequence - nextToWrite
        guard !state.isClosed, index >= 0, index < pending.count, pending[index].response == nil,
              !pending[index].awaitingBody else { return }
        // An answer from another queue arrives on its own; one given inside `processRequests`
        // shares that event's time.
        if processingDepth == 0 { timers.tick() }
        if index == 0 {
            // Next in order (the usual case): serialised straight from the handler's value,
            // never stored in the queue (which would retain its headers and body).
            output.compact()
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
    func writeReadyResponses() {
        if !pending.isEmpty && pending[0].response != nil { output.compact() }
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
    func write(_ response: HTTPResponse, context: ResponseContext, closeAfter: Bool) -> Bool {
        nextToWrite += 1
        let close = closeAfter || (state == .quiescing && pending.isEmpty)
        output.serialize(response, context: context, close: close, configuration: configuration)
        if close {
            state.finalResponseSerialized()
            pending.removeAll()
            return false
        }
        return true
    }

    /// Writes the output until it is sent or the socket is full, then moves the connection on:
    /// close (or linger) after its last answer, or take more requests.
    func flush() {
        guard !state.isClosed else { return }
        let hadOutput = output.hasUnsent
        while output.hasUnsent {
            let result = output.bytes.withUnsafeBytes { bytes in
                transmit(UnsafeRawBufferPointer(rebasing: bytes[output.offset...]))
            }
            switch result {
            case .bytes(let sent):
                output.offset += sent
                if sent > 0 { timers.lastWriteProgress = timers.now }
            case .wantWrite, .wantRead:
                armWrite()
                setOutputStalled(true)
                accountBuffers()
                updateIntake()
                updateDeadline()
                return
            case .closed, .failed:
                closeNow()
                return
            }
        }
        output.sent(retainedBytes: configuration.retainedBufferBytes)
        setOutputStalled(false)
        accountBuffers()
        if !readWaitsForWritable { disarmWrite() }
        switch state {
        case .closingAfterFlush(let linger):
            if linger && !peerClosed { startLingering() } else { closeNow() }
            return
        case .lingering:
            return
        default:
            break
        }
        // While the intake is paused the parser may still hold requests a half-closed peer sent.
        if (state == .quiescing || (peerClosed && !intakePaused)) && pending.allSatisfy({ $0.awaitingBody }) {
            closeNow()
            return
        }
        if hadOutput && pending.isEmpty { timers.lastActivity = timers.now }
        accountBuffers() // the parser may have changed since the output was sent
        updateIntake()
        updateDeadline()
    }
}
