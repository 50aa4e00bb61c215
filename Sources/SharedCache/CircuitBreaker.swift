import SyncSupport

/// Stops calls to a failing dependency for a while, then lets one probe through.
///
/// Closed: calls pass; `failureThreshold` failures in a row open it. Open: calls are refused
/// until `backoff` has passed since it opened. Half-open: one call (the probe) passes, others
/// are refused; the probe's success closes the breaker, its failure opens it again.
public final class CircuitBreaker: Sendable {
    public enum State: Int, Sendable {
        case closed = 0, open = 1, halfOpen = 2
    }

    private struct Stored {
        var state = State.closed
        var consecutiveFailures = 0
        var openedAt: UInt64 = 0
        var probeInFlight = false
        var timesOpened = 0
    }

    public let failureThreshold: Int
    public let backoff: Duration
    /// Monotonic nanoseconds (DispatchTime's uptime in service; a fake clock in tests).
    private let now: @Sendable () -> UInt64
    private let stored = Locked(Stored())

    public init(failureThreshold: Int = 3, backoff: Duration, now: @escaping @Sendable () -> UInt64) {
        self.failureThreshold = max(1, failureThreshold)
        self.backoff = backoff
        self.now = now
    }

    /// Whether a call may go out now. In half-open state this claims the one probe: the caller
    /// must then report `succeeded()` or `failed()`.
    public func allowsCall() -> Bool {
        let backoffNanoseconds = UInt64(max(0, backoff.components.seconds)) * 1_000_000_000
            + UInt64(max(0, backoff.components.attoseconds)) / 1_000_000_000
        let time = now()
        return stored.withLock { stored in
            switch stored.state {
            case .closed:
                return true
            case .open:
                guard time &- stored.openedAt >= backoffNanoseconds else { return false }
                stored.state = .halfOpen
                stored.probeInFlight = true
                return true
            case .halfOpen:
                guard !stored.probeInFlight else { return false }
                stored.probeInFlight = true
                return true
            }
        }
    }

    /// The call went through: closes the breaker.
    public func succeeded() {
        stored.withLock { stored in
            stored.state = .closed
            stored.consecutiveFailures = 0
            stored.probeInFlight = false
        }
    }

    /// The call failed or timed out: counts toward opening, or reopens after a failed probe.
    public func failed() {
        let time = now()
        stored.withLock { stored in
            stored.consecutiveFailures += 1
            if stored.state == .halfOpen || (stored.state == .closed && stored.consecutiveFailures >= failureThreshold) {
                stored.state = .open
                stored.openedAt = time
                stored.timesOpened += 1
            }
            stored.probeInFlight = false
        }
    }

    public var state: State { stored.withLock { $0.state } }

    /// How many times the breaker has opened (a failed probe counts again).
    public var timesOpened: Int { stored.withLock { $0.timesOpened } }
}
