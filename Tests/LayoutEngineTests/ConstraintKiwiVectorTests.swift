import Foundation
import Testing
@testable import LayoutEngine

// Differential test: random systems solved by kiwisolver (Tests/Scripts/kiwi_vectors.py)
// must solve to the same values here, within 0.01.

private struct KiwiVectors: Decodable {
    struct Constraint: Decodable {
        var terms: [[Double]]
        var constant: Double
        var op: String
        var strength: Double
    }
    struct Edit: Decodable {
        var variable: Int
        var strength: Double
        var suggest: [Double]
    }
    struct System: Decodable {
        var id: Int
        var variables: Int
        var constraints: [Constraint]
        var edits: [Edit]
        var unsatisfiableAt: Int?
        var solution: [Double]?
    }
    var kiwisolver: String
    var systems: [System]
}

private func loadVectors() throws -> KiwiVectors {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/constraints/kiwi-vectors.json")
    return try JSONDecoder().decode(KiwiVectors.self, from: Data(contentsOf: url))
}

/// Replays one system; returns nil when it matches kiwi, else a description of the mismatch.
private func replay(_ system: KiwiVectors.System) -> String? {
    var solver = SimplexSolver()
    do {
        let vars = try (0..<system.variables).map { _ in try solver.makeVariable() }
        for (index, c) in system.constraints.enumerated() {
            let terms = c.terms.map { LinearTerm(vars[Int($0[0])], $0[1]) }
            let relation: LinearRelation = c.op == "==" ? .equal : (c.op == "<=" ? .lessThanOrEqual : .greaterThanOrEqual)
            let constraint = LinearConstraint(LinearExpression(terms, constant: c.constant), relation,
                                              strength: .kiwi(c.strength), label: "c\(index)")
            do {
                try solver.add(constraint)
                if system.unsatisfiableAt == index { return "c\(index) accepted, kiwi rejects it" }
            } catch SolverError.unsatisfiable(let conflict) {
                if system.unsatisfiableAt == index {
                    return conflict.labels.last == "c\(index)" ? nil : "conflict does not name c\(index)"
                }
                return "c\(index) rejected (\(conflict)), kiwi accepts it"
            }
        }
        for e in system.edits {
            try solver.addEditVariable(vars[e.variable], strength: .kiwi(e.strength))
            for v in e.suggest { try solver.suggestValue(vars[e.variable], v) }
        }
        guard let expected = system.solution else { return "kiwi rejects c\(system.unsatisfiableAt ?? -1), accepted here" }
        let got = vars.map { solver.value(of: $0) }
        for (i, (g, x)) in zip(got, expected).enumerated() where abs(g - x) > 0.01 {
            return "v\(i) = \(g), kiwi \(x)"
        }
        return nil
    } catch {
        return "threw \(error)"
    }
}

@Suite struct ConstraintKiwiVectorTests {
    @Test func agreesWithKiwisolver() throws {
        let vectors = try loadVectors()
        #expect(vectors.systems.count >= 300)
        var agree = 0
        var failures: [String] = []
        for system in vectors.systems {
            if let problem = replay(system) {
                failures.append("system \(system.id): \(problem)")
            } else {
                agree += 1
            }
        }
        print("\(agree)/\(vectors.systems.count) kiwisolver systems agree (kiwisolver \(vectors.kiwisolver))")
        for f in failures.prefix(10) { print("  " + f) }
        #expect(agree == vectors.systems.count)
        #expect(vectors.systems.contains { $0.unsatisfiableAt != nil })
        #expect(vectors.systems.contains { !$0.edits.isEmpty })
    }
}
