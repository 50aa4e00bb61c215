import HTTPServer
import Logging

/// One log line per request, at `info`.
struct RequestLogMiddleware: ServiceMiddleware {
    let logger: Logger
    /// Whether a line per request is logged: read once, so a request filtered out by the level
    /// never touches the logger (its handler is an existential; reading it costs a copy).
    private let logsRequests: Bool

    init(logger: Logger) {
        self.logger = logger
        self.logsRequests = logger.logLevel <= .info
    }

    func answered(_ request: HTTPRequest, context: RequestContext, response: HTTPResponse,
                  cache: LayoutComputer.CacheOutcome?, seconds: Double) {
        guard logsRequests else { return }
        var metadata: Logger.Metadata = [
            "method": "\(request.method)",
            "path": "\(request.path)",
            "status": "\(response.status)",
            "bytes": "\(response.body.count)",
            "duration_ms": "\(Double(Int(seconds * 1_000_000)) / 1000)",
        ]
        if let cache { metadata["cache"] = "\(cache.rawValue)" }
        if let remote = request.remoteAddress { metadata["remote"] = "\(remote)" }
        logger.info("request", metadata: metadata)
    }
}
