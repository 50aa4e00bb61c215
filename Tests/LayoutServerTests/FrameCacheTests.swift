import Dispatch
import LayoutEngine
import LayoutServer
import LayoutWire
import Testing

@Suite struct FrameCacheTests {
    static func key(_ n: UInt64) -> StructuralHash { StructuralHash(high: n &* 0x9E37_79B9_7F4A_7C15, low: n) }
    static func frames(_ count: Int, _ tag: Float = 0) -> [Frame] {
        (0..<count).map { Frame(left: Float($0), top: tag, width: 1, height: 1) }
    }

    /// Whether `bytes` is what `entries` entries of `frames` frames are charged. Entries are
    /// charged their arrays' real capacity, which malloc may round up by one frame (a chunk it
    /// does not split), so each lies between the exact-fit cost and one frame more.
    static func isCharge(_ bytes: Int, entries: Int, frames: Int) -> Bool {
        bytes >= entries * FrameCache.cost(frameCount: frames) && bytes <= entries * FrameCache.cost(frameCount: frames + 1)
    }

    @Test func storesAndFindsFramesCountingHitsAndMisses() {
        let cache = FrameCache(capacityBytes: 1 << 20, shardCount: 1)
        #expect(cache.lookup(Self.key(1)) == nil)
        cache.insert(Self.frames(3, 7), for: Self.key(1))
        #expect(cache.lookup(Self.key(1)) == Self.frames(3, 7))
        let stats = cache.statistics
        #expect(stats.hits == 1 && stats.misses == 1 && stats.entries == 1)
        #expect(Self.isCharge(stats.bytes, entries: 1, frames: 3))
    }

    @Test func evictsTheLeastRecentlyUsedToStayWithinBudget() {
        // Room for three entries of 10 frames even if malloc rounds each up, not for four.
        let cache = FrameCache(capacityBytes: FrameCache.cost(frameCount: 11) * 3, shardCount: 1)
        for n in 1...3 { cache.insert(Self.frames(10), for: Self.key(UInt64(n))) }
        _ = cache.lookup(Self.key(1))                  // 1 is now the most recent; 2 the oldest
        cache.insert(Self.frames(10), for: Self.key(4))
        #expect(cache.lookup(Self.key(2)) == nil)
        #expect(cache.lookup(Self.key(1)) != nil)
        #expect(cache.lookup(Self.key(3)) != nil)
        #expect(cache.lookup(Self.key(4)) != nil)
        let stats = cache.statistics
        #expect(stats.evictions == 1)
        #expect(stats.entries == 3)
        #expect(stats.bytes <= cache.capacityBytes)
    }

    @Test func aLargeEntryEvictsSeveralAndAnOversizedOneIsNotStored() {
        let cache = FrameCache(capacityBytes: FrameCache.cost(frameCount: 100), shardCount: 1)
        for n in 1...4 { cache.insert(Self.frames(10), for: Self.key(UInt64(n))) }
        cache.insert(Self.frames(80), for: Self.key(9))
        #expect(cache.lookup(Self.key(9)) != nil)
        #expect(cache.statistics.bytes <= cache.capacityBytes)
        #expect(cache.statistics.evictions >= 2)

        cache.insert(Self.frames(101), for: Self.key(10))
        #expect(cache.lookup(Self.key(10)) == nil)
        #expect(cache.statistics.rejected == 1)
        #expect(cache.maxFramesPerEntry == 100)
    }

    @Test func zeroCapacityCachesNothing() {
        let cache = FrameCache(capacityBytes: 0)
        cache.insert(Self.frames(1), for: Self.key(1))
        #expect(cache.lookup(Self.key(1)) == nil)
        #expect(cache.statistics.entries == 0)
    }

    @Test func reinsertingAKeyKeepsOneEntry() {
        let cache = FrameCache(capacityBytes: 1 << 20, shardCount: 2)
        cache.insert(Self.frames(5), for: Self.key(1))
        cache.insert(Self.frames(5), for: Self.key(1))
        #expect(cache.statistics.entries == 1)
        #expect(Self.isCharge(cache.statistics.bytes, entries: 1, frames: 5))
    }

    @Test func concurrentUseKeepsTheAccountingExact() {
        let cache = FrameCache(capacityBytes: FrameCache.cost(frameCount: 8) * 64, shardCount: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<2_000 {
                let n = UInt64((round * 7 + worker * 13) % 200)
                if let frames = cache.lookup(Self.key(n)) {
                    precondition(frames == Self.frames(8, Float(n)), "a key answered another key's frames")
                } else {
                    cache.insert(Self.frames(8, Float(n)), for: Self.key(n))
                }
            }
        }
        let stats = cache.statistics
        #expect(stats.hits + stats.misses == 16_000)
        #expect(Self.isCharge(stats.bytes, entries: stats.entries, frames: 8))
        #expect(stats.bytes <= cache.capacityBytes)
        #expect(stats.insertions - stats.evictions == stats.entries)
    }
}
