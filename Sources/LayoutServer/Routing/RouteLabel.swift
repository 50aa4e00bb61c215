/// The service's routes by path, each path spelled here once. Requests are counted under these
/// in the metrics; unknown paths share `other`, so a scanner cannot grow the metrics without
/// bound.
public enum RouteLabel: String, Sendable, CaseIterable {
    case compute = "/compute"
    case computeBatch = "/compute/batch"
    case computePatch = "/compute/patch"
    case render = "/render"
    case healthz = "/healthz"
    case readyz = "/readyz"
    case metrics = "/metrics"
    case openapi = "/openapi.yaml"
    /// The playground page.
    case playground = "/"
    /// The playground page's files: every path under this prefix.
    case playgroundFiles = "/playground/"
    case fonts = "/fonts"
    case other = "other"

    /// The route of a request path (compared exactly, as sent; `/playground/` as a prefix), or
    /// nil for an unknown one.
    init?(path: String) {
        if let label = RouteLabel(rawValue: path), label != .other {
            self = label
        } else if path.hasPrefix(RouteLabel.playgroundFiles.rawValue) {
            self = .playgroundFiles
        } else {
            return nil
        }
    }
}
