import Dispatch

/// The moments a connection's deadlines are measured from, and its timeouts.
struct ConnectionTimers {
    /// The time of the event being handled, read once when a socket event, timer or answer
    /// arrives (`tick()`) instead of at every step of it: a clock read is not free.
    var now = DispatchTime.now()
    let openedAt = DispatchTime.now()
    var lastActivity = DispatchTime.now()
    var headStartedAt: DispatchTime?
    var bodyStartedAt: DispatchTime?
    var lastWriteProgress = DispatchTime.now()
    var lingerDeadline = DispatchTime.now()
    /// The deadline for the current state; nil when none applies.
    var deadline: DispatchTime?
    /// The deadline the I/O backend's timer is set for.
    var armedDeadline: DispatchTime?
    let idleTimeout: DispatchTimeInterval
    let headerTimeout: DispatchTimeInterval
    let bodyTimeout: DispatchTimeInterval
    let writeTimeout: DispatchTimeInterval
    let lingerTimeout: DispatchTimeInterval

    init(_ configuration: HTTPServerConfiguration) {
        idleTimeout = .nanoseconds(Int(configuration.idleTimeout.nanoseconds))
        headerTimeout = .nanoseconds(Int(configuration.headerTimeout.nanoseconds))
        bodyTimeout = .nanoseconds(Int(configuration.bodyTimeout.nanoseconds))
        writeTimeout = .nanoseconds(Int(configuration.writeTimeout.nanoseconds))
        lingerTimeout = .nanoseconds(Int(configuration.lingerTimeout.nanoseconds))
    }

    @inline(__always)
    mutating func tick() { now = .now() }
}

/// One deadline per state: header, body, idle, write progress, linger.
extension Connection {
    /// Picks the deadline for the current state. The timer is only rescheduled when the
    /// deadline moves earlier; a later deadline is picked up when the timer fires.
    func updateDeadline() {
        guard !state.isClosed else { return }
        let phase = parser.phase
        let handlersRunning = pending.contains { !$0.awaitingBody }
        var next = timers.nextDeadline(phase: phase, state: state, outputUnsent: output.hasUnsent,
                                       handlersRunning: handlersRunning, servedAny: servedAny)
        if let wake = budgetWake() { next = next.map { min($0, wake) } ?? wake }
        if let next, timers.armedDeadline == nil || next < timers.armedDeadline! {
            timers.armedDeadline = next
            io.schedule(deadline: next)
        }
    }

    func timerFired() {
        guard !state.isClosed else { return }
        timers.tick()
        timers.armedDeadline = nil
        if applyBudget() { return }
        // Bytes that reached the socket before the deadline but whose read event has not run
        // yet count as received: take them first, so the outcome does not depend on scheduling.
        if !state.isLingering && !readSuspended && !output.hasUnsent {
            readable()
            if state.isClosed { return }
        }
        guard let deadline = timers.deadline, timers.now >= deadline else {
            updateDeadline() // the state's deadline, or the budget's next look
            return
        }
        if state.isLingering || output.hasUnsent || parser.phase == .idle {
            closeNow()
            return
        }
        let part = parser.phase == .body ? "The request body" : "The request head"
        refuse(status: 408, message: "\(part) did not arrive in time.",
               replacingLast: pending.last?.awaitingBody ?? false)
        flush()
    }
}

extension ConnectionTimers {
    /// Sets and returns the deadline for the connection's state: linger, then write progress
    /// while output waits, none while handlers run or no more requests are taken, else the
    /// header, body or idle timeout for the parser's phase.
    mutating func nextDeadline(phase: RequestParser.Phase, state: ConnectionState, outputUnsent: Bool,
                               handlersRunning: Bool, servedAny: Bool) -> DispatchTime? {
        if phase != .head { headStartedAt = nil } else if headStartedAt == nil { headStartedAt = now }
        var next: DispatchTime?
        if state.isLingering {
            next = lingerDeadline
        } else if outputUnsent {
            next = lastWriteProgress + writeTimeout
        } else if handlersRunning || !state.acceptsRequests {
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
        return next
    }
}
