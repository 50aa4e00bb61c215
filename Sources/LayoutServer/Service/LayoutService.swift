import Dispatch
import HTTPServer
import LayoutText
import LayoutRender
import LayoutWire
import Logging
import SyncSupport

/// The layout service as an `HTTPHandler`: a route table (one handler per route, in Routes/)
/// with the metrics and the request log wrapped around every handler as middleware.
///
/// Adding a route is a path in `RouteLabel`, an entry in `routes` below and a handler file.
public final class LayoutService: HTTPHandler, Sendable {
    public let configuration: ServiceConfiguration
    public let cache: FrameCache
    /// Whole `/compute` answers by exact request body, checked before decoding.
    public let answers: AnswerCache
    public let metrics = ServiceMetrics()
    /// Earlier `/compute` requests by ETag, for `/compute/patch`.
    let bases: BaseStore
    /// The second cache level in Redis, shared by every replica; nil when not configured.
    public let sharedCache: SharedFrameCache?
    /// Set by `startDraining()`: `/readyz` then answers 503.
    private let draining = Locked(false)
    /// The budget of layout work on the compute queue; over it, 503 `overloaded`.
    public var admission: ComputeAdmission { queue.admission }
    /// The budget of memory held by large layouts running; beyond it they wait their turn.
    public var computeMemory: ComputeMemoryBudget<@Sendable () -> Void> { queue.memory }
    private let queue: ComputeQueue
    private let routes: RouteTable
    /// Around every handler, in order: metrics, then the request log.
    private let middleware: [any ServiceMiddleware]
    /// Reads the number of open HTTP connections for `/metrics`; set once the server exists.
    private let connectionGauge = Locked<(@Sendable () -> Int)?>(nil)
    /// Reads the HTTP layer's buffered-bytes figures for `/metrics`; set once the server exists.
    private let bufferGauge = Locked<(@Sendable () -> HTTPServer.BufferStatistics)?>(nil)
    /// Fonts, shaping and line layout of text leaves; `GET /fonts` lists its fonts.
    public let textLayouter: TextLayouter

    public convenience init(configuration: ServiceConfiguration, logger: Logger? = nil) {
        self.init(configuration: configuration, logger: logger, computeGate: nil)
    }

