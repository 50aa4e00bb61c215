/// The service's paths and the methods each takes.
enum Route: Equatable {
    case compute, computeBatch, render, healthz, metrics, openapi

    /// The route of a request path (compared exactly, as sent), or nil for an unknown one.
    init?(path: String) {
        switch path {
        case "/compute": self = .compute
        case "/compute/batch": self = .computeBatch
        case "/render": self = .render
        case "/healthz": self = .healthz
        case "/metrics": self = .metrics
        case "/openapi.yaml": self = .openapi
        default: return nil
        }
    }

    var methods: [String] {
        switch self {
        case .compute, .computeBatch, .render: return ["POST"]
        case .healthz, .metrics, .openapi: return ["GET", "HEAD"]
        }
    }

    var label: RouteLabel {
        switch self {
        case .compute: return .compute
        case .computeBatch: return .computeBatch
        case .render: return .render
        case .healthz: return .healthz
        case .metrics: return .metrics
        case .openapi: return .openapi
        }
    }
}
