import LayoutEngine

/// Computed layouts keyed by the structural hash of their input, bounded in bytes, evicting the
/// least recently used entry first. Entries hold frames in an id-free form (pre-order from the
/// root), so one entry answers every request of the same structure whatever its ids.
///
/// Split into independently locked shards (chosen by the hash's low bits) so lookups from all
/// cores rarely wait on each other; each shard owns an equal share of the byte budget.
public final class FrameCache: Sendable {
    /// Counters and gauges across all shards.
    public typealias Statistics = CacheStatistics

    /// Bytes an entry costs beyond its frame array's storage: the LRU's slot (the 16-byte key,
    /// the array reference, cost and links) and dictionary bucket (the key again and the slot
    /// index), at twice their size for the tables' spare room (`HeapFootprint`).
    public static let entryOverhead = HeapFootprint.lruBookkeeping(key: StructuralHash.self, value: [Frame].self)

    /// What one entry of `frameCount` frames, stored without spare capacity, is charged.
    public static func cost(frameCount: Int) -> Int {
        HeapCharge.mallocChunk(32 + frameCount * MemoryLayout<Frame>.stride) + entryOverhead
    }

    /// What storing `frames` is charged: their array's real storage (capacity, header, malloc
    /// rounding) and the entry's bookkeeping.
    public static func cost(of frames: [Frame]) -> Int {
        HeapCharge.array(frames) + entryOverhead
    }

    /// The byte budget across all shards.
    public var capacityBytes: Int { entries.capacityBytes }
    private let entries: ShardedCache<StructuralHash, [Frame]>

    /// A cache of at most `capacityBytes`, split in `shardCount` shards (rounded up to a power
    /// of two). A capacity of 0 turns caching off.
    public init(capacityBytes: Int, shardCount: Int = 8) {
        entries = ShardedCache(capacityBytes: capacityBytes, shardCount: shardCount)
    }

    /// The largest number of frames one entry may hold and still be stored.
    public var maxFramesPerEntry: Int {
        max(0, (entries.shardCapacityBytes - Self.entryOverhead - 48) / MemoryLayout<Frame>.stride)
    }

    /// The frames stored under `key`, marking the entry most recently used; counts a hit or miss.
    public func lookup(_ key: StructuralHash) -> [Frame]? {
        entries.lookup(key) { $0 }
    }

    /// Stores `frames` under `key`, evicting least recently used entries to make room. Entries
    /// larger than a shard's share are not stored.
    public func insert(_ frames: [Frame], for key: StructuralHash) {
        // Same structure, same layout: frames already stored (by a racing computation) will do.
        entries.insert(frames, for: key, cost: Self.cost(of: frames)) { _ in true }
    }

    /// Drops every entry (statistics other than entries and bytes are kept).
    public func removeAll() {
        entries.removeAll()
    }

    /// A consistent-enough snapshot: each shard is read under its own lock.
    public var statistics: Statistics {
        entries.statistics
    }
}

extension StructuralHash: ShardSelectingKey {
    var shardSelector: Int { Int(truncatingIfNeeded: low) }
}
