// text-bench: the shaping cache on one request's text leaves (Benchmarks/text/run.py passes it
// the feed). Every round prepares (shapes) and measures every text leaf at WIDTH px:
//
//   cold   a new TextLayouter per round: an empty shaping cache, so only the words repeated
//          within the feed hit (the hit rate of one request in a fresh process);
//   warm   one TextLayouter for all rounds, after one round to fill it (every word hits);
//   none   a TextLayouter whose cache keeps 2 words: nearly every lookup shapes.
//
// Prints the median time of each (this thread's CPU time), the hit rates, and the speed-ups.
//
//     text-bench FEED.json [--width 318] [--rounds 15]
import Foundation
import LayoutText
import LayoutWire

func cpuMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The leaves of one request and the width they are laid out at.
struct Bench {
    let leaves: [TextLeaf]
    let width: Float

    /// One round: shape and measure every leaf at an imposed width, as the service's measure
    /// hook does for the cards' stretched leaves (no line texts are made); the CPU
    /// milliseconds, and the sum of the heights (so nothing is optimised away, and the three
    /// ways can be seen to agree).
    func round(_ layouter: TextLayouter) -> (ms: Double, height: Float) {
        let start = cpuMilliseconds()
        var height: Float = 0
        for leaf in leaves {
            height += layouter.prepare(leaf.content).measure(available: width, exact: true).height
        }
        return (cpuMilliseconds() - start, height)
    }
}

func hitRate(_ before: (hits: Int, misses: Int), _ after: (hits: Int, misses: Int)) -> Double {
    let hits = after.hits - before.hits, misses = after.misses - before.misses
    return hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses)
}

func format(_ x: Double) -> String { String(format: "%.2f", x) }

func main() {
    var arguments = CommandLine.arguments.dropFirst()
    var path: String?
    var width: Float = 318
    var rounds = 15
    while let argument = arguments.popFirst() {
        switch argument {
        case "--width": width = Float(arguments.popFirst() ?? "") ?? width
        case "--rounds": rounds = max(1, Int(arguments.popFirst() ?? "") ?? rounds)
        default: path = argument
        }
    }
    guard let path, let data = FileManager.default.contents(atPath: path) else {
        print("usage: text-bench FEED.json [--width PX] [--rounds N]")
        exit(2)
    }
    let request: LayoutRequest
    do {
        request = try LayoutWire.decodeRequest(bytes: [UInt8](data))
    } catch {
        print("text-bench: \(error)")
        exit(1)
    }
    guard !request.textLeaves.isEmpty else {
        print("text-bench: the request has no text leaves")
        exit(1)
    }
    let bench = Bench(leaves: request.textLeaves, width: width)
    _ = bench.round(TextLayouter(fonts: .bundled))  // fonts loaded, code paged in

    var cold: [Double] = [], coldRate = 0.0, heights: Set<Float> = []
    for _ in 0..<rounds {
        let layouter = TextLayouter(fonts: .bundled)
        let result = bench.round(layouter)
        cold.append(result.ms)
        heights.insert(result.height)
        coldRate = hitRate((0, 0), layouter.shapeCacheStatistics)
    }

    let warmLayouter = TextLayouter(fonts: .bundled)
    _ = bench.round(warmLayouter)
    let before = warmLayouter.shapeCacheStatistics
    var warm: [Double] = []
    for _ in 0..<rounds {
        let result = bench.round(warmLayouter)
        warm.append(result.ms)
        heights.insert(result.height)
    }
    let warmRate = hitRate(before, warmLayouter.shapeCacheStatistics)

    let noneLayouter = TextLayouter(fonts: .bundled, shapeCacheCapacity: 2)
    var none: [Double] = []
    for _ in 0..<rounds {
        let result = bench.round(noneLayouter)
        none.append(result.ms)
        heights.insert(result.height)
    }
    let noneRate = hitRate((0, 0), noneLayouter.shapeCacheStatistics)

    print("# text-bench: \(bench.leaves.count) text leaves at \(width) px, median of \(rounds) rounds (thread CPU time)")
    print("shaping cache  none: \(format(median(none))) ms (hit rate \(format(noneRate * 100)) %)")
    print("shaping cache  cold: \(format(median(cold))) ms (hit rate \(format(coldRate * 100)) %: words repeated within the feed)")
    print("shaping cache  warm: \(format(median(warm))) ms (hit rate \(format(warmRate * 100)) %)")
    print("speed-up       cold/none \(format(median(none) / median(cold)))x, warm/none \(format(median(none) / median(warm)))x")
    if heights.count != 1 { print("text-bench: the three ways gave different heights: \(heights.sorted())") }
}

main()
