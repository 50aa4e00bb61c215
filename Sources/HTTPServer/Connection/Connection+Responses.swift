/// A request whose response has not been written yet, in request order.
struct PendingResponse {
    var context: ResponseContext
    var closeAfter: Bool
    var response: HTTPResponse?
    /// The head is in but the body is not: the handler has not been called yet.
    var awaitingBody: Bool
}

/// Serialised output not yet sent, and what serialising needs to remember.
///
/// The output is `queued`, then `bytes`; `offset` bytes of the first of them are sent. A large
/// body (`separateBodyBytes` and more) is queued as the handler's own array, not copied into
/// `bytes`: its head and earlier output go into the queue before it, and later output starts
/// `bytes` anew.
struct OutputBuffer {
    /// Bodies this large and larger are written from their own arrays.
    static let separateBodyBytes = 16 * 1024

    var bytes: [UInt8] = []
    /// Output ahead of `bytes`, in order: serialised bytes and large bodies.
    private var queued: [[UInt8]] = []
    /// The pieces' byte counts and capacities added up (kept, not summed per call: the totals
    /// are read on every request).
    private var queuedBytes = 0
    private var queuedCapacity = 0
    /// Bytes of the first piece (`queued[0]`, or `bytes` when nothing is queued) already sent.
    private var offset = 0
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

    var hasUnsent: Bool { queuedBytes > 0 || offset < bytes.count }

    var unsentCount: Int { queuedBytes + bytes.count - offset }

    /// What the unsent output occupies: the storage of every piece (sent bytes of the first are
    /// dropped only at the next append).
    var heldBytes: Int { queuedCapacity + bytes.capacity }

    /// Whether the unsent output is past `bound`, or would pass it with the answers of the
    /// `running` handlers and one more, at `responseBytesEstimate` each. One call: each read of
    /// the connection's `output` is an exclusivity check.
    func isFull(bound: Int, running: Int) -> Bool {
        let unsent = unsentCount
        if unsent > bound { return true }
        let (expected, overflow) = (running + 1).multipliedReportingOverflow(by: responseBytesEstimate)
        return running > 0 && (overflow || expected > bound - unsent)
    }

    mutating func append(_ more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    mutating func serialize(_ response: HTTPResponse, context: ResponseContext, close: Bool,
                            configuration: HTTPServerConfiguration) {
        let before = unsentCount
        if let body = ResponseSerializer.serialize(response, context: context, close: close, configuration: configuration,
                                                   memo: &headerMemo, into: &bytes,
                                                   separateBodyBytes: Self.separateBodyBytes) {
            enqueue(bytes)
            enqueue(body)
            bytes = []
        }
        responseBytesEstimate = unsentCount - before
    }

    private mutating func enqueue(_ piece: [UInt8]) {
        queued.append(piece)
        queuedBytes += piece.count
        queuedCapacity += piece.capacity
    }

    /// Hands the unsent output to `one` (when it is one piece) or `many` (up to `limit` pieces,
    /// in order), and drops what they report sent. One call per write: the connection's
    /// stored properties are checked for exclusive access per access.
    mutating func send(limit: Int, one: (UnsafeRawBufferPointer) -> TLSSession.Result,
                       many: ([UnsafeRawBufferPointer]) -> TLSSession.Result) -> TLSSession.Result {
        let result = queued.isEmpty
            ? bytes.withUnsafeBytes { [offset] in one(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            : withUnsentPieces(limit: limit, many)
        if case .bytes(let sent) = result { consume(sent) }
        return result
    }

    /// Calls `body` with the unsent output as up to `limit` pieces, in order.
    private func withUnsentPieces<R>(limit: Int, _ body: ([UnsafeRawBufferPointer]) -> R) -> R {
        var pieces: [UnsafeRawBufferPointer] = []
        pieces.reserveCapacity(min(limit, queued.count + 1))
        func collect(_ index: Int) -> R {
            let piece = index < queued.count ? queued[index] : bytes
            return piece.withUnsafeBytes { raw in
                let skipped = index == 0 ? offset : 0
                if raw.count > skipped { pieces.append(UnsafeRawBufferPointer(rebasing: raw[skipped...])) }
                return index < queued.count && pieces.count < limit ? collect(index + 1) : body(pieces)
            }
        }
        return collect(0)
    }

    /// `count` more bytes were sent: the pieces they finish are dropped.
    @inline(__always)
    private mutating func consume(_ count: Int) {
        if queued.isEmpty {
            offset += count
        } else {
            consumeQueued(count)
        }
    }

    private mutating func consumeQueued(_ count: Int) {
        var left = count
        while left > 0, !queued.isEmpty {
            let rest = queued[0].count - offset
            if left < rest {
                offset += left
                return
            }
            left -= rest
            let done = queued.removeFirst()
            queuedBytes -= done.count
            queuedCapacity -= done.capacity
            offset = 0
        }
        offset += left
    }

    /// Drops bytes already sent before more are appended, so the buffer holds only unsent
    /// output (a client that reads slowly but steadily must not grow it without bound).
    mutating func compact() {
        guard offset > 0, queued.isEmpty else { return }
        bytes.removeFirst(offset)
        offset = 0
    }

    /// Everything was sent. The storage is kept only up to `retainedBytes`: hundreds of idle
    /// connections must not each hold a large answer's buffer.
    mutating func sent(retainedBytes: Int) {
        queued.removeAll()
        queuedBytes = 0
        queuedCapacity = 0
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
            let result = output.send(limit: Self.writePieces, one: { transmit($0) }, many: { transmit(pieces: $0) })
            switch result {
            case .bytes(let sent):
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
