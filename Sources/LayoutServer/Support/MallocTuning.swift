#if canImport(Glibc)
import Glibc
#endif

/// glibc malloc settings for `layoutd serve` (process-wide, so the executable applies them),
/// applied with `mallopt` before the server starts any thread. Each has a default chosen from
/// the load benchmark (Benchmarks/load/RESULTS.md), an override `LAYOUTD_MALLOC_<NAME>` (a byte
/// count or number; `default` leaves glibc's own value), and yields to `GLIBC_TUNABLES`: a
/// tunable named there is never touched, so the standard glibc way of setting it always wins.
/// On another C library there is nothing to tune: `apply` changes nothing and says `not-glibc`.
public enum MallocTuning {
    /// One `mallopt` parameter.
    public struct Knob: Sendable {
        /// Upper snake case after `LAYOUTD_MALLOC_`: `ARENA_MAX`.
        public let name: String
        /// Its name in `GLIBC_TUNABLES`: `glibc.malloc.arena_max`.
        public let tunable: String
        /// The `M_*` constant of <malloc.h> (not in Swift's Glibc module).
        let parameter: Int32
        /// nil: glibc's own default.
        public let defaultValue: Int?

        public var environmentVariable: String { "LAYOUTD_MALLOC_" + name }
    }

    /// The knobs, with why each default is what it is.
    public static let knobs: [Knob] = [
        // glibc allows 8 arenas per core (16 on 2 cores); each keeps its own freed memory, so
        // work hopping between threads spreads one working set over many arenas. One: the
        // soak (256 connections, caches evicting all the time) showed the free bytes inside
        // the heaps growing 4.8 → 9.7 MB in 8 minutes with two arenas (in-use bytes flat
        // beside them: fragmentation, which was the RSS creep), and flat at 1.1–1.6 MB with
        // one; the per-thread caches (tcache) in front keep the single lock mostly untaken.
        Knob(name: "ARENA_MAX", tunable: "glibc.malloc.arena_max", parameter: -8 /* M_ARENA_MAX */, defaultValue: 1),
        // Fixed instead of glibc's dynamic threshold (which climbs to the largest block ever
        // freed): an ordinary miss allocates and frees its buffers every request (the body,
        // decode scratch, the tree's arrays, the answer: under 1 MiB each for the load
        // benchmark's 1,000-node tree), which then come back from the heap instead of fresh
        // mmaps and page faults; a huge tree's arrays (50,000 nodes: ~50 MB) are mmapped and
        // go back to the system when freed, where in the heap they stayed resident (one such
        // request left RSS at 85 MiB with 32 MiB here, 35 MiB with 1 MiB; slow_clients.py's
        // slow readers peaked at 139 and 93 MiB). The 1,000-node miss measured no difference
        // between 1 and 32 MiB (1,548 and 1,694 us of server CPU, alternating runs).
        Knob(name: "MMAP_THRESHOLD", tunable: "glibc.malloc.mmap_threshold", parameter: -3 /* M_MMAP_THRESHOLD */,
             defaultValue: 1 << 20),
        // Setting the mmap threshold freezes this one at its 128 KiB default, which would
        // return (and refault) the top of the heap after nearly every big free; 32 MiB keeps
        // a request's worth of scratch resident and still gives back larger bursts. 128 MiB
        // measured the same speed with nothing returned.
        Knob(name: "TRIM_THRESHOLD", tunable: "glibc.malloc.trim_threshold", parameter: -1 /* M_TRIM_THRESHOLD */,
             defaultValue: 32 << 20),
    ]

    /// What happened to one knob, for the start-up log line.
    public enum Outcome: Equatable, Sendable, CustomStringConvertible {
        case set(Int)
        case glibcDefault
        case fromGlibcTunables
        case invalid(String)

        public var description: String {
            switch self {
            case .set(let value): return "\(value)"
            case .glibcDefault: return "glibc-default"
            case .fromGlibcTunables: return "GLIBC_TUNABLES"
            case .invalid(let text): return "invalid(\(text)):glibc-default"
            }
        }
    }

    /// The value each knob should get in `environment`, without applying anything.
    public static func plan(environment: [String: String]) -> [(knob: Knob, outcome: Outcome)] {
        let tunables = environment["GLIBC_TUNABLES"] ?? ""
        return knobs.map { knob in
            if tunables.split(separator: ":").contains(where: { $0.hasPrefix(knob.tunable + "=") }) {
                return (knob, .fromGlibcTunables)
            }
            guard let text = environment[knob.environmentVariable] else {
                return (knob, knob.defaultValue.map(Outcome.set) ?? .glibcDefault)
            }
            if text.lowercased() == "default" { return (knob, .glibcDefault) }
            guard let value = ConfigurationSettings.parseByteCount(text), value > 0, value <= Int(Int32.max) else {
                return (knob, .invalid(text))
            }
            return (knob, .set(value))
        }
    }

    /// `mallopt` looked up at run time: <malloc.h> is not part of Swift's Glibc module. nil
    /// on other C libraries.
    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// `malloc_trim` looked up at run time, like `mallopt`. nil on other C libraries.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Gives the free pages inside malloc's heaps back to the system (`malloc_trim(0)`): glibc
    /// returns only the free top of a heap by itself, so pages freed below live blocks (a huge
    /// layout's scratch, cache entries evicted among others) stay resident until reused. Takes
    /// each arena's lock in turn for about a millisecond. False where there is nothing to call
    /// or nothing was returned.
    @discardableResult
    public static func releaseFreeMemory() -> Bool {
        guard let mallocTrim else { return false }
        return mallocTrim(0) == 1
    }

    /// Applies the plan for `environment`; returns knob name → outcome for the log.
    @discardableResult
    public static func apply(environment: [String: String]) -> [String: String] {
        guard let mallopt else {
            return Dictionary(uniqueKeysWithValues: knobs.map { ($0.name.lowercased(), "not-glibc") })
        }
        var applied: [String: String] = [:]
        for (knob, outcome) in plan(environment: environment) {
            var outcome = outcome
            if case .set(let value) = outcome, mallopt(knob.parameter, Int32(value)) != 1 {
                outcome = .invalid("mallopt refused \(value)")
            }
            applied[knob.name.lowercased()] = outcome.description
        }
        return applied
    }
}
