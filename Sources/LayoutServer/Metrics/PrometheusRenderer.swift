import HTTPServer
import LayoutWire

/// Writes the service's metrics in the Prometheus text exposition format, version 0.0.4.
public enum PrometheusRenderer {
    /// The Content-Type of the rendered text.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Everything the metrics page shows, gathered by the caller.
    public struct Inputs {
        public var metrics: ServiceMetrics
        public var cache: FrameCache.Statistics
        public var cacheCapacityBytes: Int
        public var answerCache: AnswerCache.Statistics
        public var answerCacheCapacityBytes: Int
        public var renderCache: RenderCache.Statistics
        public var renderCacheCapacityBytes: Int
        public var admission: ComputeAdmission.Statistics
        public var admissionLimitBytes: Int
        public var openConnections: Int
        /// The text shaping cache's lookups (see `TextLayouter.shapeCacheStatistics`).
        public var shapeCache: (hits: Int, misses: Int) = (0, 0)
        /// nil when no shared cache is configured.
        public var sharedCache: SharedFrameCache.Statistics?
        /// The trees kept for `/compute/patch` (see `BaseStore`).
        public var patchBases = CacheStatistics()
        public var patchBasesCapacityBytes = 0
        /// Bytes buffered across connections, and what the server-wide bounds did.
        public var buffers = HTTPServer.BufferStatistics()
        /// Large layouts running or waiting under the compute memory budget.
        public var computeMemory = ComputeMemoryStatistics()
        public var computeMemoryLimitBytes = 0
        /// malloc's heaps (nil where `malloc_info` is missing: the samples are then 0).
        public var malloc: MallocStatistics?
        /// The arrays of large trees kept for the next (`TreeStoragePool.shared`).
        public var treePool = TreeStoragePool.Statistics()

        public init(metrics: ServiceMetrics, cache: FrameCache.Statistics, cacheCapacityBytes: Int,
                    answerCache: AnswerCache.Statistics = .init(), answerCacheCapacityBytes: Int = 0,
                    renderCache: RenderCache.Statistics = .init(), renderCacheCapacityBytes: Int = 0,
                    admission: ComputeAdmission.Statistics = .init(), admissionLimitBytes: Int = 0,
                    openConnections: Int, sharedCache: SharedFrameCache.Statistics? = nil) {
            self.metrics = metrics
            self.cache = cache
            self.cacheCapacityBytes = cacheCapacityBytes
            self.answerCache = answerCache
            self.answerCacheCapacityBytes = answerCacheCapacityBytes
            self.renderCache = renderCache
            self.renderCacheCapacityBytes = renderCacheCapacityBytes
            self.admission = admission
            self.admissionLimitBytes = admissionLimitBytes
            self.openConnections = openConnections
            self.sharedCache = sharedCache
        }
    }

    public static func render(_ inputs: Inputs) -> String {
        let snapshot = inputs.metrics.snapshot()
        var out = ""
        out.reserveCapacity(4096)

        family(&out, "layoutd_http_requests_total", "counter", "HTTP requests answered, by route and status.")
        for route in RouteLabel.allCases {
            guard let byStatus = snapshot.requests[route] else { continue }
            for status in byStatus.keys.sorted() {
                out += "layoutd_http_requests_total{route=\"\(route.rawValue)\",status=\"\(status)\"} \(byStatus[status]!)\n"
            }
        }

        family(&out, "layoutd_http_request_duration_seconds", "histogram",
               "Time from a request reaching the service to its answer, by route.")
        for route in RouteLabel.allCases {
            guard let histogram = snapshot.latency[route] else { continue }
            histogramSamples(&out, "layoutd_http_request_duration_seconds", label: "route=\"\(route.rawValue)\",", histogram)
        }

        cacheSamples(&out, prefix: "layoutd_cache", name: "layout cache",
                     hitsHelp: "Layout cache lookups that found an entry.", evicted: "Entries", rejected: "Layouts",
                     inputs.cache, capacityBytes: inputs.cacheCapacityBytes)
        cacheSamples(&out, prefix: "layoutd_answer_cache", name: "answer cache",
                     hitsHelp: "/compute bodies answered whole from the answer cache (exact body match, before decoding).",
                     evicted: "Answers", rejected: "Answers", inputs.answerCache, capacityBytes: inputs.answerCacheCapacityBytes)
        cacheSamples(&out, prefix: "layoutd_render_cache", name: "render cache",
                     hitsHelp: "/render pictures answered from the render cache.", evicted: "Pictures", rejected: "Pictures",
                     inputs.renderCache, capacityBytes: inputs.renderCacheCapacityBytes)
        cacheSamples(&out, prefix: "layoutd_patch_bases", name: "patch base store",
                     hitsHelp: "Lookups of earlier trees (by ETag) that found one, for /compute/patch.", evicted: "Trees",
                     rejected: "Trees", inputs.patchBases, capacityBytes: inputs.patchBasesCapacityBytes)
        for scalar in scalars(inputs) {
            sample(&out, scalar.name, scalar.type, scalar.help, scalar.value)
        }
        family(&out, "layoutd_shared_cache_lookup_duration_seconds", "histogram",
               "Time of each shared cache lookup that called Redis (hit, miss or failure).")
        histogramSamples(&out, "layoutd_shared_cache_lookup_duration_seconds", label: "",
                         (inputs.sharedCache ?? SharedFrameCache.Statistics()).lookupSeconds)
        return out
    }

