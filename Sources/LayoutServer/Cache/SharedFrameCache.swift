import Dispatch
import LayoutEngine
import SharedCache
import SyncSupport

/// The second level of the layout cache, shared by every replica: frames by structural hash in
/// Redis (`SharedFrameCodec`'s format), behind `RedisPool`'s timeouts and circuit breaker.
///
/// Lookups block the calling thread for at most about two timeouts, so they run where layout
/// work runs (the compute queue), never on an event loop. Stores go to a bounded background
/// queue and never delay an answer; when the queue is full they are dropped and counted.
/// Nothing here throws: every failure is a miss, counted.
public final class SharedFrameCache: Sendable {
    /// Counters since start, and the breaker's state now.
    public struct Statistics: Sendable {
        public var hits = 0
        public var misses = 0
        /// Calls that failed other than by timing out (refused, reset, server errors).
        public var errors = 0
        public var timeouts = 0
        /// Values read but not used: wrong format version, truncated, foreign, corrupted.
        public var invalid = 0
        /// Lookups and stores not attempted: the breaker was open or every connection busy.
        public var skipped = 0
        public var writes = 0
        /// Stores dropped because the write queue was full.
        public var writesDropped = 0
        public var breakerState = CircuitBreaker.State.closed
        public var breakerOpened = 0
        /// Time of each lookup that reached Redis (hit, miss or failure).
        var lookupSeconds = ServiceMetrics.Histogram(bounds: SharedFrameCache.latencyBuckets)

        public init() {}
    }

    /// Bounds of the lookup latency histogram, in seconds: loopback Redis answers in tens of
    /// microseconds, a timeout takes milliseconds.
    static let latencyBuckets: [Double] = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1]

    public let configuration: SharedCacheConfiguration
    let pool: RedisPool
    private let writer = DispatchQueue(label: "layoutd.shared-cache.writes")
    private let counters = Locked(Statistics())
    /// Stores queued on `writer` and not yet done.
    private let pendingWrites = Locked(0)

    /// A shared cache at `configuration.url`; nil when it is empty (off) or not a redis:// URL
    /// (the settings refuse those before this is reached).
    public init?(configuration: SharedCacheConfiguration) {
        guard let endpoint = RedisEndpoint(url: configuration.url) else { return nil }
        self.configuration = configuration
        pool = RedisPool(endpoint: endpoint, size: configuration.poolSize, timeout: configuration.timeout,
                         backoff: configuration.backoff)
    }

    /// The frames stored under `key`, which must be `frameCount` (the tree's nodes, and its text
    /// leaves' content boxes when the answer has lines), or nil (a miss, a failure, an invalid
    /// value, or Redis not called). Blocks for at most about two timeouts.
    func lookup(_ key: StructuralHash, frameCount: Int) -> [Frame]? {
        let started = DispatchTime.now().uptimeNanoseconds
        let outcome = pool.withConnection { connection throws(RedisError) in try connection.get(SharedFrameCodec.key(key)) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        var found: [Frame]?
        counters.withLock { counters in
            switch outcome {
            case .done(nil):
                counters.misses += 1
                counters.lookupSeconds.observe(seconds)
            case .done(let value?):
                counters.lookupSeconds.observe(seconds)
                // A value of the right format for another tree size can only be foreign: not served.
                if case .success(let frames) = SharedFrameCodec.decode(value, for: key), frames.count == frameCount,
                   frames.allSatisfy({ $0.left.isFinite && $0.top.isFinite && $0.width.isFinite && $0.height.isFinite }) {
                    counters.hits += 1
                    found = frames
                } else {
                    counters.invalid += 1
                    counters.misses += 1
                }
            case .failed(let error):
                counters.lookupSeconds.observe(seconds)
                Self.count(error, in: &counters)
            case .breakerOpen, .poolBusy:
                counters.skipped += 1
            }
        }
        return found
    }

    /// Queues `frames` to be stored under `key` with the configured TTL; returns at once. Dropped
    /// (and counted) when `writeQueue` stores are already waiting.
    func store(_ frames: [Frame], for key: StructuralHash) {
        let admitted = pendingWrites.withLock { pending -> Bool in
            guard pending < configuration.writeQueue else { return false }
            pending += 1
            return true
        }
        guard admitted else {
            counters.withLock { $0.writesDropped += 1 }
            return
        }
        writer.async { [self] in
            let value = SharedFrameCodec.encode(frames, for: key)
            let outcome = pool.withConnection { connection throws(RedisError) in
                try connection.set(SharedFrameCodec.key(key), value, ttl: configuration.ttl)
            }
            pendingWrites.withLock { $0 -= 1 }
            counters.withLock { counters in
                switch outcome {
                case .done: counters.writes += 1
                case .failed(let error): Self.count(error, in: &counters)
                case .breakerOpen, .poolBusy: counters.skipped += 1
                }
            }
        }
    }

    /// Waits until every store queued so far is done (tests).
    func waitForWrites() {
        writer.sync {}
    }

    /// Where Redis is (the password hidden), for the start-up log.
    public var endpointDescription: String { pool.endpoint.description }

    public var statistics: Statistics {
        var snapshot = counters.withLock { $0 }
        snapshot.breakerState = pool.breaker.state
        snapshot.breakerOpened = pool.breaker.timesOpened
        return snapshot
    }

    private static func count(_ error: RedisError, in counters: inout Statistics) {
        if error == .timeout { counters.timeouts += 1 } else { counters.errors += 1 }
    }
}
