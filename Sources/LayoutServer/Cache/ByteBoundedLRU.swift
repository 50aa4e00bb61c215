/// Where `ByteBoundedLRU.insert` puts an entry in the order of recency.
enum LRUPlacement: Sendable {
    /// The most recently used: the last to be evicted.
    case newest
    /// The least recently used: the first to be evicted (an entry kept in case it is asked for
    /// again soon, but that should not push out entries in use).
    case oldest
}

/// A least-recently-used map bounded by the summed `cost` of its entries, not thread-safe (a
/// `ShardedCache` shard holds one under its lock).
///
/// The entries live in a flat array of slots linked into a doubly linked recency list by
/// indices, not references (no ARC per link, no allocation per entry once slots are reused);
/// a dictionary maps each key to its slot, and freed slots are kept on a free list.
struct ByteBoundedLRU<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        /// nil once the slot is freed, so the value's memory goes at eviction, not at reuse.
        var value: Value?
        var cost: Int
        var newer: Int32
        var older: Int32
    }

    private static var none: Int32 { -1 }

    /// The most the costs of all entries may add up to.
    let capacityBytes: Int
    /// Counters since creation; `entries` and `bytes` are the current gauges.
    private(set) var statistics = CacheStatistics()
    private var index: [Key: Int32] = [:]
    private var slots: [Slot] = []
    private var freeSlots: [Int32] = []
    private var newest: Int32 = none
    private var oldest: Int32 = none

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    /// `read` applied to the value stored under `key`, marking it most recently used. `read`
    /// returning nil (the stored value does not really match) counts as a miss, like no entry.
    mutating func lookup<Found>(_ key: Key, _ read: (Value) -> Found?) -> Found? {
        guard let slot = index[key], let found = read(slots[Int(slot)].value!) else {
            statistics.misses += 1
            return nil
        }
        statistics.hits += 1
        moveToFront(slot)
        return found
    }

    /// Stores `value` under `key` at `cost`, evicting least recently used entries to make room;
    /// a value costing more than the whole capacity is rejected. If `key` is already present
    /// and `keepsExisting` says the stored value will do, that one is only marked most recently
    /// used; otherwise it is replaced (a replacement is not counted as an eviction). `placement`
    /// says where the new entry goes in the order of recency (an existing one kept stays where
    /// it is at `.oldest`).
    mutating func insert(_ value: Value, for key: Key, cost: Int, placement: LRUPlacement = .newest,
                         keepsExisting: (Value) -> Bool) {
        if let existing = index[key] {
            if keepsExisting(slots[Int(existing)].value!) {
                if placement == .newest { moveToFront(existing) }
                return
            }
            remove(existing)
        }
        guard cost <= capacityBytes else {
            statistics.rejected += 1
            return
        }
        while statistics.bytes + cost > capacityBytes, oldest != Self.none {
            remove(oldest)
            statistics.evictions += 1
        }
        let slot = Slot(key: key, value: value, cost: cost, newer: Self.none, older: Self.none)
        let position: Int32
        if let free = freeSlots.popLast() {
            position = free
            slots[Int(free)] = slot
        } else {
            position = Int32(slots.count)
            slots.append(slot)
        }
        index[key] = position
        switch placement {
        case .newest: linkAtFront(position)
        case .oldest: linkAtBack(position)
        }
        statistics.insertions += 1
        statistics.entries += 1
        statistics.bytes += cost
    }

    /// Drops every entry; counters other than `entries` and `bytes` are kept.
    mutating func removeAll() {
        index.removeAll()
        slots.removeAll()
        freeSlots.removeAll()
        newest = Self.none
        oldest = Self.none
        statistics.entries = 0
        statistics.bytes = 0
    }

    // MARK: - Recency list

    private mutating func remove(_ victim: Int32) {
        unlink(victim)
        index[slots[Int(victim)].key] = nil
        slots[Int(victim)].value = nil
        freeSlots.append(victim)
        statistics.entries -= 1
        statistics.bytes -= slots[Int(victim)].cost
    }

    private mutating func moveToFront(_ slot: Int32) {
        guard slot != newest else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    private mutating func linkAtFront(_ slot: Int32) {
        slots[Int(slot)].newer = Self.none
        slots[Int(slot)].older = newest
        if newest != Self.none { slots[Int(newest)].newer = slot }
        newest = slot
        if oldest == Self.none { oldest = slot }
    }

    private mutating func linkAtBack(_ slot: Int32) {
        slots[Int(slot)].older = Self.none
        slots[Int(slot)].newer = oldest
        if oldest != Self.none { slots[Int(oldest)].older = slot }
        oldest = slot
        if newest == Self.none { newest = slot }
    }

    private mutating func unlink(_ slot: Int32) {
        let newer = slots[Int(slot)].newer
        let older = slots[Int(slot)].older
        if newer != Self.none { slots[Int(newer)].older = older } else { newest = older }
        if older != Self.none { slots[Int(older)].newer = newer } else { oldest = newer }
        slots[Int(slot)].newer = Self.none
        slots[Int(slot)].older = Self.none
    }
}
