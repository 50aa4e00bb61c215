import Glibc

/// One lock's worth of `AnswerCache`: a dictionary from body hash to slot, and the slots in a
/// doubly linked recency list kept in a flat array (indices, not references). One slot per
/// hash: a colliding body replaces the entry rather than sharing it.
final class AnswerCacheShard: @unchecked Sendable {
    private struct Slot {
        var key: AnswerCache.Key
        var request: [UInt8]
        var entry: AnswerCache.Entry?
        var cost: Int
        var newer: Int32
        var older: Int32
    }

    private static let nil32: Int32 = -1

    private let lock = Mutex()
    private let capacityBytes: Int
    private var index: [AnswerCache.Key: Int32] = [:]
    private var slots: [Slot] = []
    private var freeSlots: [Int32] = []
    private var newest: Int32 = nil32
    private var oldest: Int32 = nil32
    private var stats = AnswerCache.Statistics()

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    func lookup(_ body: [UInt8], key: AnswerCache.Key) -> AnswerCache.Entry? {
        lock.lock()
        defer { lock.unlock() }
        guard let slot = index[key], Self.equal(slots[Int(slot)].request, body),
              let entry = slots[Int(slot)].entry else {
            stats.misses += 1
            return nil
        }
        stats.hits += 1
        moveToFront(slot)
        return entry
    }

    func insert(_ body: [UInt8], key: AnswerCache.Key, entry: AnswerCache.Entry, cost: Int) {
        lock.lock()
        defer { lock.unlock() }
        if let existing = index[key] {
            if Self.equal(slots[Int(existing)].request, body) {
                // The same body: a racing request stored the same answer first.
                moveToFront(existing)
                return
            }
            remove(existing) // a hash collision: the newer body takes the slot
        }
        guard cost <= capacityBytes else {
            stats.rejected += 1
            return
        }
        while stats.bytes + cost > capacityBytes, oldest != Self.nil32 {
            remove(oldest)
            stats.evictions += 1
        }
        let slot = Slot(key: key, request: body, entry: entry, cost: cost, newer: Self.nil32, older: Self.nil32)
        let position: Int32
        if let free = freeSlots.popLast() {
            position = free
            slots[Int(free)] = slot
        } else {
            position = Int32(slots.count)
            slots.append(slot)
        }
        index[key] = position
        linkAtFront(position)
        stats.insertions += 1
        stats.entries += 1
        stats.bytes += cost
    }

    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        index.removeAll()
        slots.removeAll()
        freeSlots.removeAll()
        newest = Self.nil32
        oldest = Self.nil32
        stats.entries = 0
        stats.bytes = 0
    }

    var statistics: AnswerCache.Statistics {
        lock.lock()
        defer { lock.unlock() }
        return stats
    }

    /// Byte-for-byte equality (memcmp), so a hash collision is never a hit.
    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                pa.count == 0 || memcmp(pa.baseAddress!, pb.baseAddress!, pa.count) == 0
            }
        }
    }

    // MARK: - Recency list (call with the lock held)

    private func remove(_ victim: Int32) {
        unlink(victim)
        let cost = slots[Int(victim)].cost
        index[slots[Int(victim)].key] = nil
        // Release the bytes now, not when the slot is reused.
        slots[Int(victim)].request = []
        slots[Int(victim)].entry = nil
        freeSlots.append(victim)
        stats.entries -= 1
        stats.bytes -= cost
    }

    private func moveToFront(_ slot: Int32) {
        guard slot != newest else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    private func linkAtFront(_ slot: Int32) {
        slots[Int(slot)].newer = Self.nil32
        slots[Int(slot)].older = newest
        if newest != Self.nil32 { slots[Int(newest)].newer = slot }
        newest = slot
        if oldest == Self.nil32 { oldest = slot }
    }

    private func unlink(_ slot: Int32) {
        let newer = slots[Int(slot)].newer
        let older = slots[Int(slot)].older
        if newer != Self.nil32 { slots[Int(newer)].older = older } else { newest = older }
        if older != Self.nil32 { slots[Int(older)].newer = newer } else { oldest = newer }
        slots[Int(slot)].newer = Self.nil32
        slots[Int(slot)].older = Self.nil32
    }
}
