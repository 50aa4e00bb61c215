import HTTPServer
import LayoutWire

/// The service's own refusals (routing and media type), in the wire's error format so clients
/// parse one shape for every error.
enum ServiceError {
    static func notFound(path: String) -> HTTPResponse {
        response(WireError(status: 404, code: "not-found", message: "no route for \(path)"))
    }

    static func methodNotAllowed(method: String, allowed: [String]) -> HTTPResponse {
        var response = response(WireError(status: 405, code: "method-not-allowed",
                                          message: "\(method) is not allowed here; use \(allowed.joined(separator: " or "))"))
        response.headers.add(name: "Allow", value: allowed.joined(separator: ", "))
        return response
    }

    static func unsupportedMediaType(_ contentType: String?) -> HTTPResponse {
        let given = contentType.map { "not \($0)" } ?? "and none was given"
        return response(WireError(status: 415, code: "unsupported-media-type",
                                  message: "the body must be application/json, \(given)"))
    }

    /// Seconds a client is told to wait (`Retry-After`) after a 503 `overloaded`: about how
    /// long a full compute budget takes to drain on a couple of cores.
    static let overloadedRetryAfterSeconds = 1

    /// 503: the compute budget (`--max-pending-compute-bytes`) is full; nothing was computed.
    static func overloaded(pendingLimitBytes: Int) -> HTTPResponse {
        var response = response(WireError(status: 503, code: "overloaded",
                                          message: "layout work pending exceeds \(pendingLimitBytes) bytes of request bodies; retry later",
                                          pointer: ""))
        response.headers.add(name: "Retry-After", value: String(overloadedRetryAfterSeconds))
        return response
    }

    static func response(_ error: WireError) -> HTTPResponse {
        HTTPResponse(status: error.status, headers: LayoutService.jsonHeaders, body: error.jsonBytes())
    }
}
