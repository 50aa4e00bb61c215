import HTTPServer
import LayoutRender
import LayoutEngine
import LayoutWire
import Logging

/// Everything `layoutd serve` can be told: where to listen, how much to cache, and every limit.
/// Defaults are the ones documented per field.
public struct ServiceConfiguration: Sendable {
    /// The HTTP layer: host (default 127.0.0.1), port (default 8080), body/header limits,
    /// timeouts and response compression. See `HTTPServerConfiguration` for each default.
    public var http: HTTPServerConfiguration
    /// Bounds on one layout request (nodes, depth, strings, document size); each answers 413.
    public var wire: WireLimits
    /// Byte budget of the layout cache. Default 32 MiB; 0 turns caching off. With the answer
    /// cache and `maxPendingComputeBytes` full, plus ~20 MB of process and the connections'
    /// buffers, this keeps `layoutd serve` under 100 MB resident at 256 busy connections
    /// (Benchmarks/load). 32 MiB holds ~2,000 layouts of 1,000 nodes or ~100,000 small ones.
    public var cacheBytes: Int
    /// Independently locked parts of the cache (and of the answer cache). Default 8.
    public var cacheShards: Int
    /// Byte budget of the answer cache: complete `/compute` answers keyed by the exact request
    /// body (request bytes + answer bytes + overhead per entry), separate from `cacheBytes`.
    /// Default 8 MiB (~1,800 answers to a 2 KB request); 0 turns it off.
    public var answerCacheBytes: Int
    /// Most requests in one `/compute/batch` array → 413 `too-many-items`. Default 256.
    public var maxBatchItems: Int
    /// The least severe level logged; request lines are `info`. Default info.
    public var logLevel: Logger.Level
    /// `/compute` bodies up to this size are laid out on the connection's own queue, saving a
    /// thread hop; larger ones go to the compute queue so they never hold up I/O. Only applies
    /// to the Dispatch-source backend (`http.ioBackend == .dispatchSources`), where a
    /// connection's queue holds only that connection; an event loop never lays out a whole
    /// request inline. Also the largest `/compute/patch` body patched inline
    /// (`inlinePatchMaxNodes`). Default 8 KiB; 0 sends everything to the compute queue.
    public var inlineComputeMaxBytes: Int
    /// Budget of layout work waiting for or running on the compute queue, in request body
    /// bytes (see `ComputeAdmission`); beyond it `/compute` and `/compute/batch` answer 503
    /// `overloaded` with `Retry-After`. One request is always admitted when none is pending.
    /// Default 24 MiB: about 300 of the 83 KB 1,000-node trees (~1 ms each, so some 300 ms of
    /// work on one core; the load benchmark's 256 connections fit), or three bodies of the
    /// largest size `http.maxBodyBytes` allows.
    public var maxPendingComputeBytes: Int
    /// Budget of the memory large layouts hold while they run (decoded tree, frames, answer),
    /// estimated from each body before decoding (see `ComputeMemoryBudget`): large trees beyond
    /// it wait their turn instead of being laid out all at once (as much again may wait; beyond
    /// that they are answered 503 `overloaded`); one always runs. Requests
    /// estimated at 1/16 of it or less never wait. Default 48 MiB: one 50,000-node tree of
    /// `{}` leaves (~50 MB estimated) runs alone; 1,000-node trees (~2 MB) never wait. 0: no
    /// bound.
    public var maxComputeMemoryBytes = ServiceConfiguration.defaultMaxComputeMemoryBytes
    /// How often malloc's free pages are given back to the system (`malloc_trim`, see
    /// `MallocTuning.releaseFreeMemory`), and also after each large layout (one the compute
    /// memory budget counts). Default 10 s; 0: never (glibc then returns only the free top of
    /// each heap).
    public var mallocTrimInterval: Duration = .seconds(10)
    /// Directories of font files (`.ttf`, `.otf`, `.ttc`, `.otc`, searched recursively) added
    /// to the bundled DejaVu fonts for text leaves. Default none.
    public var fontDirectories: [String] = []
    /// Most shaped words the text shaping cache keeps (~100 bytes each plus 6 bytes a
    /// character; only words of at most 64 UTF-16 units are kept, so at most ~25 MB by
    /// default). Default 50,000.
    public var shapeCacheEntries = 50_000
    /// Byte budget of the `/render` picture cache (keyed by structural hash, ids, paint and
    /// render options). Default 16 MiB; 0 turns it off.
    public var renderCacheBytes: Int
    /// Largest picture `/render` draws, in device pixels (width × height at the asked scale);
    /// beyond it 413 `picture-too-large`. Default 16 Mi pixels (4096 × 4096, 64 MiB of RGBA).
    public var maxRenderPixels: Int
    /// Byte budget of the subtree cache: layouts of repeated subtrees (feed cells) kept across
    /// requests, keyed by subtree hash and constraints (`SubtreeCache`). Repeats within one
    /// request are reused whatever this is. Default 4 MiB (~3,000 snapshots of a 3-node cell
    /// at ~1.3 KB); 0 turns it off.
    public var subtreeCacheBytes = ServiceConfiguration.defaultSubtreeCacheBytes
    /// Byte budget of the node arrays of large trees (2,048 nodes or more) kept after their
    /// requests for the next large trees to be built in (`TreeStoragePool`): such arrays are
    /// above malloc's mapping threshold, and fresh ones are paged in anew by every request.
    /// Default 16 MiB (two trees of 6,000 nodes, ~5.8 MB each); 0 keeps none.
    public var treePoolBytes = TreeStoragePool.defaultCapacityBytes
    /// The shared second-level cache in Redis; off by default.
    public var sharedCache = SharedCacheConfiguration()
    /// After SIGTERM/SIGINT, how long `/readyz` answers 503 while requests are still served, so
    /// a load balancer stops sending new ones, before the server stops accepting and drains
    /// (`http.shutdownTimeout`). Default 0: drain at once.
    public var drainDelay: Duration = .zero
    /// The secret the structural hash is keyed with: the layout cache's key and the first part
    /// of every ETag. Default nil: a random key per process, so hashes and ETags change across
    /// restarts (a client's `If-None-Match` from before a restart then gets one full 200
    /// answer, never a wrong 304). Set the same value on replicas that share a cache or sit
    /// behind one load balancer, so they agree on keys and ETags.
    public var cacheKeySecret: StructuralHashKey?
    /// Byte budget of the trees kept for patches (`POST /compute/patch`): recent `/compute`
    /// requests by the ETag of their answers, each charged its body and frames (with
    /// `patchKeepsComputedTrees`, its laid-out tree and ids too), and the patched trees of
    /// chains, each charged its laid-out tree, ids, frames and document as an editable tree.
    /// Default 16 MiB: some 165 requests of 1,000 nodes (~100 KB: the 83 KB body and its
    /// frames), or about 12 laid-out trees (~1 MB, ~0.4 MB more for the document as a tree);
    /// 0 keeps none (every patch answers 412 `unknown-base`).
    public var patchBaseBytes = 16 << 20
    /// Whether a `/compute` answer's base keeps the laid-out tree, which its first patch then
    /// edits, instead of its body alone, which the first patch decodes again. Off by default:
    /// most requests are never patched, and keeping each one's tree cost an uncached
    /// 1,000-node request 6–15 % of its server CPU (and ~1 MB of the budget per tree).
    public var patchKeepsComputedTrees = false
    /// Most operations in one patch → 413 `too-many-operations`. Default 1,000.
    public var maxPatchOperations = 1_000
    /// Largest patch request body → 413 `patch-too-large`. Default 1 MiB.
    public var maxPatchBytes = 1 << 20
    /// Most live nodes of a kept tree that a patch body of at most `inlineComputeMaxBytes` edits
    /// in place where the request arrived (the event loop, or the connection's queue), on any
    /// backend: a leaf's edit in a 1,000-node tree costs some 50 µs there, less than the two
    /// thread hops to the compute queue and back. The worst such edit (the root's, which lays
    /// out every node again) holds the loop about as long as laying the tree out afresh (0.5 ms
    /// for the 1,000-node tree in `wire-bench --service`, so about twice that at the bound). A
    /// base to lay out first, a larger tree and a rebuild always go to the compute queue.
    /// Default 2,000; 0: every patch goes there.
    public var inlinePatchMaxNodes = 2_000

