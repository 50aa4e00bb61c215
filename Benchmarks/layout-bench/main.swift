// layout-bench: times the engine on the trees of FORMAT.md case files, in the output format
// of shared/reference/yoga_bench.c so the two can be compared line by line:
//
//     tree<TAB>nodes<TAB>ns_per_layout<TAB>ns_per_node        (median over rounds)
//
// Lines starting with '#' are information; `check ok` / `check MISMATCH` lines report the
// LTR layout against the case's expected frames.
//
// Default (relayout): each tree is built once, then laid out again and again, alternating the
// owner direction LTR/RTL on every call so that every node is recomputed (as yoga_bench.c
// does). --fresh: every timed call builds the tree anew and lays it out once (build + layout).
// --exact: the trees relay out exactly (`LayoutTree.relayoutsExactly`), which logs every node's
// questions; a call in the other direction starts fresh, so against the default this shows
// what the logs and the fresh start cost a whole layout.
//
// Malloc: --fresh allocates every array of a tree per call, so glibc's dynamic mmap threshold
// can turn it into a page-fault benchmark. To measure the engine as layoutd runs it, give it
// layoutd's settings (its start-up `malloc` log line; Benchmarks/load/run.sh does this):
//     GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=33554432
// The settings in effect are printed as a `# malloc:` line.
import LayoutEngine
import LayoutWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Options {
    var paths: [String] = []
    var fresh = false
    var exact = false
    var rounds = 9
    /// Target duration of one round, in seconds.
    var roundSeconds = 0.2
    var iterations = 0
    var only: String? = nil
    /// Print every case's frames instead of timing (for Tests/Scripts/yoga_diff_minimize.py).
    var dump = false
}

func usage() -> Never {
    print("""
        usage: layout-bench [--fresh] [--exact] [--cpu-time] [--rounds R] [--round-seconds S] [--iterations N] \
        [--tree NAME] FILE.json...
               layout-bench --dump FILE.json...   (name<TAB>frames in pre-order, no timing)
        """)
    exit(2)
}

func parseOptions() -> Options {
    var options = Options()
    var args = CommandLine.arguments.dropFirst()
    func value() -> String {
        guard let next = args.popFirst() else { usage() }
        return next
    }
    while let arg = args.popFirst() {
        switch arg {
        case "--fresh": options.fresh = true
        case "--exact": options.exact = true
        case "--cpu-time": break // read by `benchClock`
        case "--dump": options.dump = true
        case "--rounds": guard let n = Int(value()) else { usage() }; options.rounds = max(1, n)
        case "--round-seconds": guard let s = Double(value()) else { usage() }; options.roundSeconds = s
        case "--iterations": guard let n = Int(value()) else { usage() }; options.iterations = n
        case "--tree": options.only = value()
        case "-h", "--help": usage()
        default:
            if arg.hasPrefix("-") { usage() }
            options.paths.append(arg)
        }
    }
    if options.paths.isEmpty { usage() }
    return options
}

/// Lays the tree out `count` times, flipping the direction on every call.
@inline(never)
func timeRelayouts(_ tree: inout LayoutTree, _ request: LayoutRequest, _ count: Int, _ toggle: inout Bool) -> Double {
    let start = nowNanoseconds()
    for _ in 0..<count {
        toggle.toggle()
        tree.computeLayout(root: request.root, available: request.available, direction: toggle ? .rtl : .ltr)
    }
    return nowNanoseconds() - start
}

/// Builds and lays out a fresh tree `count` times, in the case's own direction.
@inline(never)
func timeFreshLayouts(_ blueprint: TreeBlueprint, _ request: LayoutRequest, _ count: Int, exact: Bool) -> Double {
    let start = nowNanoseconds()
    for _ in 0..<count {
        var (tree, root) = blueprint.build()
        tree.relayoutsExactly = exact
        tree.computeLayout(root: root, available: request.available, direction: request.direction)
    }
    return nowNanoseconds() - start
}

