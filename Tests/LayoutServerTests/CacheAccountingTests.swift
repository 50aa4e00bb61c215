#if canImport(Glibc)
import Glibc
#endif
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
        #expect(HeapCharge.array([UInt8]()) == 0)
        #expect(HeapCharge.mallocChunk(1) == 16)
        #expect(HeapCharge.mallocChunk(24) == 32)
        #expect(HeapCharge.mallocChunk(25) == 48)
    }

    static func outcome(_ name: String, _ environment: [String: String]) -> MallocTuning.Outcome? {
        MallocTuning.plan(environment: environment).first { $0.knob.name == name }?.outcome
    }

    @Test func mallocDefaults() {
        #expect(Self.outcome("ARENA_MAX", [:]) == .set(1))
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
        #expect(Self.outcome("ARENA_MAX", ["LAYOUTD_MALLOC_ARENA_MAX": "2"]) == .set(2))
        // A tunable whose name merely starts the same is not this one.
        #expect(Self.outcome("ARENA_MAX", ["GLIBC_TUNABLES": "glibc.malloc.arena_max_x=4"]) == .set(1))
    }

    /// The totals after the last arena, as glibc 2.36 prints them (two arenas, sizes trimmed).
    @Test func mallocInfoTotalsAreRead() throws {
        let xml = """
            <malloc version="1">
            <heap nr="0">
            <sizes>
              <size from="33" to="48" total="96" count="2"/>
              <unsorted from="4209" to="5009" total="41529" count="9"/>
            </sizes>
            <total type="fast" count="0" size="0"/>
            <total type="rest" count="40" size="128887"/>
            <system type="current" size="270336"/>
            <system type="max" size="270336"/>
            <aspace type="total" size="270336"/>
            <aspace type="mprotect" size="270336"/>
            </heap>
            <heap nr="1">
            <sizes>
            </sizes>
            <total type="fast" count="1" size="112"/>
            <total type="rest" count="51" size="129026"/>
            <system type="current" size="262144"/>
            <system type="max" size="262144"/>
            <aspace type="total" size="262144"/>
            <aspace type="mprotect" size="262144"/>
            <aspace type="subheaps" size="1"/>
            </heap>
            <total type="fast" count="1" size="112"/>
            <total type="rest" count="91" size="257913"/>
            <total type="mmap" count="2" size="4202496"/>
            <system type="current" size="532480"/>
            <system type="max" size="600000"/>
            <aspace type="total" size="532480"/>
            <aspace type="mprotect" size="532480"/>
            </malloc>
            """
        let totals = try #require(MallocStatistics.parse(xml))
        #expect(totals == MallocStatistics(arenas: 2, heapBytes: 532_480, freeBytes: 258_025, mmappedBytes: 4_202_496))
        #expect(totals.inUseBytes == 274_455)
        #expect(MallocStatistics.parse("<malloc version=\"1\">\n</malloc>") == nil)
    }

    #if canImport(Glibc)
    /// Whether `malloc` is glibc's: a sanitizer interposes its own from the executable, which
    /// is then the first definition found.
    static func mallocIsGlibcs() -> Bool {
        guard let libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD) else { return true }
        defer { dlclose(libc) }
        return dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc") == dlsym(libc, "malloc")
    }
    #endif

    /// glibc's real output for this process reads as consistent totals (tests run in
    /// parallel, so exact byte changes are not asserted). Under TSan or ASan (`.ci/run`'s
    /// sanitizer pass) the sanitizer serves malloc itself and glibc's heap can be empty.
    @Test func mallocInfoOfThisProcess() throws {
        #if canImport(Glibc)
        let totals = try #require(MallocStatistics.current())
        #expect(totals.arenas >= 1)
        if Self.mallocIsGlibcs() { #expect(totals.heapBytes > 0) }
        #expect(totals.freeBytes >= 0 && totals.freeBytes <= totals.heapBytes)
        #endif
    }
}
