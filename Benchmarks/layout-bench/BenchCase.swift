import Foundation
import LayoutEngine
import LayoutWire

/// One tree to time: the decoded request and the expected LTR frames, if the case has them.
struct BenchCase {
    /// The case name as printed: bench-trees.json's `bench_<tree>_ltr` shortened to `<tree>`,
    /// the spelling of `yoga_bench.c`, so the two outputs line up.
    var name: String
    var request: LayoutRequest
    var expected: JSONValue?
    var nodeCount: Int

    /// Every case of a FORMAT.md case file.
    static func load(path: String, limits: WireLimits) throws -> [BenchCase] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let document = try JSONValue.parse(bytes: Array(data), limits: limits)
        let cases = document.kind == .array ? document.elements : [document]
        return try cases.map { value in
            // The decoder ignores the case metadata (name, source, expected, tags).
            let request = try LayoutWire.decodeRequest(value, limits: limits)
            let name = value["name"]?.stringValue ?? "unnamed"
            return BenchCase(name: shortName(name), request: request, expected: value["expected"],
                             nodeCount: countNodes(request.tree, request.root))
        }
    }

    static func shortName(_ name: String) -> String {
        guard name.hasPrefix("bench_") else { return name }
        var short = String(name.dropFirst("bench_".count))
        if short.hasSuffix("_ltr") { short = String(short.dropLast("_ltr".count)) }
        return short
    }

    static func countNodes(_ tree: LayoutTree, _ node: NodeID) -> Int {
        var count = 1
        for child in tree.children(of: node) { count += countNodes(tree, child) }
        return count
    }

    /// Compares the tree's frames with `expected`; returns the first few mismatches.
    func mismatches(in tree: LayoutTree, limit: Int = 5) -> [String] {
        guard let expected else { return [] }
        var out: [String] = []
        func walk(_ node: NodeID, _ want: JSONValue) {
            let got = tree.frame(of: node)
            let w = ["left", "top", "width", "height"].map { Float(want[$0]?.doubleValue ?? .nan) }
            let g = [got.left, got.top, got.width, got.height]
            if zip(g, w).contains(where: { !(abs($0 - $1) <= 0.01) }), out.count < limit {
                out.append("\(want["id"]?.stringValue ?? "?"): got \(g) want \(w)")
            }
            let ours = Array(tree.children(of: node))
            for (i, child) in (want["children"]?.elements ?? []).enumerated() where i < ours.count {
                walk(ours[i], child)
            }
        }
        walk(request.root, expected)
        return out
    }
}
