import LayoutEngine

/// Computed layouts keyed by the structural hash of their input, bounded in bytes, evicting the
/// least recently used entry first. Entries hold frames in an id-free form (pre-order from the
/// root), so one entry answers every request of the same structure whatever its ids.
///
/// Split into independently locked shards (chosen by the hash's low bits) so lookups from all
/// cores rarely wait on each other; each shard owns an equal share of the byte budget.
public final class FrameCache: @unchecked Sendable {
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
    }

    /// Bytes an entry costs beyond its frames: the 16-byte key stored twice (dictionary and
    /// slot), the dictionary bucket, the slot's links and bookkeeping, and the frame array's
    /// heap header. Rounded up so the accounting errs on the side of using less memory.
    public static let entryOverhead = 128

    /// What one entry of `frameCount` frames is charged against the budget.
    public static func cost(frameCount: Int) -> Int {
        frameCount * MemoryLayout<Frame>.stride + entryOverhead
    }

    /// The byte budget across all shards.
    public let capacityBytes: Int
    private let shards: [FrameCacheShard]
    private let shardMask: Int

    /// A cache of at most `capacityBytes`, split in `shardCount` shards (rounded up to a power
    /// of two). A capacity of 0 turns caching off.
    public init(capacityBytes: Int, shardCount: Int = 8) {
        var count = 1
        while count < max(1, shardCount) { count <<= 1 }
        self.capacityBytes = max(0, capacityBytes)
        let share = self.capacityBytes / count
        self.shards = (0..<count).map { _ in FrameCacheShard(capacityBytes: share) }
        self.shardMask = count - 1
    }

    /// The largest number of frames one entry may hold and still be stored.
    public var maxFramesPerEntry: Int {
        max(0, (capacityBytes / shards.count - Self.entryOverhead) / MemoryLayout<Frame>.stride)
    }

    private func shard(for key: StructuralHash) -> FrameCacheShard {
        shards[Int(truncatingIfNeeded: key.low) & shardMask]
    }

    /// The frames stored under `key`, marking the entry most recently used; counts a hit or miss.
    public func lookup(_ key: StructuralHash) -> [Frame]? {
        shard(for: key).lookup(key)
    }

    /// Stores `frames` under `key`, evicting least recently used entries to make room. Entries
    /// larger than a shard's share are not stored.
    public func insert(_ frames: [Frame], for key: StructuralHash) {
        shard(for: key).insert(frames, for: key)
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