    public static let defaultCacheBytes = 32 << 20
    public static let defaultAnswerCacheBytes = 8 << 20
    public static let defaultMaxPendingComputeBytes = 24 << 20
    public static let defaultMaxComputeMemoryBytes = 48 << 20
    public static let defaultRenderCacheBytes = 16 << 20
    public static let defaultSubtreeCacheBytes = 4 << 20

    public init(http: HTTPServerConfiguration = HTTPServerConfiguration(),
                wire: WireLimits = .default,
                cacheBytes: Int = ServiceConfiguration.defaultCacheBytes,
                cacheShards: Int = 8,
                answerCacheBytes: Int = ServiceConfiguration.defaultAnswerCacheBytes,
                maxBatchItems: Int = 256,
                logLevel: Logger.Level = .info,
                inlineComputeMaxBytes: Int = 8 * 1024,
                maxPendingComputeBytes: Int = ServiceConfiguration.defaultMaxPendingComputeBytes,
                renderCacheBytes: Int = ServiceConfiguration.defaultRenderCacheBytes,
                maxRenderPixels: Int = RenderLimits.default.maxPixels) {
        self.http = http
        self.wire = wire
        self.cacheBytes = cacheBytes
        self.cacheShards = cacheShards
        self.answerCacheBytes = answerCacheBytes
        self.maxBatchItems = maxBatchItems
        self.logLevel = logLevel
        self.inlineComputeMaxBytes = inlineComputeMaxBytes
        self.maxPendingComputeBytes = maxPendingComputeBytes
        self.renderCacheBytes = renderCacheBytes
        self.maxRenderPixels = maxRenderPixels
    }

    /// Listening address (shortcut for `http.host`).
    public var host: String {
        get { http.host }
        set { http.host = newValue }
    }

    /// Listening port, 0 for an ephemeral one (shortcut for `http.port`).
    public var port: Int {
        get { http.port }
        set { http.port = newValue }
    }
}
