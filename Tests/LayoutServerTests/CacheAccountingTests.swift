import LayoutEngine
import Testing
@testable import LayoutServer

/// The caches charge what entries occupy (array capacity, headers, bookkeeping), not their
/// element counts, and `layoutd serve`'s malloc settings yield to GLIBC_TUNABLES.
@Suite struct CacheAccountingTests {
    @Test func aFrameEntryIsChargedItsCapacityNotItsCount() {
        var frames: [Frame] = []
        frames.reserveCapacity(100)
        frames.append(contentsOf: repeatElement(Frame.zero, count: 3))
        let cache = FrameCache(capacityBytes: 1 << 20, shardCount: 1)
        cache.insert(frames, for: StructuralHash(high: 1, low: 2))
        let bytes = cache.statistics.bytes
        #expect(bytes >= FrameCache.cost(frameCount: 100))
        #expect(bytes >= 100 * MemoryLayout<Frame>.stride + 32 + FrameCache.entryOverhead)
        #expect(bytes < FrameCache.cost(frameCount: 100) + 64)
    }

    @Test func anAnswerEntryIsChargedItsCapacityNotItsCount() {
        var answer: [UInt8] = []
        answer.reserveCapacity(10_000)
        answer.append(contentsOf: repeatElement(7, count: 50))
        let body = [UInt8](repeating: 32, count: 100)
        let cache = AnswerCache(capacityBytes: 1 << 20, shardCount: 1)
        cache.insert(body, key: cache.key(for: body), answer: answer, entityTag: "\"t\"")
        #expect(cache.statistics.bytes >= AnswerCache.cost(requestBytes: 100, answerBytes: 10_000))
        #expect(cache.statistics.bytes >= 10_100 + AnswerCache.entryOverhead)
    }

    @Test func overheadCoversTheBookkeeping() {
        // At least the slot and the bucket, each stored once, plus the ETag and header lists.
        #expect(FrameCache.entryOverhead >= 2 * MemoryLayout<StructuralHash>.stride + 16)
        #expect(AnswerCache.entryOverhead >= 96 + 144 + 80 + 2 * MemoryLayout<AnswerCache.Key>.stride)
        #expect(HeapFootprint.array([UInt8]()) == 0)
        #expect(HeapFootprint.mallocChunk(1) == 16)
        #expect(HeapFootprint.mallocChunk(24) == 32)
        #expect(HeapFootprint.mallocChunk(25) == 48)
    }

    static func outcome(_ name: String, _ environment: [String: String]) -> MallocTuning.Outcome? {
        MallocTuning.plan(environment: environment).first { $0.knob.name == name }?.outcome
    }

    @Test func mallocDefaults() {
        #expect(Self.outcome("ARENA_MAX", [:]) == .set(2))
        #expect(Self.outcome("MMAP_THRESHOLD", [:]) == .set(1 << 20))
        #expect(Self.outcome("TRIM_THRESHOLD", [:]) == .set(32 << 20))
    }

    @Test func mallocOverridesAndGlibcTunablesWin() {
        let environment = [
            "GLIBC_TUNABLES": "glibc.malloc.tcache_count=0:glibc.malloc.arena_max=4",
            "LAYOUTD_MALLOC_ARENA_MAX": "8",
            "LAYOUTD_MALLOC_TRIM_THRESHOLD": "64M",
            "LAYOUTD_MALLOC_MMAP_THRESHOLD": "lots",
        ]
        #expect(Self.outcome("ARENA_MAX", environment) == .fromGlibcTunables)
        #expect(Self.outcome("TRIM_THRESHOLD", environment) == .set(64 << 20))
        #expect(Self.outcome("MMAP_THRESHOLD", environment) == .invalid("lots"))
        #expect(Self.outcome("ARENA_MAX", ["LAYOUTD_MALLOC_ARENA_MAX": "default"]) == .glibcDefault)
        #expect(Self.outcome("ARENA_MAX", ["LAYOUTD_MALLOC_ARENA_MAX": "1"]) == .set(1))
        // A tunable whose name merely starts the same is not this one.
        #expect(Self.outcome("ARENA_MAX", ["GLIBC_TUNABLES": "glibc.malloc.arena_max_x=1"]) == .set(2))
    }
}