func bench(_ item: BenchCase, _ options: Options) -> Bool {
    let request = item.request
    var tree = request.tree
    tree.relayoutsExactly = options.exact
    // Correctness first: LTR, then RTL and LTR again, must land on the expected frames.
    tree.computeLayout(root: request.root, available: request.available, direction: request.direction)
    tree.computeLayout(root: request.root, available: request.available,
                       direction: request.direction == .rtl ? .ltr : .rtl)
    tree.computeLayout(root: request.root, available: request.available, direction: request.direction)
    let bad = item.mismatches(in: tree)
    if bad.isEmpty {
        print("check ok\t\(item.name)\t\(item.nodeCount) nodes")
    } else {
        print("check MISMATCH\t\(item.name)\t\(bad.count)+ nodes")
        for line in bad { print("# \(line)") }
    }

    let blueprint = TreeBlueprint(tree: request.tree, root: request.root)
    var toggle = false
    let run: (Int) -> Double = { count in
        options.fresh ? timeFreshLayouts(blueprint, request, count, exact: options.exact) : timeRelayouts(&tree, request, count, &toggle)
    }
    // Warm up and calibrate to about `roundSeconds` per round, as yoga_bench.c does.
    var warm = 2
    var elapsed = run(warm)
    // A fixed count (`--iterations`) gets a fixed warm-up too: two runs then differ by their
    // layouts alone, which instructions.sh counts.
    while options.iterations <= 0 && elapsed < 2e7 {
        warm *= 2
        elapsed = run(warm)
    }
    var count = options.iterations > 0 ? options.iterations : Int(options.roundSeconds * 1e9 / (elapsed / Double(warm)))
    count = max(2, count)
    if options.iterations <= 0 && count % 2 == 1 { count += 1 }  // equal LTR and RTL calls

    var perLayout: [Double] = []
    for _ in 0..<options.rounds { perLayout.append(run(count) / Double(count)) }
    let med = median(perLayout)
    if !options.fresh {
        // For scale: a call on a clean tree (same direction again) should do almost nothing.
        let clean = max(2, count / 4)
        let start = nowNanoseconds()
        for _ in 0..<clean {
            tree.computeLayout(root: request.root, available: request.available, direction: .ltr)
        }
        print("# \(item.name): clean relayout (nothing changed) \(fixed((nowNanoseconds() - start) / Double(clean), 0)) ns")
    }
    print("# \(item.name): \(options.rounds) rounds x \(count) layouts, min \(fixed(perLayout.min()!, 0)) "
          + "max \(fixed(perLayout.max()!, 0)) ns/layout\(options.fresh ? " (fresh: build + layout)" : "")"
          + (options.exact ? " (exact relayouts)" : ""))
    print("\(item.name)\t\(item.nodeCount)\t\(fixed(med, 0))\t\(fixed(med / Double(item.nodeCount), 1))")
    fflush(nil) // all streams: `stdout` is a mutable C global, which Swift 6 rejects
    return bad.isEmpty
}

/// One line per case: its name, then every node's frame in pre-order as `left top width height`
/// separated by `;`, after one layout in the case's own direction.
func dump(_ item: BenchCase) {
    var tree = item.request.tree
    tree.computeLayout(root: item.request.root, available: item.request.available, direction: item.request.direction)
    var frames: [String] = []
    func visit(_ node: NodeID) {
        let f = tree.frame(of: node)
        frames.append("\(f.left) \(f.top) \(f.width) \(f.height)")
        for child in tree.children(of: node) { visit(child) }
    }
    visit(item.request.root)
    print("\(item.name)\t\(frames.joined(separator: ";"))")
}

let options = parseOptions()
var allGood = true
if !options.dump {
    let tunables = getenv("GLIBC_TUNABLES").map { String(cString: $0) } ?? ""
    print("# malloc: \(tunables.isEmpty ? "glibc defaults (no GLIBC_TUNABLES)" : "GLIBC_TUNABLES=" + tunables)"
          + "; clock: \(benchClock == CLOCK_MONOTONIC ? "wall (monotonic)" : "thread CPU time")")
    print("# tree\tnodes\tns_per_layout\tns_per_node")
}
for path in options.paths {
    let cases: [BenchCase]
    do {
        cases = try BenchCase.load(path: path, limits: WireLimits(maxNodes: 1_000_000))
    } catch {
        print("# cannot load \(path): \(error)")
        allGood = false
        continue
    }
    for item in cases where options.only == nil || item.name == options.only {
        if options.dump { dump(item) } else { allGood = bench(item, options) && allGood }
    }
}
exit(allGood ? 0 : 1)
