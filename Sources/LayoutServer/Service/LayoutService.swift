import Dispatch
import HTTPServer
import LayoutWire
import Logging

/// The layout service as an `HTTPHandler`: routes, the cache, metrics and one log line per
/// request. Layout work runs on a global concurrent queue (one thread per core), never on the
/// connection's queue, so a large tree does not hold up the HTTP I/O of other requests.
public final class LayoutService: HTTPHandler, @unchecked Sendable {
    public let configuration: ServiceConfiguration
    public let cache: FrameCache
    public let metrics = ServiceMetrics()
    private let computer: LayoutComputer
    private let batch: BatchComputer
    private let logger: Logger
    private let work = DispatchQueue.global(qos: .userInitiated)
    /// Largest body computed on the connection's queue (-1: none).
    private let inlineLimit: Int
    /// Reads the number of open HTTP connections for `/metrics`; set once the server exists.
    private let connectionGauge = Protected<(@Sendable () -> Int)?>(nil)

    public init(configuration: ServiceConfiguration, logger: Logger? = nil) {
        self.configuration = configuration
        self.cache = FrameCache(capacityBytes: configuration.cacheBytes, shardCount: configuration.cacheShards)
        self.computer = LayoutComputer(cache: cache, limits: configuration.wire)
        self.batch = BatchComputer(computer: computer, maxItems: configuration.maxBatchItems)
        self.inlineLimit = configuration.http.eventLoopCount == 0 ? configuration.inlineComputeMaxBytes : -1
        var logger = logger ?? Logger(label: "layoutd")
        logger.logLevel = configuration.logLevel
        self.logger = logger
    }

    /// Tells `/metrics` how to read the open connection count.
    public func setConnectionGauge(_ gauge: @escaping @Sendable () -> Int) {
        connectionGauge.withLock { $0 = gauge }
    }

    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let started = DispatchTime.now().uptimeNanoseconds
        let route = Route(path: request.path)
        let label = route?.label ?? .other
        let finish: @Sendable (HTTPResponse, LayoutComputer.CacheOutcome?) -> Void = { [self] response, cache in
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            metrics.record(route: label, status: response.status, seconds: seconds)
            log(request, response, cache: cache, seconds: seconds)
            respond(response)
        }

        guard let route else {
            finish(ServiceError.notFound(path: request.path), nil)
            return
        }
        guard route.methods.contains(request.method) else {
            finish(ServiceError.methodNotAllowed(method: request.method, allowed: route.methods), nil)
            return
        }
        switch route {
        case .compute, .computeBatch:
            guard Self.isJSON(request.headers["Content-Type"]) else {
                finish(ServiceError.unsupportedMediaType(request.headers["Content-Type"]), nil)
                return
            }
            let compute: @Sendable () -> Void = { [self] in
                if route == .compute {
                    let answer = computer.answer(body: request.body, ifNoneMatch: request.headers["If-None-Match"])
                    finish(Self.response(for: answer), answer.cache)
                } else {
                    let (status, body) = batch.answer(body: request.body)
                    finish(HTTPResponse(status: status, headers: Self.jsonHeaders, body: body), nil)
                }
            }
            // Small bodies are small trees: cheaper to lay out here than to hop threads. On a
            // concurrent connection queue this holds only this connection.
            if route == .compute && request.body.count <= inlineLimit {
                compute()
            } else {
                work.async(execute: compute)
            }
        case .healthz:
            finish(HTTPResponse(status: 200, headers: Self.jsonHeaders, body: Self.healthyBytes), nil)
        case .metrics:
            let text = PrometheusRenderer.render(.init(
                metrics: metrics, cache: cache.statistics, cacheCapacityBytes: cache.capacityBytes,
                openConnections: connectionGauge.withLock { $0?() } ?? 0))
            finish(HTTPResponse(status: 200, headers: ["Content-Type": PrometheusRenderer.contentType],
                                body: Array(text.utf8)), nil)
        case .openapi:
            finish(HTTPResponse(status: 200, headers: ["Content-Type": "application/yaml; charset=utf-8"],
                                body: Self.openapiBytes), nil)
        }
    }

    static let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json"]
    private static let openapiBytes = Array(OpenAPIDocument.yaml.utf8)
    private static let healthyBytes = Array(#"{"status":"ok"}"#.utf8)

    private static func response(for answer: LayoutComputer.Answer) -> HTTPResponse {
        var headers: HTTPHeaders = answer.status == 304 ? [:] : jsonHeaders
        if let tag = answer.entityTag { headers.add(name: "ETag", value: tag) }
        if let cache = answer.cache, cache != .notModified { headers.add(name: "X-Cache", value: cache.rawValue) }
        return HTTPResponse(status: answer.status, headers: headers, body: answer.body)
    }

    /// `application/json`, with or without parameters, in any letter case.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return mediaType.trimmingSpaces.lowercased() == "application/json"
    }

    private func log(_ request: HTTPRequest, _ response: HTTPResponse, cache: LayoutComputer.CacheOutcome?,
                     seconds: Double) {
        guard logger.logLevel <= .info else { return }
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
