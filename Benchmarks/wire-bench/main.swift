import Foundation
import LayoutEngine
import LayoutWire

// Times decoding of the same bytes with LayoutWire and with Foundation. Not run by CI; build
// with `swift run -c release wire-bench`.

/// This thread's CPU time in nanoseconds: less disturbed than wall time when other processes
/// share the cores.
func cpuNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// The number of calls of `body`, a power of two, that takes more than `nanoseconds` of CPU.
func iterations(lasting nanoseconds: UInt64, _ body: () -> Void) -> Int {
    var iterations = 1
    while true {
        let start = cpuNanoseconds()
        for _ in 0..<iterations { body() }
        if cpuNanoseconds() - start > nanoseconds { return iterations }
        iterations *= 2
    }
}

/// Best of 5 runs of the mean CPU time per operation, each run at least 0.1 s.
func measure(_ body: () -> Void) -> Double {
    body()  // warm up
    let iterations = iterations(lasting: 100_000_000, body)
    var best = Double.infinity
    for _ in 0..<5 {
        let start = cpuNanoseconds()
        for _ in 0..<iterations { body() }
        best = min(best, Double(cpuNanoseconds() - start) / Double(iterations))
    }
    return best
}

struct Row {
    var document: String
    var bytes: Int
    var method: String
    var nanoseconds: Double
}

var rows: [Row] = []
// Single-threaded: every write is on the main thread (`LayoutService.handle` answers a cache
// hit synchronously, inside the call), so the unchecked global is race-free.
nonisolated(unsafe) var sink = 0

@MainActor
func bench(_ name: String, _ bytes: [UInt8], isCaseArray: Bool) {
    func add(_ method: String, _ body: () -> Void) {
        rows.append(Row(document: name, bytes: bytes.count, method: method, nanoseconds: measure(body)))
    }
    add("LayoutWire parse (JSONValue)") {
        sink &+= (try? JSONValue.parse(bytes: bytes))?.count ?? 0
    }
    add("LayoutWire decode -> LayoutTree") {
        if isCaseArray {
            guard let cases = try? JSONValue.parse(bytes: bytes) else { fatalError("parse failed") }
            for c in cases.elements { sink &+= (try? LayoutWire.decodeRequest(c))?.tree.nodeCount ?? 0 }
        } else {
            sink &+= (try? LayoutWire.decodeRequest(bytes: bytes))?.tree.nodeCount ?? 0
        }
    }
    let data = Data(bytes)
    add("Foundation JSONSerialization") {
        sink &+= ((try? JSONSerialization.jsonObject(with: data)) as? NSObject)?.hash ?? 0
    }
    add("Foundation JSONDecoder (Codable)") {
        let decoder = JSONDecoder()
        if isCaseArray {
            sink &+= (try? decoder.decode([CodableRequest].self, from: data))?.count ?? 0
        } else {
            sink &+= (try? decoder.decode(CodableRequest.self, from: data))?.root.children?.count ?? 0
        }
    }
}

// `wire-bench --feed`: see FeedBench.swift.
if CommandLine.arguments.contains("--feed") {
    FeedBench.run()
    exit(0)
}

// `wire-bench --service FILE`: see ServicePath.swift.
if let flag = CommandLine.arguments.firstIndex(of: "--service"), flag + 1 < CommandLine.arguments.count {
    runServicePath(file: CommandLine.arguments[flag + 1])
    exit(0)
}

// Sanity: every document decodes.
let tree1k = Documents.generatedTree(nodes: 1_000)
let tree10k = Documents.generatedTree(nodes: 10_000)
for (name, doc) in [("1k", tree1k), ("10k", tree10k)] {
    do {
        let request = try LayoutWire.decodeRequest(bytes: doc)
        print("generated \(name): \(doc.count) bytes, \(request.tree.nodeCount) nodes")
    } catch { fatalError("\(name): \(error)") }
}

// `WIRE_BENCH_PROFILE=1`: only decode the 10,000-node tree for a while, for a profiler.
if ProcessInfo.processInfo.environment["WIRE_BENCH_PROFILE"] != nil {
    let end = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
    while DispatchTime.now().uptimeNanoseconds < end {
        sink &+= (try? LayoutWire.decodeRequest(bytes: tree10k))?.tree.nodeCount ?? 0
    }
    exit(0)
}

if let file = Documents.conformanceFile("align-content.json") {
    bench("align-content.json (128 cases)", file, isCaseArray: true)
}
bench("generated 1,000 nodes", tree1k, isCaseArray: false)
bench("generated 10,000 nodes", tree10k, isCaseArray: false)

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
func fixed(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }

print(pad("document", 32) + pad("method", 34) + lpad("µs/op", 10) + lpad("MB/s", 9) + lpad("vs decode", 11))
for row in rows {
    let reference = rows.first { $0.document == row.document && $0.method == "LayoutWire decode -> LayoutTree" }!
    let micro = row.nanoseconds / 1_000
    let throughput = Double(row.bytes) / row.nanoseconds * 1_000
    print(pad(row.document, 32) + pad(row.method, 34) + lpad(fixed(micro, 1), 10) + lpad(fixed(throughput, 0), 9)
          + lpad(fixed(row.nanoseconds / reference.nanoseconds, 2) + "x", 11))
}

// Encoding the response of a laid-out request.
for (name, doc) in [("generated 1,000 nodes", tree1k), ("generated 10,000 nodes", tree10k)] {
    guard var request = try? LayoutWire.decodeRequest(bytes: doc) else { continue }
    request.computeLayout()
    let size = LayoutWire.encodeResponse(request).count
    let nanoseconds = measure { sink &+= LayoutWire.encodeResponse(request).count }
    print(pad(name, 32) + pad("LayoutWire encodeResponse", 34) + lpad(fixed(nanoseconds / 1_000, 1), 10)
          + lpad(fixed(Double(size) / nanoseconds * 1_000, 0), 9) + "   (\(size) bytes out)")
}
if sink == 42 { print("") }
