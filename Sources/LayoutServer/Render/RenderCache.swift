import LayoutEngine
import LayoutRender

/// Pictures keyed by what they show: the structural hash of the layout input, the ids (labels),
/// the paint side table and the render options. Bounded in bytes (the picture's bytes and the
/// entry's bookkeeping), least recently used first out, split into locked shards like
/// `FrameCache`.
public final class RenderCache: Sendable {
    public typealias Statistics = CacheStatistics

    /// Everything a picture depends on. Paint is not in the structural hash (it does not change
    /// frames), so its own hash is part of the key.
    struct Key: Hashable, Sendable, ShardSelectingKey {
        var structure: StructuralHash
        var ids: UInt64
        /// `PaintTable.hashValue`: seeded per process, like the cache itself.
        var paint: Int
        var options: RenderOptions

        var shardSelector: Int { Int(truncatingIfNeeded: structure.low) }
    }

    static let entryOverhead = HeapFootprint.lruBookkeeping(key: Key.self, value: [UInt8].self)

    public var capacityBytes: Int { entries.capacityBytes }
    private let entries: ShardedCache<Key, [UInt8]>

    /// A cache of at most `capacityBytes` in `shardCount` shards; 0 turns caching off.
    public init(capacityBytes: Int, shardCount: Int = 8) {
        entries = ShardedCache(capacityBytes: capacityBytes, shardCount: shardCount)
    }

    func lookup(_ key: Key) -> [UInt8]? {
        entries.lookup(key) { $0 }
    }

    func insert(_ picture: [UInt8], for key: Key) {
        entries.insert(picture, for: key, cost: HeapCharge.array(picture) + Self.entryOverhead) { _ in true }
    }

    public var statistics: Statistics { entries.statistics }
}
