import HTTPServer

/// Complete `/compute` answers keyed by the exact request body, looked up before decoding: an
/// exact repeat skips decode, structural hash, ETag and encode. Bounded in bytes, least
/// recently used first out, split into independently locked shards like `FrameCache`.
///
/// Keys are a 64-bit hash of the body with Swift's `Hasher`, which is seeded per process, so a
/// client cannot precompute colliding bodies; and a hit always compares the stored body byte
/// for byte, so even a collision can never serve another body's answer. Only 200 answers are
/// stored.
public final class AnswerCache: @unchecked Sendable {
    /// Counters and gauges across all shards.
    public struct Statistics: Sendable, Equatable {
        public var hits = 0
        public var misses = 0
        public var insertions = 0
        public var evictions = 0
        /// Entries too large for a shard's share of the budget, never stored.
        public var rejected = 0
        public var entries = 0
        public var bytes = 0

        public init() {}
    }

    /// A stored 200 answer, with the response headers built once at insertion.
    public struct Entry: Sendable {
        /// The answer body (the frames JSON).
        public let body: [UInt8]
        /// The quoted ETag sent with the answer.
        public let entityTag: String
        /// Content-Type, ETag and `X-Cache: hit`: the headers of a 200 from this cache.
        let okHeaders: HTTPHeaders
        /// ETag alone: the headers of a 304 from this cache.
        let notModifiedHeaders: HTTPHeaders

        init(body: [UInt8], entityTag: String) {
            self.body = body
            self.entityTag = entityTag
            var ok = LayoutService.jsonHeaders
            ok.add(name: "ETag", value: entityTag)
            ok.add(name: "X-Cache", value: LayoutComputer.CacheOutcome.hit.rawValue)
            okHeaders = ok
            notModifiedHeaders = ["ETag": entityTag]
        }
    }

    /// A body's hash, computed once per request and used for both lookup and insertion.
    public struct Key: Sendable, Hashable {
        let hash: UInt64
    }

    /// Bytes an entry costs beyond its request and answer bytes: the two arrays' heap headers,
    /// the tag string, the prebuilt header lists, the dictionary bucket and the slot. Rounded
    /// up so the accounting errs on the side of using less memory.
    public static let entryOverhead = 512

    /// What an entry for `request` and `answer` bytes is charged against the budget.
    public static func cost(requestBytes: Int, answerBytes: Int) -> Int {
        requestBytes + answerBytes + entryOverhead
    }

    /// The byte budget across all shards.
    public let capacityBytes: Int
    private let shards: [AnswerCacheShard]
    private let shardMask: Int

    /// A cache of at most `capacityBytes`, split in `shardCount` shards (rounded up to a power
    /// of two). A capacity of 0 turns it off (`isEnabled` is false).
    public init(capacityBytes: Int, shardCount: Int = 8) {
        var count = 1
        while count < max(1, shardCount) { count <<= 1 }
        self.capacityBytes = max(0, capacityBytes)
        let share = self.capacityBytes / count
        self.shards = (0..<count).map { _ in AnswerCacheShard(capacityBytes: share) }
        self.shardMask = count - 1
    }

    /// Whether anything can be stored at all.
    public var isEnabled: Bool { capacityBytes > 0 }

    /// The per-process-seeded hash of `body`.
    public func key(for body: [UInt8]) -> Key {
        var hasher = Hasher()
        body.withUnsafeBytes { hasher.combine(bytes: $0) }
        return Key(hash: UInt64(UInt(bitPattern: hasher.finalize())))
    }

    private func shard(for key: Key) -> AnswerCacheShard {
        // The low bits pick the shard; the shard's dictionary rehashes the whole key.
        shards[Int(truncatingIfNeeded: key.hash >> 7) & shardMask]
    }

    /// The answer stored for exactly these body bytes, marking it most recently used; counts a
    /// hit or a miss.
    public func lookup(_ body: [UInt8], key: Key) -> Entry? {
        shard(for: key).lookup(body, key: key)
    }

    /// Stores the 200 answer to `body`, evicting least recently used entries to make room.
    /// Entries larger than a shard's share are not stored.
    public func insert(_ body: [UInt8], key: Key, answer: [UInt8], entityTag: String) {
        let cost = Self.cost(requestBytes: body.count, answerBytes: answer.count)
        shard(for: key).insert(body, key: key, entry: Entry(body: answer, entityTag: entityTag), cost: cost)
    }

    /// Drops every entry (statistics other than entries and bytes are kept).
    public func removeAll() {
        for shard in shards { shard.removeAll() }
    }

    /// A consistent-enough snapshot: each shard is read under its own lock.
    public var statistics: Statistics {
        var total = Statistics()
        for shard in shards {
            let s = shard.statistics
            total.hits += s.hits
            total.misses += s.misses
            total.insertions += s.insertions
            total.evictions += s.evictions
            total.rejected += s.rejected
            total.entries += s.entries
            total.bytes += s.bytes
        }
        return total
    }
}
