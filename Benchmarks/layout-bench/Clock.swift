#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The clock timings read: monotonic wall time (as yoga_bench.c), or with `--cpu-time` this
/// thread's CPU time, which other processes on the core do not inflate (what
/// Benchmarks/load/run.sh compares with the server's CPU time per request).
let benchClock = CommandLine.arguments.dropFirst().contains("--cpu-time") ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC

/// Nanoseconds on `benchClock`, read straight from the OS clock so timing adds no allocation.
@inline(__always) func nowNanoseconds() -> Double {
    var ts = timespec()
    clock_gettime(benchClock, &ts)
    return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
}

/// The median of `values` (the mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid])
}

/// `value` with `digits` decimals, without Foundation's String(format:).
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
    if digits > 0 {
        let frac = Int(scaled) - whole * Int(scale)
        let fracText = String(frac)
        text += "." + String(repeating: "0", count: digits - fracText.count) + fracText
    }
    return text
}
