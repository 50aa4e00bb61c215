/// A min-heap of deadlines keyed by registration slot: at most one deadline per slot, which
/// can be moved or removed in O(log n), so a closed connection's deadline leaves the heap at
/// once instead of lingering until it expires.
struct DeadlineHeap {
    private var entries: [(deadline: UInt64, slot: Int)] = []
    /// Where each slot's entry sits in `entries`; -1 when it has none.
    private var positions: [Int] = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The earliest deadline and its slot.
    var earliest: (deadline: UInt64, slot: Int)? { entries.first }

    /// The slot's deadline, if it has one.
    func deadline(of slot: Int) -> UInt64? {
        guard slot < positions.count, positions[slot] >= 0 else { return nil }
        return entries[positions[slot]].deadline
    }

    /// Sets (or moves) the slot's deadline.
    mutating func set(slot: Int, deadline: UInt64) {
        if slot >= positions.count { positions.append(contentsOf: repeatElement(-1, count: slot + 1 - positions.count)) }
        let position = positions[slot]
        if position < 0 {
            entries.append((deadline, slot))
            positions[slot] = entries.count - 1
            siftUp(entries.count - 1)
        } else {
            let earlier = deadline < entries[position].deadline
            entries[position].deadline = deadline
            if earlier { siftUp(position) } else { siftDown(position) }
        }
    }

    /// Removes the slot's deadline, if any.
    mutating func remove(slot: Int) {
        guard slot < positions.count, positions[slot] >= 0 else { return }
        let position = positions[slot]
        positions[slot] = -1
        let last = entries.count - 1
        if position != last {
            entries[position] = entries[last]
            positions[entries[position].slot] = position
        }
        entries.removeLast()
        if position < entries.count {
            siftDown(position)
            siftUp(position)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            var smallest = left
            if left + 1 < entries.count && entries[left + 1].deadline < entries[left].deadline { smallest = left + 1 }
            guard entries[smallest].deadline < entries[parent].deadline else { return }
            swapAt(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        positions[entries[a].slot] = a
        positions[entries[b].slot] = b
    }
}
