import Dispatch
import HTTPServer
import LayoutText
import LayoutWire
import Logging
import SyncSupport

/// The layout service as an `HTTPHandler`: routes, the cache, metrics and one log line per
/// request. Layout work runs on a global concurrent queue (one thread per core), never on the
/// connection's queue, so a large tree does not hold up the HTTP I/O of other requests.
public final class LayoutService: HTTPHandler, @unchecked Sendable {
    public let configuration: ServiceConfiguration
    public let cache: FrameCache
    /// Whole `/compute` answers by exact request body, checked before decoding.
    public let answers: AnswerCache
    public let metrics = ServiceMetrics()
    /// The budget of layout work on the compute queue; over it, 503 `overloaded`.
    public let admission: ComputeAdmission
    /// Runs on the compute queue before each admitted computation; tests set it (before the
    /// first request) to hold work and fill the budget. nil in service.
    var computeGate: (@Sendable () -> Void)?
    private let computer: LayoutComputer
    /// Fonts, shaping and line layout of text leaves; `GET /fonts` lists its fonts.
    public let textLayouter: TextLayouter
    private let fontCatalog: [UInt8]
    private let batch: BatchComputer
    private let logger: Logger
    /// Whether a line per request is logged: read once, so a request filtered out by the level
    /// never touches the logger (its handler is an existential; reading it costs a copy).
    private let logsRequests: Bool
    private let work = DispatchQueue.global(qos: .userInitiated)
    /// Largest body computed on the connection's queue (-1: none).
    private let inlineLimit: Int
    /// Reads the number of open HTTP connections for `/metrics`; set once the server exists.
    private let connectionGauge = Locked<(@Sendable () -> Int)?>(nil)

    public init(configuration: ServiceConfiguration, logger: Logger? = nil) {
        self.configuration = configuration
        self.cache = FrameCache(capacityBytes: configuration.cacheBytes, shardCount: configuration.cacheShards)
        self.answers = AnswerCache(capacityBytes: configuration.answerCacheBytes, shardCount: configuration.cacheShards)
        var logger = logger ?? Logger(label: "layoutd")
        self.textLayouter = Self.makeTextLayouter(configuration, logger: logger)
        var computer = LayoutComputer(cache: cache, limits: configuration.wire)
        computer.textLayouter = textLayouter
        self.fontCatalog = FontCatalog.json(textLayouter.fonts)
        self.computer = computer
        self.batch = BatchComputer(computer: computer, maxItems: configuration.maxBatchItems)
        self.admission = ComputeAdmission(limitBytes: configuration.maxPendingComputeBytes)
        // On an event loop nothing is laid out inline: a handler must not hold the loop.
        self.inlineLimit = configuration.http.ioBackend == .dispatchSources ? configuration.inlineComputeMaxBytes : -1
        logger.logLevel = configuration.logLevel
        self.logger = logger
        self.logsRequests = logger.logLevel <= .info
    }

    /// The text layouter of `configuration`: the bundled fonts plus its font directories (the
    /// bundled ones alone, logged, if those fail to load).
    static func makeTextLayouter(_ configuration: ServiceConfiguration, logger: Logger) -> TextLayouter {
        if configuration.fontDirectories.isEmpty && configuration.shapeCacheEntries == ServiceConfiguration().shapeCacheEntries {
            return .bundled
        }
        do {
            let fonts = try FontLibrary(directories: configuration.fontDirectories)
            for skipped in fonts.skipped {
                logger.warning("font not loaded", metadata: ["path": "\(skipped.path)", "reason": "\(skipped.reason)"])
            }
            return TextLayouter(fonts: fonts, shapeCacheCapacity: configuration.shapeCacheEntries)
        } catch {
            logger.error("fonts not loaded; using the bundled fonts only", metadata: ["reason": "\(error)"])
            return TextLayouter(shapeCacheCapacity: configuration.shapeCacheEntries)
        }
    }

    /// Tells `/metrics` how to read the open connection count.
    public func setConnectionGauge(_ gauge: @escaping @Sendable () -> Int) {
        connectionGauge.withLock { $0 = gauge }
    }

    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let started = DispatchTime.now().uptimeNanoseconds
        let route = Route(path: request.path)
        let label = route?.label ?? .other
        // A local function, not a closure value: answers given here (the answer cache's fast
        // path, errors) allocate no closure context; only the compute hop captures it.
        @Sendable func finish(_ response: HTTPResponse, _ cache: LayoutComputer.CacheOutcome?) {
            complete(request, response, cache: cache, label: label, started: started, respond: respond)
        }

