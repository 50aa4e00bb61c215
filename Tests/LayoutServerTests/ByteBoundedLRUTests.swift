import Testing
@testable import LayoutServer

/// The recency order of `ByteBoundedLRU`: what is evicted first.
@Suite struct ByteBoundedLRUTests {
    /// Inserts the keys at cost 10 each, newest last.
    static func filled(_ keys: [Int], capacity: Int) -> ByteBoundedLRU<Int, String> {
        var lru = ByteBoundedLRU<Int, String>(capacityBytes: capacity)
        for key in keys { lru.insert("\(key)", for: key, cost: 10, keepsExisting: { _ in false }) }
        return lru
    }

    static func present(_ lru: inout ByteBoundedLRU<Int, String>, _ keys: ClosedRange<Int>) -> [Int] {
        keys.filter { lru.lookup($0, { $0 }) != nil }
    }

    @Test func anEntryPlacedOldestIsEvictedFirst() {
        var lru = Self.filled([1, 2, 3], capacity: 40)
        lru.insert("4", for: 4, cost: 10, placement: .oldest, keepsExisting: { _ in false })
        // Full: the next entry evicts the one placed oldest, not 1, the oldest inserted before it.
        lru.insert("5", for: 5, cost: 10, keepsExisting: { _ in false })
        #expect(lru.statistics.evictions == 1)
        #expect(Self.present(&lru, 1...5) == [1, 2, 3, 5])
    }

    @Test func aReplacementPlacedOldestGoesToTheOldEnd() {
        var lru = Self.filled([1, 2, 3], capacity: 30)
        // 3 is the newest; replaced at the oldest end, it is the first to go.
        lru.insert("3 again", for: 3, cost: 10, placement: .oldest, keepsExisting: { _ in false })
        #expect(lru.statistics.entries == 3 && lru.statistics.evictions == 0)
        lru.insert("4", for: 4, cost: 10, keepsExisting: { _ in false })
        #expect(Self.present(&lru, 1...4) == [1, 2, 4])
        // Kept as it is at `.oldest`, an entry is not marked recently used either.
        var kept = Self.filled([1, 2], capacity: 20)
        kept.insert("1 again", for: 1, cost: 10, placement: .oldest, keepsExisting: { _ in true })
        kept.insert("3", for: 3, cost: 10, keepsExisting: { _ in false })
        #expect(Self.present(&kept, 1...3) == [2, 3])
    }

    @Test func placedOldestInAnEmptyMapItIsAlsoTheNewest() {
        var lru = ByteBoundedLRU<Int, String>(capacityBytes: 20)
        lru.insert("1", for: 1, cost: 10, placement: .oldest, keepsExisting: { _ in false })
        lru.insert("2", for: 2, cost: 10, keepsExisting: { _ in false })
        lru.insert("3", for: 3, cost: 10, keepsExisting: { _ in false })
        #expect(Self.present(&lru, 1...3) == [2, 3])
        lru.insert("4", for: 4, cost: 10, placement: .oldest, keepsExisting: { _ in false })
        // 4 went in at the old end and, the map being full, 2 (then the oldest) made room.
        #expect(Self.present(&lru, 1...4) == [3, 4])
    }
}
