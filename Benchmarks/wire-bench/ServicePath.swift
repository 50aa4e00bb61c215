import Foundation
import HTTPServer
import LayoutEngine
@_spi(Benchmarks) import LayoutServer
import LayoutWire

// `wire-bench --service FILE`: the in-process cost of an uncached `/compute` (decode, structural
// hash, layout, encode through `LayoutOnce`, no HTTP) against the engine's own build + layout
// of the same tree (as `layout-bench --fresh`), and each stage of the service path alone. The
// decode is the one-pass decoder's when the request is of its shape; the tape decoder's is
// timed beside it.
// Both run under layoutd's malloc settings (`MallocTuning`, applied here as `layoutd serve`
// does; `LAYOUTD_MALLOC_*=default` or GLIBC_TUNABLES override them the same way).

/// Pre-order copy of a decoded tree, rebuilt through the public `addNode` as a Swift client would.
struct Blueprint {
    var config: LayoutConfig
    var styles: [Style] = []
    var contents: [NodeContent] = []
    var parentIndex: [Int] = []

    init(tree: LayoutTree, root: NodeID) {
        config = tree.config
        var stack: [(NodeID, Int)] = [(root, -1)]
        while let (node, parent) = stack.popLast() {
            let index = styles.count
            styles.append(tree.style(of: node))
            contents.append(tree.content(of: node))
            parentIndex.append(parent)
            for child in tree.children(of: node).reversed() { stack.append((child, index)) }
        }
    }

    /// A fresh build and layout, as `layout-bench --fresh` times it; returns the root's width.
    func buildAndLayOut(_ request: LayoutRequest) -> Int {
        var (tree, root) = build()
        tree.computeLayout(root: root, available: request.available, direction: request.direction)
        return Int(tree.frame(of: root).width)
    }

    func build() -> (LayoutTree, NodeID) {
        var tree = LayoutTree(config: config)
        tree.reserveCapacity(styles.count)
        var ids: [NodeID] = []
        ids.reserveCapacity(styles.count)
        for i in 0..<styles.count {
            let id = try! tree.addNode(style: styles[i], content: contents[i])
            ids.append(id)
            if parentIndex[i] >= 0 { tree.appendChild(id, to: ids[parentIndex[i]]) }
        }
        return (tree, ids[0])
    }
}

