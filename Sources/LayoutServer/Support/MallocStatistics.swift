#if canImport(Glibc)
import Glibc
#endif

/// glibc malloc's own account of its heaps, read with `malloc_info` (which takes each arena's
/// lock in turn and walks its free lists: fine for a metrics scrape, not for a hot path). It
/// tells apart what RSS alone cannot: bytes the program holds (`inUseBytes`, which grows if
/// live data grows) and free bytes malloc keeps inside its heaps (`freeBytes`, which grows if
/// the heaps fragment; after `malloc_trim` their whole pages are no longer resident, but the
/// bytes still count here).
public struct MallocStatistics: Equatable, Sendable {
    /// Arenas in use: the main heap and one per further arena (`arena-max` bounds them).
    public var arenas = 0
    /// Bytes the arenas' heaps hold from the system (`<system type="current">`), without
    /// blocks served by their own mmap.
    public var heapBytes = 0
    /// Free chunks inside those heaps (fastbins, bins and each arena's top chunk). Chunks in
    /// the per-thread caches (tcache) count as in use, as glibc counts them.
    public var freeBytes = 0
    /// Blocks above the mmap threshold, each its own mapping.
    public var mmappedBytes = 0

    /// What the program holds in the heaps: `heapBytes - freeBytes`.
    public var inUseBytes: Int { heapBytes - freeBytes }

    public init(arenas: Int = 0, heapBytes: Int = 0, freeBytes: Int = 0, mmappedBytes: Int = 0) {
        self.arenas = arenas
        self.heapBytes = heapBytes
        self.freeBytes = freeBytes
        self.mmappedBytes = mmappedBytes
    }

    /// Now, from `malloc_info`; nil on a C library without it.
    public static func current() -> MallocStatistics? {
        #if canImport(Glibc)
        guard let mallocInfo else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return nil }
        let status = mallocInfo(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard status == 0, let buffer else { return nil }
        return parse(String(cString: buffer))
        #else
        return nil
        #endif
    }

    /// The totals of a `malloc_info` document: the elements after the last `</heap>` (glibc
    /// prints each arena, then the sums), and the number of `<heap` elements.
    static func parse(_ xml: String) -> MallocStatistics? {
        let lines = xml.split(separator: "\n").map { $0.drop(while: { $0 == " " }) }
        let arenas = lines.count(where: { $0.hasPrefix("<heap nr=") })
        guard arenas > 0, let lastHeap = lines.lastIndex(where: { $0.hasPrefix("</heap>") }) else { return nil }
        var totals = MallocStatistics(arenas: arenas)
        for line in lines[(lastHeap + 1)...] {
            guard let type = attribute("type", in: line), let size = attribute("size", in: line).flatMap({ Int($0) }) else {
                continue
            }
            switch (line.hasPrefix("<total "), line.hasPrefix("<system "), type) {
            case (true, _, "fast"), (true, _, "rest"): totals.freeBytes += size
            case (true, _, "mmap"): totals.mmappedBytes = size
            case (_, true, "current"): totals.heapBytes = size
            default: break
            }
        }
        return totals
    }

    /// The value of `name="…"` in one element's text.
    private static func attribute(_ name: String, in element: Substring) -> Substring? {
        let marker = " \(name)=\""
        var rest = element[...]
        while !rest.isEmpty {
            if rest.hasPrefix(marker) {
                let value = rest.dropFirst(marker.count)
                return value.prefix(while: { $0 != "\"" })
            }
            rest = rest.dropFirst()
        }
        return nil
    }

    #if canImport(Glibc)
    /// `malloc_info` looked up at run time: <malloc.h> is not part of Swift's Glibc module.
    private static let mallocInfo: (@convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_info") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32).self)
    }()
    #endif
}
