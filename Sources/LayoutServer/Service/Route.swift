/// The service's paths and the methods each takes.
enum Route: Equatable {
    case compute, computeBatch, healthz, metrics, openapi, fonts

    /// The route of a request path (compared exactly, as sent), or nil for an unknown one.
    init?(path: String) {
        switch path {
        case "/compute": self = .compute
        case "/compute/batch": self = .computeBatch
        case "/healthz": self = .healthz
        case "/metrics": self = .metrics
        case "/openapi.yaml": self = .openapi
        case "/fonts": self = .fonts
        default: return nil
        }
    }

    var methods: [String] {
        switch self {
        case .compute, .computeBatch: return ["POST"]
        case .healthz, .metrics, .openapi, .fonts: return ["GET", "HEAD"]
        }
    }

    var label: RouteLabel {
        switch self {
        case .compute: return .compute
        case .computeBatch: return .computeBatch
        case .healthz: return .healthz
        case .metrics: return .metrics
        case .openapi: return .openapi
        case .fonts: return .fonts
        }
    }
}
