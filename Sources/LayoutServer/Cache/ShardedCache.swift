import SyncSupport

/// A key that says which shard of a `ShardedCache` it belongs to.
protocol ShardSelectingKey: Hashable {
    /// Bits that pick the shard (masked by the shard count). Should be independent of the bits
    /// the shard's dictionary leans on; the dictionary rehashes the whole key anyway.
    var shardSelector: Int { get }
}

/// A `ByteBoundedLRU` split into independently locked shards (chosen by the key's
/// `shardSelector`) so lookups from all cores rarely wait on each other; each shard owns an
/// equal share of the byte budget.
final class ShardedCache<Key: ShardSelectingKey & Sendable, Value: Sendable>: Sendable {
    private typealias Shard = Locked<ByteBoundedLRU<Key, Value>>

    /// The byte budget across all shards.
    let capacityBytes: Int
    /// Each shard's share of the budget: the most one entry may cost.
    let shardCapacityBytes: Int
    private let shards: [Shard]
    private let shardMask: Int

    /// At most `capacityBytes` (negative counts as 0) split in `shardCount` shards, rounded up
    /// to a power of two.
    init(capacityBytes: Int, shardCount: Int) {
        var count = 1
        while count < max(1, shardCount) { count <<= 1 }
        self.capacityBytes = max(0, capacityBytes)
        shardCapacityBytes = self.capacityBytes / count
        let share = shardCapacityBytes
        shards = (0..<count).map { _ in Shard(ByteBoundedLRU(capacityBytes: share)) }
        shardMask = count - 1
    }

    @inline(__always) private func shard(for key: Key) -> Shard {
        shards[key.shardSelector & shardMask]
    }

    /// See `ByteBoundedLRU.lookup(_:_:)`; `read` runs under the shard's lock.
    func lookup<Found: Sendable>(_ key: Key, _ read: @Sendable (Value) -> Found?) -> Found? {
        shard(for: key).withLock { $0.lookup(key, read) }
    }

    /// See `ByteBoundedLRU.insert(_:for:cost:placement:keepsExisting:)`; `keepsExisting` runs
    /// under the shard's lock.
    func insert(_ value: Value, for key: Key, cost: Int, placement: LRUPlacement = .newest,
                keepsExisting: @Sendable (Value) -> Bool) {
        shard(for: key).withLock { $0.insert(value, for: key, cost: cost, placement: placement, keepsExisting: keepsExisting) }
    }

    /// Drops every entry (statistics other than entries and bytes are kept).
    func removeAll() {
        for shard in shards {
            shard.withLock { $0.removeAll() }
        }
    }

    /// A consistent-enough snapshot: each shard is read under its own lock.
    var statistics: CacheStatistics {
        var total = CacheStatistics()
        for shard in shards {
            total.add(shard.withLock { $0.statistics })
        }
        return total
    }
}
