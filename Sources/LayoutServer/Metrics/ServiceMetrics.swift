import SyncSupport

/// Request counts by route and status, and a latency histogram by route. Recording takes one
/// short uncontended lock; rendering (rare) copies the numbers out under it.
public final class ServiceMetrics: Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds.
    public static let latencyBuckets: [Double] = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    struct Histogram: Sendable {
        /// Upper bounds of the buckets, in seconds.
        let bounds: [Double]
        var bucketCounts: [Int]
        var count = 0
        var sum = 0.0

        init(bounds: [Double] = ServiceMetrics.latencyBuckets) {
            self.bounds = bounds
            bucketCounts = [Int](repeating: 0, count: bounds.count)
        }

        mutating func observe(_ seconds: Double) {
            count += 1
            sum += seconds
            // Non-cumulative here; the renderer accumulates. Values above the last bound only
            // count toward +Inf (count).
            if let bucket = bounds.firstIndex(where: { seconds <= $0 }) {
                bucketCounts[bucket] += 1
            }
        }
    }

    struct Snapshot {
        var requests: [RouteLabel: [Int: Int]]
        var latency: [RouteLabel: Histogram]
    }

    /// Counts by route and status in flat tables indexed by route and status (statuses
    /// 0..<600; any other lands in `unusualStatuses`): no dictionary hashing per request.
    private struct Tables {
        var statusCounts = [Int](repeating: 0, count: RouteLabel.allCases.count * statusSlots)
        var unusualStatuses: [RouteLabel: [Int: Int]] = [:]
        var latency = [Histogram](repeating: Histogram(), count: RouteLabel.allCases.count)
    }

    private let tables = Locked(Tables())
    private static let statusSlots = 600

    public init() {}

    /// The row of `route` in the tables.
    @inline(__always)
    private static func index(_ route: RouteLabel) -> Int {
        switch route {
        case .compute: return 0
        case .computeBatch: return 1
        case .healthz: return 2
        case .metrics: return 3
        case .openapi: return 4
        case .other: return 5
        case .playground: return 6
        case .playgroundFiles: return 7
        case .fonts: return 8
        case .render: return 9
        case .readyz: return 10
        case .computePatch: return 11
        }
    }

    /// Counts one answered request.
    public func record(route: RouteLabel, status: Int, seconds: Double) {
        let row = Self.index(route)
        tables.withLock { tables in
            if status >= 0 && status < Self.statusSlots {
                tables.statusCounts[row * Self.statusSlots + status] += 1
            } else {
                tables.unusualStatuses[route, default: [:]][status, default: 0] += 1
            }
            tables.latency[row].observe(seconds)
        }
    }

    /// How many requests got `status` on `route` so far.
    public func requestCount(route: RouteLabel, status: Int) -> Int {
        tables.withLock { tables in
            if status >= 0 && status < Self.statusSlots { return tables.statusCounts[Self.index(route) * Self.statusSlots + status] }
            return tables.unusualStatuses[route]?[status] ?? 0
        }
    }

    /// Only routes that answered something appear.
    func snapshot() -> Snapshot {
        tables.withLock { tables in
            var requests = tables.unusualStatuses
            var byRoute: [RouteLabel: Histogram] = [:]
            for route in RouteLabel.allCases {
                let row = Self.index(route)
                for status in 0..<Self.statusSlots where tables.statusCounts[row * Self.statusSlots + status] > 0 {
                    requests[route, default: [:]][status] = tables.statusCounts[row * Self.statusSlots + status]
                }
                if tables.latency[row].count > 0 { byRoute[route] = tables.latency[row] }
            }
            return Snapshot(requests: requests, latency: byRoute)
        }
    }
}