    /// A family of one unlabelled sample.
    private struct Scalar {
        let name: String
        let type: String
        let help: String
        let value: Int

        static func counter(_ name: String, _ help: String, _ value: Int) -> Scalar {
            Scalar(name: name, type: "counter", help: help, value: value)
        }

        static func gauge(_ name: String, _ help: String, _ value: Int) -> Scalar {
            Scalar(name: name, type: "gauge", help: help, value: value)
        }
    }

    /// Every single-sample family, in page order. The shared cache's show zeros when it is
    /// off, so dashboards need no special case.
    private static func scalars(_ inputs: Inputs) -> [Scalar] {
        let admission = inputs.admission, memory = inputs.computeMemory, buffers = inputs.buffers
        let shared = inputs.sharedCache ?? SharedFrameCache.Statistics()
        let malloc = inputs.malloc ?? MallocStatistics()
        return [
            .counter("layoutd_compute_rejected_total",
                     "Layout requests answered 503 overloaded: the pending compute budget was full.", admission.rejected),
            .gauge("layoutd_compute_pending_requests", "Layout requests queued or running on the compute queue.",
                   admission.pendingRequests),
            .gauge("layoutd_compute_pending_bytes", "Request body bytes of the layout work queued or running.",
                   admission.pendingBytes),
            .gauge("layoutd_compute_pending_limit_bytes", "The pending compute budget (max-pending-compute-bytes).",
                   inputs.admissionLimitBytes),
            .gauge("layoutd_compute_memory_bytes", "Estimated working memory of the large layouts running now.",
                   memory.runningBytes),
            .gauge("layoutd_compute_memory_limit_bytes", "The compute memory budget (max-compute-memory-bytes).",
                   inputs.computeMemoryLimitBytes),
            .gauge("layoutd_compute_memory_waiting_requests",
                   "Large layouts waiting for room in the compute memory budget.", memory.waitingJobs),
            .counter("layoutd_compute_memory_waits_total",
                     "Large layouts that waited for room in the compute memory budget.", memory.waitedTotal),
            .counter("layoutd_compute_memory_refused_total",
                     "Large layouts answered 503 overloaded: those waiting already filled the compute memory budget.",
                     memory.refusedTotal),
            .gauge("layoutd_open_connections", "HTTP connections open now.", inputs.openConnections),
            .counter("layoutd_text_shape_cache_hits_total",
                     "Words of text leaves whose shapes came from the shaping cache.", inputs.shapeCache.hits),
            .counter("layoutd_text_shape_cache_misses_total",
                     "Words of text leaves shaped with HarfBuzz (not in the shaping cache).", inputs.shapeCache.misses),
            .counter("layoutd_shared_cache_hits_total", "Layouts found in the shared cache (Redis).", shared.hits),
            .counter("layoutd_shared_cache_misses_total",
                     "Shared cache lookups that found nothing usable (invalid values included).", shared.misses),
            .counter("layoutd_shared_cache_errors_total",
                     "Shared cache calls that failed (refused, reset, server error), timeouts apart.", shared.errors),
            .counter("layoutd_shared_cache_timeouts_total",
                     "Shared cache calls that took longer than shared-cache-timeout.", shared.timeouts),
            .counter("layoutd_shared_cache_invalid_total",
                     "Shared cache values ignored: wrong format version, truncated, foreign or corrupted.", shared.invalid),
            .counter("layoutd_shared_cache_skipped_total",
                     "Shared cache lookups and stores not attempted: breaker open or every connection busy.", shared.skipped),
            .counter("layoutd_shared_cache_writes_total", "Layouts stored in the shared cache.", shared.writes),
            .counter("layoutd_shared_cache_writes_dropped_total",
                     "Stores dropped because the background write queue was full.", shared.writesDropped),
            .gauge("layoutd_shared_cache_breaker_state",
                   "The shared cache's circuit breaker: 0 closed (calling Redis), 1 open (not calling), 2 half-open (probing).",
                   shared.breakerState.rawValue),
            .counter("layoutd_shared_cache_breaker_opened_total", "Times the circuit breaker opened.",
                     shared.breakerOpened),
            .gauge("layoutd_buffered_output_bytes",
                   "Unsent response bytes across connections, with the answers of running handlers as expected.",
                   buffers.outputBytes),
            .gauge("layoutd_buffered_output_limit_bytes",
                   "The server-wide output bound (max-buffered-output-bytes-total).", buffers.outputBoundBytes),
            .gauge("layoutd_buffered_input_bytes", "Received bytes not yet taken as requests, across connections.",
                   buffers.inputBytes),
            .gauge("layoutd_buffered_input_limit_bytes",
                   "The server-wide input bound (max-buffered-input-bytes-total).", buffers.inputBoundBytes),
            .gauge("layoutd_buffer_paused_connections",
                   "Connections whose reading is paused by a server-wide buffer bound now.", buffers.pausedConnections),
            .counter("layoutd_buffer_pauses_total",
                     "Times a connection's reading was paused by a server-wide buffer bound.", buffers.pausedTotal),
            .counter("layoutd_buffer_closed_connections_total",
                     "Connections closed as the worst offenders against a server-wide buffer bound.", buffers.closedTotal),
            .gauge("layoutd_tree_pool_bytes",
                   "Bytes of node arrays of large trees kept for the next large trees (tree-pool-bytes).",
                   inputs.treePool.bytes),
            .counter("layoutd_tree_pool_reuses_total", "Large trees built in node arrays an earlier tree gave back.",
                     inputs.treePool.reuses),
            .counter("layoutd_tree_pool_misses_total",
                     "Large trees built in fresh node arrays (none kept had the room, or too much).", inputs.treePool.misses),
            // malloc's heaps: with RSS, they tell live data from fragmentation.
            .gauge("layoutd_malloc_arenas", "malloc arenas in use (the main heap included).", malloc.arenas),
            .gauge("layoutd_malloc_heap_bytes", "Bytes malloc's arenas hold from the system, without mmapped blocks.",
                   malloc.heapBytes),
            .gauge("layoutd_malloc_in_use_bytes",
                   "Bytes of the arenas' heaps held by the program (per-thread caches included).", malloc.inUseBytes),
            .gauge("layoutd_malloc_free_bytes", "Free bytes inside the arenas' heaps (resident or not).", malloc.freeBytes),
            .gauge("layoutd_malloc_mmapped_bytes", "Bytes of blocks malloc mmapped one by one.", malloc.mmappedBytes),
        ]
    }