        guard let route else {
            finish(ServiceError.notFound(path: request.path), nil)
            return
        }
        guard route.accepts(method: request.method) else {
            finish(ServiceError.methodNotAllowed(method: request.method, allowed: route.methods), nil)
            return
        }
        switch route {
        case .compute, .computeBatch:
            guard Self.isJSON(request.headers["Content-Type"]) else {
                finish(ServiceError.unsupportedMediaType(request.headers["Content-Type"]), nil)
                return
            }
            if route == .computeBatch {
                let bytes = request.body.count
                runAdmitted(bytes, orElse: finish) { [self] in
                    let (status, body) = batch.answer(body: request.body)
                    admission.release(bytes: bytes)
                    finish(HTTPResponse(status: status, headers: Self.jsonHeaders, body: body), nil)
                }
                return
            }
            // An exact repeat of a body answered before: no decode, hash or encode.
            let answerKey = answers.isEnabled ? answers.key(for: request.body) : nil
            if let answerKey, let entry = answers.lookup(request.body, key: answerKey) {
                if let ifNoneMatch = request.headers["If-None-Match"],
                   EntityTag.matches(ifNoneMatch: ifNoneMatch, quoted: entry.entityTag) {
                    finish(HTTPResponse(status: 304, headers: entry.notModifiedHeaders), .notModified)
                } else {
                    finish(HTTPResponse(status: 200, headers: entry.okHeaders, body: entry.body), .hit)
                }
                return
            }
            // `admittedBytes`: the budget to give back (before answering, so a client that has its
            // answer finds the budget freed); nil when computed inline, outside the budget.
            let compute: @Sendable (_ admittedBytes: Int?) -> Void = { [self] admittedBytes in
                let answer = computer.answer(body: request.body, ifNoneMatch: request.headers["If-None-Match"])
                if let answerKey, answer.status == 200, let tag = answer.entityTag {
                    answers.insert(request.body, key: answerKey, answer: answer.body, entityTag: tag)
                }
                if let admittedBytes { admission.release(bytes: admittedBytes) }
                finish(Self.response(for: answer), answer.cache)
            }
            // Small bodies are small trees: cheaper to lay out here than to hop threads. On a
            // concurrent connection queue this holds only this connection.
            if request.body.count <= inlineLimit {
                compute(nil)
            } else {
                let bytes = request.body.count
                runAdmitted(bytes, orElse: finish) { compute(bytes) }
            }
        case .healthz:
            finish(HTTPResponse(status: 200, headers: Self.jsonHeaders, body: Self.healthyBytes), nil)
        case .metrics:
            var inputs = PrometheusRenderer.Inputs(
                metrics: metrics, cache: cache.statistics, cacheCapacityBytes: cache.capacityBytes,
                answerCache: answers.statistics, answerCacheCapacityBytes: answers.capacityBytes,
                admission: admission.statistics, admissionLimitBytes: admission.limitBytes,
                openConnections: connectionGauge.withLock { $0?() } ?? 0)
            inputs.shapeCache = textLayouter.shapeCacheStatistics
            let text = PrometheusRenderer.render(inputs)
            finish(HTTPResponse(status: 200, headers: ["Content-Type": PrometheusRenderer.contentType],
                                body: Array(text.utf8)), nil)
        case .openapi:
            finish(HTTPResponse(status: 200, headers: ["Content-Type": "application/yaml; charset=utf-8"],
                                body: Self.openapiBytes), nil)
        case .fonts:
            finish(HTTPResponse(status: 200, headers: Self.jsonHeaders, body: fontCatalog), nil)
        }
    }

    /// Runs `job` on the compute queue when the pending-work budget admits `bytes` (the job
    /// gives them back); otherwise answers 503 `overloaded` at once.
    private func runAdmitted(_ bytes: Int, orElse finish: (HTTPResponse, LayoutComputer.CacheOutcome?) -> Void,
                             _ job: @escaping @Sendable () -> Void) {
        guard admission.tryAdmit(bytes: bytes) else {
            finish(ServiceError.overloaded(pendingLimitBytes: admission.limitBytes), nil)
            return
        }
        work.async { [self] in
            computeGate?()
            job()
        }
    }

    static let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json"]
    private static let openapiBytes = Array(OpenAPIDocument.text.utf8)
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
        // Compared on the UTF-8 bytes in place: no substring, no copy per request.
        return contentType.utf8.withContiguousStorageIfAvailable(isJSON)
            ?? Array(contentType.utf8).withUnsafeBufferPointer(isJSON)
    }

    private static func isJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard end - start == jsonMediaType.count else { return false }
        for offset in 0..<jsonMediaType.count {
            let byte = bytes[start + offset]
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            if lower != jsonMediaType[offset] { return false }
        }
        return true
    }

    private static let jsonMediaType: [UInt8] = Array("application/json".utf8)

    private func complete(_ request: HTTPRequest, _ response: HTTPResponse, cache: LayoutComputer.CacheOutcome?,
                          label: RouteLabel, started: UInt64, respond: @Sendable (HTTPResponse) -> Void) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        metrics.record(route: label, status: response.status, seconds: seconds)
        log(request, response, cache: cache, seconds: seconds)
        respond(response)
    }

    private func log(_ request: HTTPRequest, _ response: HTTPResponse, cache: LayoutComputer.CacheOutcome?,
                     seconds: Double) {
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

private extension Route {
    /// `methods.contains(method)` without building the methods array on every request.
    func accepts(method: String) -> Bool {
        switch self {
        case .compute, .computeBatch: return method == "POST"
        case .healthz, .metrics, .openapi, .fonts: return method == "GET" || method == "HEAD"
        }
    }
}
