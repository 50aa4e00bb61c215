import LayoutEngine

/// One lock's worth of `FrameCache`: a dictionary from key to slot, and the slots in a doubly
/// linked recency list kept in a flat array (indices, not references, so no ARC per link).
final class FrameCacheShard: @unchecked Sendable {
    private struct Slot {
        var key: StructuralHash
        var frames: [Frame]
        var cost: Int
        var newer: Int32
        var older: Int32
    }

    private static let nil32: Int32 = -1

    private let lock = Mutex()
    private let capacityBytes: Int
    private var index: [StructuralHash: Int32] = [:]
    private var slots: [Slot] = []
    private var freeSlots: [Int32] = []
    private var newest: Int32 = nil32
    private var oldest: Int32 = nil32
    private var stats = FrameCache.Statistics()

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    func lookup(_ key: StructuralHash) -> [Frame]? {
        lock.lock()
        defer { lock.unlock() }
        guard let slot = index[key] else {
            stats.misses += 1
            return nil
        }
        stats.hits += 1
        moveToFront(slot)
        return slots[Int(slot)].frames
    }

    func insert(_ frames: [Frame], for key: StructuralHash) {
        let cost = FrameCache.cost(frameCount: frames.count)
        lock.lock()
        defer { lock.unlock() }
        if let existing = index[key] {
            // Same structure, same layout: a racing computation stored it first.
            moveToFront(existing)
            return
        }
        guard cost <= capacityBytes else {
            stats.rejected += 1
            return
        }
        while stats.bytes + cost > capacityBytes, oldest != Self.nil32 {
            evictOldest()
        }
        let slot = Slot(key: key, frames: frames, cost: cost, newer: Self.nil32, older: Self.nil32)
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

    var statistics: FrameCache.Statistics {
        lock.lock()
        defer { lock.unlock() }
        return stats
    }

    // MARK: - Recency list (call with the lock held)

    private func evictOldest() {
        let victim = oldest
        unlink(victim)
        let slot = slots[Int(victim)]
        index[slot.key] = nil
        slots[Int(victim)].frames = [] // release the frames now, not when the slot is reused
        freeSlots.append(victim)
        stats.evictions += 1
        stats.entries -= 1
        stats.bytes -= slot.cost
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
