// solver-bench: nanoseconds per solve of a FixFlex cell and a 100-view constraint layout,
// next to kiwisolver solving the same linear systems (kiwi_bench.py, run as a subprocess).
//
// Usage: swift run -c release solver-bench [iterations-scale]

import Foundation
import LayoutEngine

typealias I = FixFlexIntent

/// The FixFlex README cell: icon, title, subtitle, chevron.
func fixFlexCell() -> FixFlexLayout {
    var l = FixFlexLayout(base: ConstraintLayout(items: [
        ConstraintItem(name: "icon"), ConstraintItem(name: "title", intrinsicWidth: 150, intrinsicHeight: 24),
        ConstraintItem(name: "subtitle", intrinsicWidth: 200, intrinsicHeight: 22), ConstraintItem(name: "chevron"),
    ]))
    l.hstack(I.fix(15), I.fix([0], 44), I.fix(15), I.flex([1, 2]), I.fix(15), I.fix([3], 20), I.fix(15))
    l.vstack(I.fix(15), I.fix([0], 44), I.flex(min: 15))
    l.vstack(I.fix(15), I.flex([1]), I.flex([2]), I.fix(15))
    l.vstack(I.fill(), I.fix([3], 30), I.fill())
    return l
}

/// 10 rows of 10 labels: chained leading/trailing with 8 gaps, rows stacked 4 apart,
/// preferred width 60 @500 over content hugging, minimum width 30.
func hundredViews() -> ConstraintLayout {
    var l = ConstraintLayout()
    let c = LayoutItemRef.container
    var grid: [[LayoutItemRef]] = []
    for r in 0..<10 {
        var row: [LayoutItemRef] = []
        for k in 0..<10 {
            let v = l.addItem(ConstraintItem(name: "v\(r)_\(k)", intrinsicWidth: Double(40 + (r * 7 + k * 3) % 30), intrinsicHeight: 20))
            l.add(k == 0 ? v.leading.constraint(equalTo: c.leading, constant: 8)
                         : v.leading.constraint(equalTo: row[k - 1].trailing, constant: 8),
                  v.width.constraint(greaterThanOrEqualToConstant: 30),
                  v.width.constraint(equalToConstant: 60, priority: 500),
                  r == 0 ? v.top.constraint(equalTo: c.top, constant: 8)
                         : v.top.constraint(equalTo: grid[r - 1][k].bottom, constant: 4))
            if k == 9 { l.add(v.trailing.constraint(lessThanOrEqualTo: c.trailing, constant: -8)) }
            if r == 9 { l.add(v.bottom.constraint(lessThanOrEqualTo: c.bottom, constant: -8)) }
            row.append(v)
        }
        grid.append(row)
    }
    return l
}

func nanosPerRun(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { try body() }
    let d = clock.now - start
    let ns = Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
    return ns / Double(iterations)
}

func replay(_ system: ConstraintLinearSystem) throws -> SimplexSolver {
    var s = SimplexSolver()
    for _ in 0..<system.variableCount { _ = try s.makeVariable() }
    for c in system.constraints { try s.add(c) }
    return s
}

func exportJSON(_ name: String, _ system: ConstraintLinearSystem, iterations: Int) -> [String: Any] {
    let ops: [LinearRelation: String] = [.equal: "==", .lessThanOrEqual: "<=", .greaterThanOrEqual: ">="]
    return ["name": name, "variables": system.variableCount, "iterations": iterations,
            "constraints": system.constraints.map { c -> [String: Any] in
                ["terms": c.expression.terms.map { [$0.variable.id, $0.coefficient] as [Any] },
                 "constant": c.expression.constant, "op": ops[c.relation]!,
                 "priority": c.strength.priority, "weight": c.strength.weight]
            }]
}

let scale = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1 : 1
let cellSize = ConstraintContainerSize(width: 375, height: nil)
let gridSize = ConstraintContainerSize(width: 800, height: 400)
let cell = fixFlexCell()
let grid = hundredViews()
let cellLowered = try cell.lowered()
let cellSystem = try cellLowered.linearSystem(containerSize: cellSize)
let gridSystem = try grid.linearSystem(containerSize: gridSize)

struct Case {
    var name: String
    var system: ConstraintLinearSystem
    var iterations: Int
    var fullSolve: () throws -> Void
}
let cases = [
    Case(name: "fixflex-cell", system: cellSystem, iterations: 20_000 * scale, fullSolve: { _ = try cell.solve(containerSize: cellSize) }),
    Case(name: "grid-100-views", system: gridSystem, iterations: 200 * scale, fullSolve: { _ = try grid.solve(containerSize: gridSize) }),
]

// kiwisolver on the same systems.
let scriptURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("kiwi_bench.py")
let input = FileManager.default.temporaryDirectory.appendingPathComponent("solver-bench-\(getpid()).json")
let doc: [String: Any] = ["systems": cases.map { exportJSON($0.name, $0.system, iterations: max(1, $0.iterations / 10)) }]
try JSONSerialization.data(withJSONObject: doc).write(to: input)
defer { try? FileManager.default.removeItem(at: input) }
var kiwi: [String: [String: Any]] = [:]
var kiwiVersion = "unavailable"
do {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", scriptURL.path, input.path]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    if p.terminationStatus == 0, let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] {
        kiwi = json["results"] as? [String: [String: Any]] ?? [:]
        kiwiVersion = json["kiwisolver"] as? String ?? "?"
    } else {
        print("kiwi_bench.py failed (exit \(p.terminationStatus)); pip install kiwisolver")
    }
}

print("solver-bench (kiwisolver \(kiwiVersion))")
for c in cases {
    let full = try nanosPerRun(c.iterations) { try c.fullSolve() }
    var last = SimplexSolver()
    let raw = try nanosPerRun(c.iterations) { last = try replay(c.system) }
    let name = c.name.padding(toLength: 15, withPad: " ", startingAt: 0)
    var line = "\(name) \(c.system.constraints.count) constraints  swift solve \(Int(full)) ns (model+solve), \(Int(raw)) ns (linear system)"
    if let k = kiwi[c.name], let kns = k["ns"] as? Double {
        line += "  kiwisolver (Python API) \(Int(kns)) ns  ratio kiwi/swift \(String(format: "%.2f", kns / raw))"
        if let values = k["values"] as? [Double] {
            let diff = values.enumerated().map { abs($0.element - last.value(of: LinearVariable(id: $0.offset))) }.max() ?? 0
            line += "  max |swift-kiwi| \(String(format: "%.3g", diff))"
        }
    }
    print(line)
}
