/// Taking requests from the parser while the pipeline and the output have room (backpressure),
/// 100 Continue, gzip request bodies, building the request for the handler, and refusals.
extension Connection {
    /// Takes complete requests from the parser while the pipeline has room.
    func processRequests() {
        processingDepth += 1
        intakePaused = false
        while state.acceptsRequests {
            if intakeFull { intakePaused = true; break }
            let next: RequestParserEvent?
            do {
                next = try parser.next()
            } catch {
                refuse(error, replacingLast: pending.last?.awaitingBody ?? false)
                break
            }
            // Events, heads and bodies are moved along, not copied (each copy retains every
            // string and array inside).
            guard let event = consume next else { break }
            switch consume event {
            case .head(let head):
                continueNeeded = head.expectsContinue
                timers.bodyStartedAt = timers.now
                pending.append(PendingResponse(
                    context: ResponseContext(isHead: head.method == "HEAD", version: head.version,
                                             acceptsGzip: head.headers["Accept-Encoding"].map(Gzip.accepts) ?? false),
                    closeAfter: !head.keepAlive, response: nil, awaitingBody: true))
                currentHead = consume head
            case .end(let body):
                guard let head = currentHead.take() else { break }
                continueNeeded = false
                pending[pending.count - 1].awaitingBody = false
                state.requestEndReceived(keepAlive: head.keepAlive)
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
    /// within the bound. Across connections, the server-wide output bound must have room for
    /// the next answer (`BufferBudget`).
    var intakeFull: Bool { connectionIntakeFull || outputBudgetFull }

    /// The pipeline or this connection's own output bound is full.
    var connectionIntakeFull: Bool {
        // A request whose head is in but whose body is not still gets its body read.
        let taken = pending.count - (pending.last?.awaitingBody == true ? 1 : 0)
        if taken >= configuration.maxPipelinedRequests { return true }
        var running = 0
        for request in pending where request.response == nil && !request.awaitingBody { running += 1 }
        return output.isFull(bound: configuration.maxBufferedResponseBytes, running: running)
    }

    /// Reads and takes requests only while the intake has room: a full intake, or a
    /// connection that will take no more requests, reads nothing more (the parser buffer stays
    /// bounded, and a client that does not read gets no more handler calls). Once both the
    /// pipeline and the unsent output are below their bounds, reading resumes and requests
    /// already in the parser are taken.
    func updateIntake() {
        guard !state.isClosed, !state.isLingering else { return }
        if !state.acceptsRequests || intakeFull {
            suspendReading()
            setBudgetPaused(state.acceptsRequests && !connectionIntakeFull)
            return
        }
        let inputFull = inputBudgetFull
        setBudgetPaused(inputFull)
        if peerClosed || inputFull { suspendReading() } else { resumeReading() }
        // `intakePaused` stays set until the requests are taken, so a half-closed peer is not
        // closed on in the meantime.
        if intakePaused && !intakeResumeScheduled && processingDepth == 0 {
            intakeResumeScheduled = true
            io.execute { [self] in
                intakeResumeScheduled = false
                if !state.isClosed { timers.tick(); processRequests(); updateDeadline() }
            }
        }
    }

    /// 100 Continue goes out only once every earlier response is written, and only while the
    /// body is still missing.
    func sendContinueIfDue() {
        guard continueNeeded, pending.count == 1, pending[0].awaitingBody, state.acceptsRequests else { return }
        continueNeeded = false
        output.append(ResponseSerializer.continueBytes)
    }

    /// Inflates a gzip body, builds the request and hands it to the handler.
    func dispatch(_ head: consuming RequestHead, body: consuming [UInt8], sequence: Int) {
        if head.contentEncoding == .gzip && !body.isEmpty {
            do {
                body = try Gzip.decompress(body, limit: configuration.maxInflatedBodyBytes)
            } catch .tooLarge {
                refuse(HTTPParseError(.inflatedBodyTooLarge,
                                      "The inflated body is larger than \(configuration.maxInflatedBodyBytes) bytes."),
                       replacingLast: true)
                return
            } catch {
                refuse(HTTPParseError(.invalidGzipBody, "The gzip body is corrupt."), replacingLast: true)
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

    func refuse(_ error: HTTPParseError, replacingLast: Bool) {
        refuse(status: error.status, message: error.message, replacingLast: replacingLast)
    }

    /// Answers the newest request (or a request that never got a head) with an error in the
    /// configured format, then closes after a lingering read so the client sees the answer.
    func refuse(status: Int, message: String, replacingLast: Bool) {
        let response = ResponseSerializer.errorResponse(status: status, message: message,
                                                        format: configuration.errorBody)
        state.refuse()
        continueNeeded = false
        if replacingLast, let last = pending.last, last.response == nil {
            pending[pending.count - 1].response = response
            pending[pending.count - 1].closeAfter = true
            pending[pending.count - 1].awaitingBody = false
        } else {
            pending.append(PendingResponse(context: ResponseContext(isHead: false, version: .http1_1, acceptsGzip: false),
                                           closeAfter: true, response: response, awaitingBody: false))
        }
        writeReadyResponses()
    }
}