@MainActor
func runServicePath(file: String) {
    let malloc = MallocTuning.apply(environment: ProcessInfo.processInfo.environment)
    print("malloc: " + malloc.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    guard let data = FileManager.default.contents(atPath: file) else { fatalError("cannot read \(file)") }
    let body = [UInt8](data)
    let decoded = try! LayoutWire.decodeRequest(bytes: body)
    let first = LayoutOnce.answer(body: body)
    precondition(first.status == 200, "service path answered \(first.status)")
    let blueprint = Blueprint(tree: decoded.tree, root: decoded.root)
    var laidOut = decoded
    laidOut.tree.computeLayout(root: decoded.root, available: decoded.available, direction: decoded.direction)
    // `WIRE_BENCH_PROFILE=1`: only the service path for 5 s, for a profiler.
    if ProcessInfo.processInfo.environment["WIRE_BENCH_PROFILE"] != nil {
        let end = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
        while DispatchTime.now().uptimeNanoseconds < end { sink &+= LayoutOnce.answer(body: body).body.count }
        return
    }
    // The request with repeats decoded as instances (as the service decodes it), laid out.
    let folded = try! LayoutWire.decodeRequest(bytes: body, foldsRepeats: true)
    var foldedLaidOut = folded
    foldedLaidOut.tree.subtreeReuse = SubtreeReuse(key: .processRandom)
    foldedLaidOut.tree.computeLayout(root: folded.root, available: folded.available, direction: folded.direction)
    let foldedFrames = foldedLaidOut.tree.preorderFrames(root: folded.root)
    let patcher = LeafPatcher(body: body, items: decoded.tree.childCount(of: decoded.root))
    let adder = ChildAdder(body: body, tree: decoded.tree, root: decoded.root)
    // `WIRE_BENCH_STAGE=<stage> WIRE_BENCH_COUNT=<n>`: only that stage, n times, for
    // `perf stat` (instruction and cycle counts move less than times on a shared machine).
    if let stage = ProcessInfo.processInfo.environment["WIRE_BENCH_STAGE"] {
        let count = Int(ProcessInfo.processInfo.environment["WIRE_BENCH_COUNT"] ?? "") ?? 1_000
        // A chain's first patches lay out afresh and splice a new answer; the steady state
        // (what Benchmarks/patch measures over minutes) comes after them.
        if stage.hasPrefix("patch") {
            for _ in 0..<100 { sink &+= patcher?.patch(changesOnly: stage == "patch-changes") ?? 0 }
        }
        for _ in 0..<count {
            switch stage {
            case "engine": sink &+= blueprint.buildAndLayOut(decoded)
            case "service": sink &+= LayoutOnce.answer(body: body).body.count
            case "decode": sink &+= (try? LayoutWire.decodeRequest(bytes: body))?.tree.nodeCount ?? 0
            case "hash":
                sink &+= Int(truncatingIfNeeded: decoded.tree.structuralHash(
                    root: decoded.root, available: decoded.available, direction: decoded.direction,
                    copies: decoded.subtreeCopies.list).low)
            case "patch", "patch-changes":
                guard let patcher else { fatalError("WIRE_BENCH_STAGE=\(stage): the tree has no leaves to patch") }
                sink &+= patcher.patch(changesOnly: stage == "patch-changes")
            case "patch-child", "patch-child-changes":
                guard let adder else { fatalError("WIRE_BENCH_STAGE=\(stage): the root has no children to add to") }
                sink &+= adder.patch(changesOnly: stage == "patch-child-changes")
            case "chain-start", "chain-start-kept":
                sink &+= FirstPatch.start(body, keepsTree: stage == "chain-start-kept") == nil ? 0 : 1
            case "first-patch", "first-patch-kept":
                sink &+= FirstPatch.run(body, keepsTree: stage == "first-patch-kept")
            case "encode":
                let frames = laidOut.tree.preorderFrames(root: laidOut.root)
                sink &+= ResponseEncoder.encode(tree: laidOut.tree, root: laidOut.root, ids: laidOut.ids,
                                                frames: frames, copies: laidOut.subtreeCopies).count
            // The stages of a request whose repeats are instances (`foldsRepeats`).
            case "decode-folded":
                guard var request = try? LayoutWire.decodeRequest(bytes: body, foldsRepeats: true) else { break }
                sink &+= request.tree.nodeCount
                TreeStoragePool.shared.recycle(&request.tree)
            case "hash-folded":
                sink &+= Int(truncatingIfNeeded: folded.tree.structuralHash(
                    root: folded.root, available: folded.available, direction: folded.direction).low)
            case "layout-folded":
                var request = folded
                request.tree.subtreeReuse = SubtreeReuse(key: .processRandom)
                request.tree.computeLayout(root: folded.root, available: folded.available, direction: folded.direction)
                sink &+= Int(request.tree.frame(of: folded.root).height)
            case "frames-folded":
                sink &+= foldedLaidOut.tree.preorderFrames(root: folded.root).count
            case "encode-folded":
                sink &+= ResponseEncoder.encode(tree: foldedLaidOut.tree, root: folded.root, ids: folded.ids,
                                                instanceIDs: folded.instanceIDs, frames: foldedFrames)?.count ?? 0
            default: fatalError("WIRE_BENCH_STAGE: engine, service, decode, hash, encode, patch, patch-changes, patch-child, patch-child-changes, chain-start(-kept), first-patch(-kept), or decode-, hash-, layout-, frames- and encode-folded")
            }
        }
        return
    }
    print("\(file): \(body.count) bytes, \(decoded.tree.nodeCount) nodes, answer \(first.body.count) bytes")

    var results: [(String, Double)] = []
    func add(_ name: String, _ body: () -> Void) { results.append((name, measure(body))) }
    add("engine build + layout (fresh)") { sink &+= blueprint.buildAndLayOut(decoded) }
    add("service path (LayoutOnce)") { sink &+= LayoutOnce.answer(body: body).body.count }
    // A large tree's arrays given back, as the service does (`TreeStoragePool`).
    let arrays = TreeStoragePool(capacityBytes: 64 << 20)
    add("  decode") {
        guard var request = try? LayoutWire.decodeRequest(bytes: body, storage: arrays) else { return }
        sink &+= request.tree.nodeCount
        arrays.recycle(&request.tree)
    }
    add("  decode from the tape (the fallback)") {
        guard var request = try? LayoutWire.decodeRequest(JSONValue.parse(bytes: body), storage: arrays) else { return }
        sink &+= request.tree.nodeCount
        arrays.recycle(&request.tree)
    }
    add("    of which parse (tape)") { sink &+= (try? JSONValue.parse(bytes: body))?.count ?? 0 }
    add("  structural hash") {
        sink &+= Int(truncatingIfNeeded: decoded.tree.structuralHash(root: decoded.root, available: decoded.available,
                                                                     direction: decoded.direction,
                                                                     copies: decoded.subtreeCopies.list).low)
    }
    add("  layout (fresh tree from decode)") {
        var tree = decoded.tree
        tree.computeLayout(root: decoded.root, available: decoded.available, direction: decoded.direction)
        sink &+= Int(tree.frame(of: decoded.root).width)
    }
    add("  encode (frames + JSON)") {
        let frames = laidOut.tree.preorderFrames(root: laidOut.root)
        sink &+= ResponseEncoder.encode(tree: laidOut.tree, root: laidOut.root, ids: laidOut.ids, frames: frames,
                                        copies: laidOut.subtreeCopies).count
    }
    // The cached path: an exact repeat answered by `LayoutService.handle` from the answer cache
    // (what the load test's cached run measures over HTTP, without the sockets).
    var configuration = ServiceConfiguration()
    configuration.logLevel = .warning
    let service = LayoutService(configuration: configuration)
    let repeated = HTTPRequest(method: "POST", target: "/compute", path: "/compute",
                               headers: ["Content-Type": "application/json"], body: body)
    service.handle(repeated) { _ in }
    add("service handle, answer-cache hit") { service.handle(repeated) { sink &+= $0.body.count } }
    if let patcher {
        add("patch of one leaf, whole answer") { sink &+= patcher.patch(changesOnly: false) }
        add("patch of one leaf, changesOnly") { sink &+= patcher.patch(changesOnly: true) }
    }
    if let adder {
        add("patch adding or removing a child") { sink &+= adder.patch() }
        add("  the same, changesOnly") { sink &+= adder.patch(changesOnly: true) }
    }
    if patcher != nil {
        // A new tree's first patch, whose base is what `/compute` kept: its body (the default)
        // or its laid-out tree (`--patch-keeps-computed-trees`). Each is the /compute and the
        // patch; the /compute alone is timed beside it.
        for keepsTree in [false, true] {
            let kept = keepsTree ? "tree" : "body"
            add("/compute keeping its \(kept) as a base") { sink &+= FirstPatch.start(body, keepsTree: keepsTree) == nil ? 0 : 1 }
            add("  the same, then one leaf patch") { sink &+= FirstPatch.run(body, keepsTree: keepsTree) }
        }
    }
    let engine = results[0].1
    for (name, ns) in results {
        print(name.padding(toLength: 36, withPad: " ", startingAt: 0)
              + String(format: "%9.1f µs %6.2fx engine", ns / 1_000, ns / engine))
    }
    if patcher != nil {
        let service = results[1].1
        let patches = results.filter { $0.0.hasPrefix("patch of one leaf") }.map(\.1)
        print(String(format: "patch / service path: whole answer %.3f, changesOnly %.3f (issue 11: <= 0.1 of the "
                     + "server's CPU, Benchmarks/patch)", patches[0] / service, patches[1] / service))
    }
    pairedRatio(body: body, blueprint: blueprint, decoded: decoded)
    if decoded.tree.nodeCount >= TreeStoragePool.minimumNodes {
        // A large tree built in arrays an earlier one gave back (`TreeStoragePool`), or fresh.
        let pool = TreeStoragePool(capacityBytes: 64 << 20)
        pairedRatio("service path without / with a tree pool", first: {
            sink &+= LayoutOnce.answer(body: body, treeStorage: pool).body.count
        }, second: { sink &+= LayoutOnce.answer(body: body, treeStorage: nil).body.count })
        pairedRatio("decode in fresh arrays / in arrays given back", first: {
            guard var request = try? LayoutWire.decodeRequest(bytes: body, storage: pool) else { return }
            sink &+= request.tree.nodeCount
            pool.recycle(&request.tree)
        }, second: { sink &+= (try? LayoutWire.decodeRequest(bytes: body, storage: nil))?.tree.nodeCount ?? 0 })
    }
}

/// The service's defaults, with bases kept in 64 MiB as `Benchmarks/patch/bench.py` keeps the
/// feeds: a patched 6,001-node feed (~10 MB) is most of the default 16 MiB (more than its shard before 2026-11-28).
let chainConfiguration: ServiceConfiguration = {
    var configuration = ServiceConfiguration()
    configuration.patchBaseBytes = 64 << 20
    return configuration
}()

/// A chain of `/compute/patch` calls on a tree, each changing one leaf's width on the last
/// answer's ETag, picked as Benchmarks/patch/bench.py picks it
/// (`/root/children/N/children/0/style/width`, N = 37 × step modulo the root's children).
@MainActor
final class LeafPatcher {
    private var chain: PatchChain
    private let items: Int
    private var step = 0

    /// nil when the tree's root has no children or the first patch is refused (no leaf there).
    init?(body: [UInt8], items: Int) {
        guard items > 0, let chain = PatchChain(body: body, configuration: chainConfiguration) else { return nil }
        self.chain = chain
        self.items = items
        guard patch(changesOnly: true) > 0 else { return nil }
    }

    /// One patch; the bytes of its answer (0 unless it was a 200).
    func patch(changesOnly: Bool) -> Int {
        step += 1
        let path = "/root/children/\(step * 37 % items)/children/0/style/width"
        let operations = #"[{"op":"replace","path":"\#(path)","value":\#(20 + step % 17)}]"#
        let (status, answer) = chain.patch(operations, changesOnly: changesOnly)
        return status == 200 ? answer.count : 0
    }
}

/// The first patch of a chain: a new tree sent whole (`/compute`, keeping its base), then one
/// leaf's width changed by `/compute/patch` on its ETag, as `LeafPatcher` changes it. What a
/// client that patches the trees it sends once pays, and what `--patch-keeps-computed-trees`
/// trades: with the default, the base is the body and the patch lays the tree out from scratch;
/// with the option, the base is the laid-out tree and every `/compute` pays for keeping it.
@MainActor
enum FirstPatch {
    static func configuration(keepsTree: Bool) -> ServiceConfiguration {
        var configuration = chainConfiguration
        configuration.patchKeepsComputedTrees = keepsTree
        return configuration
    }

    /// The chain's start: `body` computed with a new frame cache and base store.
    static func start(_ body: [UInt8], keepsTree: Bool) -> PatchChain? {
        PatchChain(body: body, configuration: configuration(keepsTree: keepsTree))
    }

    /// The start and one patch; the bytes of the patch's answer (0 unless it was a 200 made
    /// in place, as the chain's later patches are).
    static func run(_ body: [UInt8], keepsTree: Bool) -> Int {
        guard var chain = start(body, keepsTree: keepsTree) else { return 0 }
        let operations = #"[{"op":"replace","path":"/root/children/0/children/0/style/width","value":33}]"#
        let (status, answer) = chain.patch(operations)
        return status == 200 && chain.lastMode?.hasPrefix("in-place") == true ? answer.count : 0
    }
}

/// A chain of structural patches (made in place in a flexbox tree): a child added at the end of
/// one of the root's children (picked as `LeafPatcher` picks it), then removed again by the next
/// patch, so the tree keeps its size.
@MainActor
final class ChildAdder {
    private var chain: PatchChain
    private let childCounts: [Int]
    private var step = 0
    private var added: (item: Int, index: Int)?

    /// nil when the root has no children or the first patch is refused.
    init?(body: [UInt8], tree: LayoutTree, root: NodeID) {
        childCounts = tree.children(of: root).map { tree.childCount(of: $0) }
        guard !childCounts.isEmpty, let chain = PatchChain(body: body, configuration: chainConfiguration) else { return nil }
        self.chain = chain
        guard patch() > 0 else { return nil }
    }

    /// One patch; the bytes of its answer (0 unless it was a 200).
    func patch(changesOnly: Bool = false) -> Int {
        let operations: String
        if let (item, index) = added {
            operations = #"[{"op":"remove","path":"/root/children/\#(item)/children/\#(index)"}]"#
            added = nil
        } else {
            step += 1
            let item = step * 37 % childCounts.count
            operations = #"[{"op":"add","path":"/root/children/\#(item)/children/-","value":{"style":{"height":3}}}]"#
            added = (item, childCounts[item])
        }
        let (status, answer) = chain.patch(operations, changesOnly: changesOnly)
        return status == 200 ? answer.count : 0
    }
}

/// The service path against the engine's build + layout in pairs of short back-to-back runs
/// (each ~20 ms of CPU), so both sides of each ratio meet the same machine speed: on a shared
/// machine whose speed moves by 2x within a minute, the ratio of two separate bests can be off
/// by as much. Prints the median ratio and its quartiles over the pairs.
@MainActor
func pairedRatio(body: [UInt8], blueprint: Blueprint, decoded: LayoutRequest) {
    pairedRatio("service / engine", first: { sink &+= blueprint.buildAndLayOut(decoded) },
                second: { sink &+= LayoutOnce.answer(body: body).body.count })
}

/// The CPU time of `second` over `first`, in runs of about 20 ms of `first` taken in pairs
/// (`WIRE_BENCH_PAIRS`, default 40), each pair in alternating order so that a trend in speed
/// favours neither: the median and spread of the pairs' ratios.
func pairedRatio(_ label: String, first: () -> Void, second: () -> Void) {
    let iterations = iterations(lasting: 20_000_000, first)
    let pairs = Int(ProcessInfo.processInfo.environment["WIRE_BENCH_PAIRS"] ?? "") ?? 40
    var ratios: [Double] = []
    for pair in 0..<pairs {
        var times = (first: UInt64(0), second: UInt64(0))
        for side in (pair % 2 == 0 ? [0, 1] : [1, 0]) {
            let start = cpuNanoseconds()
            for _ in 0..<iterations { if side == 0 { first() } else { second() } }
            if side == 0 { times.first = cpuNanoseconds() - start } else { times.second = cpuNanoseconds() - start }
        }
        ratios.append(Double(times.second) / Double(times.first))
    }
    ratios.sort()
    let quartile = { (q: Double) in ratios[min(ratios.count - 1, Int(q * Double(ratios.count - 1) + 0.5))] }
    print(label + String(format: ", %d paired runs of %d: median %.2fx (quartiles %.2f-%.2f, range %.2f-%.2f)", pairs, iterations, quartile(0.5), quartile(0.25), quartile(0.75), ratios.first!, ratios.last!))
}
