import LayoutEngine

/// Layouts of repeated subtrees kept across requests (`--subtree-cache-bytes`): the engine's
/// subtree snapshots, keyed by a keyed digest of the subtree, the calls it got and the config
/// (see `SubtreeReuse`), bounded in bytes, least recently used first out, in independently
/// locked shards. A request whose cells repeat cells of an earlier request copies their layout.
public final class SubtreeCache: SubtreeSnapshotStore {
    /// Counters and gauges across all shards.
    public typealias Statistics = CacheStatistics

    /// Bytes an entry costs beyond its snapshot's heap memory: the LRU's slot and dictionary
    /// bucket, as for the frame cache.
    public static let entryOverhead = HeapFootprint.lruBookkeeping(key: StructuralHash.self, value: SubtreeSnapshot.self)

    /// The byte budget across all shards.
    public var capacityBytes: Int { entries.capacityBytes }
    private let entries: ShardedCache<StructuralHash, SubtreeSnapshot>

    /// A cache of at most `capacityBytes` in `shardCount` shards; 0 keeps nothing.
    public init(capacityBytes: Int, shardCount: Int = 8) {
        entries = ShardedCache(capacityBytes: capacityBytes, shardCount: shardCount)
    }

    public func snapshot(for key: StructuralHash) -> SubtreeSnapshot? {
        entries.lookup(key) { $0 }
    }

    public func store(_ snapshot: SubtreeSnapshot, for key: StructuralHash) {
        // Equal keys mean equal snapshots: one stored by a racing request will do.
        entries.insert(snapshot, for: key, cost: snapshot.heapBytes + Self.entryOverhead) { _ in true }
    }

    /// A consistent-enough snapshot: each shard is read under its own lock.
    public var statistics: Statistics { entries.statistics }
}