    /// A histogram's cumulative buckets, sum and count; `label` is empty or ends in a comma.
    private static func histogramSamples(_ out: inout String, _ name: String, label: String,
                                         _ histogram: ServiceMetrics.Histogram) {
        var cumulative = 0
        for (bound, count) in zip(histogram.bounds, histogram.bucketCounts) {
            cumulative += count
            out += "\(name)_bucket{\(label)le=\"\(format(bound))\"} \(cumulative)\n"
        }
        let plain = label.isEmpty ? "" : "{\(label.dropLast())}"
        out += "\(name)_bucket{\(label)le=\"+Inf\"} \(histogram.count)\n"
        out += "\(name)_sum\(plain) \(format(histogram.sum))\n"
        out += "\(name)_count\(plain) \(histogram.count)\n"
    }

    /// The seven samples every byte-bounded cache shows, under `prefix`; `evicted` and
    /// `rejected` name what the cache drops and refuses in the help texts.
    private static func cacheSamples(_ out: inout String, prefix: String, name: String, hitsHelp: String,
                                     evicted: String, rejected: String, _ cache: CacheStatistics, capacityBytes: Int) {
        let title = name.prefix(1).uppercased() + name.dropFirst()
        sample(&out, prefix + "_hits_total", "counter", hitsHelp, cache.hits)
        sample(&out, prefix + "_misses_total", "counter", "\(title) lookups that found nothing.", cache.misses)
        sample(&out, prefix + "_evictions_total", "counter", "\(evicted) evicted to make room.", cache.evictions)
        sample(&out, prefix + "_rejected_total", "counter",
               "\(rejected) too large to cache (bigger than one shard's share of the budget).", cache.rejected)
        sample(&out, prefix + "_entries", "gauge", "Entries in the \(name).", cache.entries)
        sample(&out, prefix + "_bytes", "gauge", "Bytes charged to the \(name)'s entries.", cache.bytes)
        sample(&out, prefix + "_capacity_bytes", "gauge", "The \(name)'s byte budget.", capacityBytes)
    }

    private static func family(_ out: inout String, _ name: String, _ type: String, _ help: String) {
        out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    private static func sample(_ out: inout String, _ name: String, _ type: String, _ help: String, _ value: Int) {
        family(&out, name, type, help)
        out += "\(name) \(value)\n"
    }

    /// A float as Prometheus reads it: whole numbers without a fraction, others in Swift's
    /// shortest round-trip form.
    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
