/// The routes the service counts requests under. Unknown paths share one label, so a scanner
/// cannot grow the metrics without bound.
public enum RouteLabel: String, Sendable, CaseIterable {
    case compute = "/compute"
    case computeBatch = "/compute/batch"
    case healthz = "/healthz"
    case metrics = "/metrics"
    case openapi = "/openapi.yaml"
    case other = "other"
}

/// Request counts by route and status, and a latency histogram by route. Recording takes one
/// short uncontended lock; rendering (rare) copies the numbers out under it.
public final class ServiceMetrics: @unchecked Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds.
    public static let latencyBuckets: [Double] = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    struct Histogram {
        var bucketCounts = [Int](repeating: 0, count: ServiceMetrics.latencyBuckets.count)
        var count = 0
        var sum = 0.0

        mutating func observe(_ seconds: Double) {
            count += 1
            sum += seconds
            // Non-cumulative here; the renderer accumulates. Values above the last bound only
            // count toward +Inf (count).
            if let bucket = ServiceMetrics.latencyBuckets.firstIndex(where: { seconds <= $0 }) {
                bucketCounts[bucket] += 1
            }
        }
    }

    struct Snapshot {
        var requests: [RouteLabel: [Int: Int]]
        var latency: [RouteLabel: Histogram]
    }

    private let lock = Mutex()
    private var requests: [RouteLabel: [Int: Int]] = [:]
    private var latency: [RouteLabel: Histogram] = [:]

    public init() {}

    /// Counts one answered request.
    public func record(route: RouteLabel, status: Int, seconds: Double) {
        lock.lock()
        requests[route, default: [:]][status, default: 0] += 1
        latency[route, default: Histogram()].observe(seconds)
        lock.unlock()
    }

    /// How many requests got `status` on `route` so far.
    public func requestCount(route: RouteLabel, status: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return requests[route]?[status] ?? 0
    }

    func snapshot() -> Snapshot {
        lock.lock()
        defer { lock.unlock() }
        return Snapshot(requests: requests, latency: latency)
    }
}