    /// `computeGate` runs on the compute queue before each admitted computation: tests pass one
    /// to hold work and fill the budget; nil in service.
    init(configuration: ServiceConfiguration, logger: Logger?, computeGate: (@Sendable () -> Void)?) {
        self.configuration = configuration
        let cache = FrameCache(capacityBytes: configuration.cacheBytes, shardCount: configuration.cacheShards)
        let answers = AnswerCache(capacityBytes: configuration.answerCacheBytes, shardCount: configuration.cacheShards)
        // A large layout's scratch goes back to the system once it is done (unless trimming is off).
        let releaseMemory: (@Sendable () -> Void)? = configuration.mallocTrimInterval > .zero
            ? { @Sendable in _ = MallocTuning.releaseFreeMemory() } : nil
        let queue = ComputeQueue(admission: ComputeAdmission(limitBytes: configuration.maxPendingComputeBytes),
                                 memory: ComputeMemoryBudget(limitBytes: configuration.maxComputeMemoryBytes),
                                 gate: computeGate, afterLargeJob: releaseMemory)
        var logger = logger ?? Logger(label: "layoutd")
        logger.logLevel = configuration.logLevel
        let textLayouter = Self.makeTextLayouter(configuration, logger: logger)
        let sharedCache = SharedFrameCache(configuration: configuration.sharedCache)
        var computer = LayoutComputer(cache: cache, limits: configuration.wire, shared: sharedCache)
        computer.subtrees = configuration.subtreeCacheBytes > 0
            ? SubtreeCache(capacityBytes: configuration.subtreeCacheBytes, shardCount: configuration.cacheShards) : nil
        self.sharedCache = sharedCache
        computer.textLayouter = textLayouter
        computer.hashKey = configuration.cacheKeySecret ?? .processRandom
        computer.keepsComputedTrees = configuration.patchKeepsComputedTrees
        // `/compute` answers are kept for patches (batch items are not: they have no ETag).
        let bases = BaseStore(configuration: configuration)
        self.bases = bases
        var keeping = computer
        if bases.isEnabled { keeping.bases = bases }
        self.textLayouter = textLayouter
        self.cache = cache
        self.answers = answers
        self.queue = queue
        middleware = [MetricsMiddleware(metrics: metrics), RequestLogMiddleware(logger: logger)]

        let pictures = RenderCache(capacityBytes: configuration.renderCacheBytes, shardCount: configuration.cacheShards)
        let metrics = metrics, connectionGauge = connectionGauge, bufferGauge = bufferGauge
        routes = RouteTable([
            Route(.compute, .post, ComputeRoute(
                answers: answers, computer: keeping, queue: queue,
                // On an event loop nothing is laid out inline: a handler must not hold the loop.
                // Nor with a shared cache: its lookups wait on Redis, which belongs on the compute queue.
                inlineLimit: configuration.http.ioBackend == .dispatchSources && sharedCache == nil
                    ? configuration.inlineComputeMaxBytes : -1)),
            Route(.computeBatch, .post, BatchRoute(
                batch: BatchComputer(computer: computer, maxItems: configuration.maxBatchItems), queue: queue)),
            Route(.computePatch, .post, PatchRoute(
                computer: PatchComputer(computer: keeping, bases: bases, limits: configuration.wire,
                                        maxOperations: configuration.maxPatchOperations,
                                        maxBodyBytes: configuration.maxPatchBytes),
                queue: queue, inlineMaxBytes: configuration.inlineComputeMaxBytes,
                inlineMaxNodes: configuration.inlinePatchMaxNodes)),
            Route(.render, .post, RenderRoute(
                computer: RenderComputer(cache: pictures, limits: configuration.wire,
                                         renderLimits: RenderLimits(maxPixels: configuration.maxRenderPixels),
                                         textLayouter: textLayouter,
                                         hashKey: configuration.cacheKeySecret ?? .processRandom),
                queue: queue)),
            Route(.healthz, .get, StaticRoute.health),
            Route(.readyz, .get, ReadinessRoute(draining: draining)),
            Route(.metrics, .get, MetricsRoute {
                var inputs = PrometheusRenderer.Inputs(
                    metrics: metrics, cache: cache.statistics, cacheCapacityBytes: cache.capacityBytes,
                    answerCache: answers.statistics, answerCacheCapacityBytes: answers.capacityBytes,
                    renderCache: pictures.statistics, renderCacheCapacityBytes: pictures.capacityBytes,
                    admission: queue.admission.statistics, admissionLimitBytes: queue.admission.limitBytes,
                    openConnections: connectionGauge.withLock { $0?() } ?? 0,
                    sharedCache: sharedCache?.statistics)
                inputs.shapeCache = textLayouter.shapeCacheStatistics
                inputs.patchBases = bases.statistics
                inputs.patchBasesCapacityBytes = bases.capacityBytes
                inputs.buffers = bufferGauge.withLock { $0?() } ?? .init()
                inputs.computeMemory = queue.memory.statistics
                inputs.computeMemoryLimitBytes = queue.memory.limitBytes
                inputs.malloc = MallocStatistics.current()
                inputs.treePool = TreeStoragePool.shared.statistics
                return inputs
            }),
            Route(.openapi, .get, StaticRoute.openAPI),
            Route(.fonts, .get, StaticRoute.fonts(textLayouter.fonts)),
            Route(.playground, .get, PlaygroundRoute.embedded),
            Route(.playgroundFiles, .get, PlaygroundRoute.embedded),
        ])
    }

    /// Makes `/readyz` answer 503 from now on (requests are still served).
    public func startDraining() {
        draining.withLock { $0 = true }
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

    /// Tells `/metrics` how to read the HTTP layer's buffered-bytes figures.
    public func setBufferGauge(_ gauge: @escaping @Sendable () -> HTTPServer.BufferStatistics) {
        bufferGauge.withLock { $0 = gauge }
    }

    /// Finds the route, refuses unknown paths and methods, and hands the request to the route's
    /// handler with the middleware around it.
    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let route = routes.route(for: request.path)
        let context = RequestContext(route: route?.label ?? .other, started: DispatchTime.now().uptimeNanoseconds)
        let responder = Responder(request: request, context: context, middleware: middleware, respond: respond)
        for index in middleware.indices {
            if let response = middleware[index].received(request, context: context) { return responder(response) }
        }
        guard let route else {
            return responder(ServiceError.notFound(path: request.path).response())
        }
        guard route.methods.accepts(request.method) else {
            return responder(ServiceError.methodNotAllowed(method: request.method, allowed: route.methods.names))
        }
        route.handler.handle(request, responder: responder)
    }
}
