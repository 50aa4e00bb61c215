import Dispatch

/// The connection's share of the server-wide bounds on buffered bytes (`BufferBudget`):
/// counting what it holds, pausing when a bound is passed, and closing when it is one of the
/// worst offenders.
extension Connection {
    /// Adds the change of what the connection holds to the server's totals. Called where the
    /// output or the parser changes (end of intake, end of a flush, close); costs nothing when
    /// nothing changed, as on a request whose answer went out at once.
    @inline(__always)
    func accountBuffers() {
        // The buffers' capacity while output waits: what they really occupy.
        var heldOutput = output.hasUnsent ? output.heldBytes : 0
        if state.isClosed {
            heldOutput = 0
        } else if !pending.isEmpty {
            // Running handlers' answers, as expected (`intakeFull` uses the same estimate).
            var running = 0
            for request in pending where request.response == nil && !request.awaitingBody { running += 1 }
            heldOutput += running * min(output.responseBytesEstimate, configuration.maxBufferedResponseBytes)
        }
        if heldOutput != accountedOutput {
            budget.addOutput(heldOutput - accountedOutput)
            accountedOutput = heldOutput
        }
        let heldInput = state.isClosed ? 0 : parser.bufferedByteCount
        if heldInput != accountedInput {
            if (heldInput == 0) != (accountedInput == 0) { budget.addInputHolder(heldInput == 0 ? -1 : 1) }
            budget.addInput(heldInput - accountedInput)
            accountedInput = heldInput
        }
    }

    /// The output bound leaves no room for this connection's next answer.
    var outputBudgetFull: Bool {
        !budget.admitsOutput(min(output.responseBytesEstimate, configuration.maxBufferedResponseBytes))
    }

    /// The input bound is passed and this connection holds part of a request: it reads no more.
    var inputBudgetFull: Bool {
        accountedInput > 0 && budget.inputOverBound
    }

    /// Marks reading as paused by a bound, or not (counted for the metrics and for the
    /// offender rule).
    func setBudgetPaused(_ paused: Bool) {
        if paused, budgetPausedSince == nil {
            budgetPausedSince = timers.now
            budget.pause()
        } else if !paused, budgetPausedSince != nil {
            budgetPausedSince = nil
            budget.unpause()
        }
    }

    /// Output waits on a full socket (`stalled`) or is all sent.
    func setOutputStalled(_ stalled: Bool) {
        guard stalled != countedStalled else { return }
        countedStalled = stalled
        budget.addStalled(stalled ? 1 : -1)
    }

    /// When the timer must fire for the budget: soon while paused (to look for room again),
    /// while output is stalled once the grace has passed, and while part of a request waits in
    /// the parser (to check whether it must make room); nil otherwise.
    func budgetWake() -> DispatchTime? {
        if budgetPausedSince != nil { return timers.now + BufferBudget.retryInterval }
        if accountedInput > 0 && !countedStalled { return timers.now + BufferBudget.stalledCheckInterval }
        guard countedStalled else { return nil }
        let graceEnds = timers.lastWriteProgress + BufferBudget.stallGrace
        return graceEnds > timers.now ? graceEnds : timers.now + BufferBudget.stalledCheckInterval
    }

    /// On the timer: closes the connection when it is one of the worst offenders (true), or
    /// looks for room again when paused.
    func applyBudget() -> Bool {
        let now = timers.now.uptimeNanoseconds
        if countedStalled {
            let stalledFor = now &- min(now, timers.lastWriteProgress.uptimeNanoseconds)
            if stalledFor >= BufferBudget.graceNanoseconds,
               budget.shouldCloseStalled(holding: accountedOutput, stalledFor: stalledFor) {
                closeForBudget()
                return true
            }
        }
        if let since = budgetPausedSince, inputBudgetFull {
            let pausedFor = now &- min(now, since.uptimeNanoseconds)
            if pausedFor >= BufferBudget.graceNanoseconds,
               budget.shouldCloseForInput(holding: accountedInput, pausedFor: pausedFor) {
                closeForBudget()
                return true
            }
        }
        guard budgetPausedSince != nil || accountedInput > 0 else { return false }
        // Look for room: take waiting requests and resume reading if the bounds allow.
        processRequests()
        return state.isClosed
    }

    func closeForBudget() {
        budget.countClose()
        closeNow()
    }
}
