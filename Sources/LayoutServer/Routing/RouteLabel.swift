/// The service's routes by path, each path spelled here once. Requests are counted under these
/// in the metrics; unknown paths share `other`, so a scanner cannot grow the metrics without
/// bound.
public enum RouteLabel: String, Sendable, CaseIterable {
    case compute = "/compute"
    case computeBatch = "/compute/batch"
    case healthz = "/healthz"
    case metrics = "/metrics"
    case openapi = "/openapi.yaml"
    case fonts = "/fonts"
    case other = "other"

    /// The route of a request path (compared exactly, as sent), or nil for an unknown one.
    init?(path: String) {
        guard let label = RouteLabel(rawValue: path), label != .other else { return nil }
        self = label
    }
}
