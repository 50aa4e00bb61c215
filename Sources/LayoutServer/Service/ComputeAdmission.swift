import SyncSupport

/// Bounds the layout work waiting for or running on the compute queue, counted in bytes of
/// request bodies. Body bytes stand for both what queued work costs (each waiting request holds
/// its body, and the node count a body decodes to grows with its size) and how long it takes to
/// lay out, so one budget bounds memory and queueing delay alike, whether the queue holds many
/// small trees or a few huge ones; a count would either refuse harmless bursts of small trees
/// or admit a handful of 8 MiB ones. Beyond the budget the service answers 503 with
/// `Retry-After` instead of queueing.
///
/// One request is always admitted when nothing is pending, so a body larger than the whole
/// budget (up to `max-body-bytes`) still gets an answer rather than a 503 forever.
public final class ComputeAdmission: @unchecked Sendable {
    /// Gauges and counters for `/metrics`.
    public struct Statistics: Sendable, Equatable {
        /// Body bytes of the requests admitted and not yet answered.
        public var pendingBytes = 0
        /// Requests admitted and not yet answered.
        public var pendingRequests = 0
        /// Requests refused because the budget was full.
        public var rejected = 0

        public init() {}
    }

    /// The most body bytes pending at once (see the type's note on a lone larger body).
    public let limitBytes: Int
    private let lock = Mutex()
    private var current = Statistics()

    public init(limitBytes: Int) {
        self.limitBytes = max(0, limitBytes)
    }

    /// Reserves `bytes` of the budget; false (counted as a rejection) when they do not fit.
    /// Every `true` must be paired with one `release(_:)` of the same bytes.
    public func tryAdmit(bytes: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if current.pendingRequests > 0, current.pendingBytes + bytes > limitBytes {
            current.rejected += 1
            return false
        }
        current.pendingBytes += bytes
        current.pendingRequests += 1
        return true
    }

    /// Returns `bytes` admitted by `tryAdmit(bytes:)` once its answer is ready.
    public func release(bytes: Int) {
        lock.lock()
        current.pendingBytes -= bytes
        current.pendingRequests -= 1
        lock.unlock()
    }

    /// A snapshot of the gauges and counters.
    public var statistics: Statistics {
        lock.lock()
        defer { lock.unlock() }
        return current
    }
}
