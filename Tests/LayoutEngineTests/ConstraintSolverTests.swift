import Testing
@testable import LayoutEngine

// Hand-checked systems for the simplex solver.

private func expr(_ v: LinearVariable, _ c: Double = 1) -> LinearExpression {
    LinearExpression([LinearTerm(v, c)])
}

private func approx(_ a: Double, _ b: Double, _ tol: Double = 1e-6) -> Bool { abs(a - b) <= tol }

@Suite struct ConstraintSolverTests {
    @Test func requiredEqualitiesChain() throws {
        var s = SimplexSolver()
        let x = try s.makeVariable(), y = try s.makeVariable(), z = try s.makeVariable()
        try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: 10), label: "x=10"))
        try s.add(LinearConstraint(expr(y), .equal, expr(x) + 5, label: "y=x+5"))
        try s.add(LinearConstraint(expr(z) * 2, .equal, expr(x) + expr(y), label: "2z=x+y"))
        #expect(approx(s.value(of: x), 10))
        #expect(approx(s.value(of: y), 15))
        #expect(approx(s.value(of: z), 12.5))
    }

    @Test func inequalityWithWeakPreference() throws {
        var s = SimplexSolver()
        let x = try s.makeVariable()
        try s.add(LinearConstraint(expr(x), .greaterThanOrEqual, LinearExpression(constant: 40), label: "x>=40"))
        try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: 10),
                                   strength: ConstraintStrength(priority: 250), label: "x=10@250"))
        #expect(approx(s.value(of: x), 40))
        try s.add(LinearConstraint(expr(x), .lessThanOrEqual, LinearExpression(constant: 100), label: "x<=100"))
        try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: 120),
                                   strength: ConstraintStrength(priority: 500), label: "x=120@500"))
        #expect(approx(s.value(of: x), 100))
    }

    @Test func higherPriorityDominatesAnyNumberOfLowerOnes() throws {
        // One 750 constraint against twenty 250 constraints pulling the other way: a weighted
        // objective with close weights would let the many win; priorities must not.
        var s = SimplexSolver()
        let x = try s.makeVariable()
        try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: 100),
                                   strength: ConstraintStrength(priority: 750), label: "x=100@750"))
        for i in 0..<20 {
            try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: 0),
                                       strength: ConstraintStrength(priority: 250), label: "x=0@250#\(i)"))
        }
        #expect(approx(s.value(of: x), 100))
        // 251 beats 250 too, however large the 250 violation would be.
        var t = SimplexSolver()
        let y = try t.makeVariable()
        try t.add(LinearConstraint(expr(y), .equal, LinearExpression(constant: 0),
                                   strength: ConstraintStrength(priority: 250, weight: 1000), label: "a"))
        try t.add(LinearConstraint(expr(y), .equal, LinearExpression(constant: 1e6),
                                   strength: ConstraintStrength(priority: 251), label: "b"))
        #expect(approx(t.value(of: y), 1e6))
    }

    @Test func kiwiWeightsTradeOffInsideOneLevel() throws {
        // kiwi semantics: 1001 weak violations of 1 outweigh one medium violation of 1.
        var s = SimplexSolver()
        let x = try s.makeVariable()
        try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: 0), strength: .kiwi(1000), label: "m"))
        try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: 1), strength: .kiwi(1001), label: "w"))
        #expect(approx(s.value(of: x), 1))
    }

    @Test func requiredConflictNamesTheConstraints() throws {
        var s = SimplexSolver()
        let x = try s.makeVariable(), y = try s.makeVariable(), z = try s.makeVariable()
        try s.add(LinearConstraint(expr(z), .equal, LinearExpression(constant: 3), label: "unrelated z=3"))
        try s.add(LinearConstraint(expr(x), .greaterThanOrEqual, LinearExpression(constant: 10), label: "x>=10"))
        try s.add(LinearConstraint(expr(y), .equal, expr(x) + 5, label: "y=x+5"))
        try s.add(LinearConstraint(expr(x), .lessThanOrEqual, LinearExpression(constant: 50), label: "x<=50 (redundant)"))
        try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: 20),
                                   strength: ConstraintStrength(priority: 500), label: "pref"))
        do {
            try s.add(LinearConstraint(expr(y), .lessThanOrEqual, LinearExpression(constant: 12), label: "y<=12"))
            Issue.record("expected unsatisfiable")
        } catch SolverError.unsatisfiable(let conflict) {
            #expect(conflict.isMinimal)
            #expect(conflict.failing == "y<=12")
            #expect(conflict.labels == ["x>=10", "y=x+5", "y<=12"])
        }
        // The solver is unchanged and keeps working.
        #expect(approx(s.value(of: x), 20))
        #expect(approx(s.value(of: y), 25))
        #expect(s.constraintCount == 5)
        try s.add(LinearConstraint(expr(y), .lessThanOrEqual, LinearExpression(constant: 22), label: "y<=22"))
        #expect(approx(s.value(of: x), 17))
    }

    @Test func conflictingEqualitiesOnDummyRows() throws {
        var s = SimplexSolver()
        let x = try s.makeVariable()
        try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: 10), label: "x=10"))
        #expect(throws: SolverError.unsatisfiable(ConstraintConflict(failing: "x=20", labels: ["x=10", "x=20"], isMinimal: true))) {
            try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: 20), label: "x=20"))
        }
        // A redundant but consistent equality is accepted.
        try s.add(LinearConstraint(expr(x) * 2, .equal, LinearExpression(constant: 20), label: "2x=20"))
        #expect(approx(s.value(of: x), 10))
    }

    @Test func removeConstraintRestoresEarlierSolution() throws {
        var s = SimplexSolver()
        let x = try s.makeVariable()
        try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: 5),
                                   strength: ConstraintStrength(priority: 250), label: "x=5"))
        let h = try s.add(LinearConstraint(expr(x), .greaterThanOrEqual, LinearExpression(constant: 30), label: "x>=30"))
        #expect(approx(s.value(of: x), 30))
        try s.remove(h)
        #expect(approx(s.value(of: x), 5))
        #expect(throws: SolverError.unknownConstraint) { try s.remove(h) }
    }

    @Test func editVariablesFollowSuggestions() throws {
        // left + width = right, width >= 100, left >= 0, right <= edit(container width).
        var s = SimplexSolver()
        let w = try s.makeVariable(), left = try s.makeVariable(), width = try s.makeVariable()
        try s.add(LinearConstraint(expr(left), .greaterThanOrEqual, LinearExpression(), label: "left>=0"))
        try s.add(LinearConstraint(expr(width), .greaterThanOrEqual, LinearExpression(constant: 100), label: "width>=100"))
        try s.add(LinearConstraint(expr(left) + expr(width), .lessThanOrEqual, expr(w), label: "fits"))
        try s.add(LinearConstraint(expr(left), .equal, expr(w) - expr(width) - 10,
                                   strength: ConstraintStrength(priority: 750), label: "right inset 10"))
        try s.add(LinearConstraint(expr(width), .equal, expr(w) * 0.5,
                                   strength: ConstraintStrength(priority: 500), label: "half"))
        try s.addEditVariable(w, strength: ConstraintStrength(priority: 999))
        for (container, expectLeft, expectWidth) in [(400.0, 190.0, 200.0), (150.0, 40.0, 100.0), (1000.0, 490.0, 500.0), (90.0, 0.0, 100.0)] {
            try s.suggestValue(w, container)
            #expect(approx(s.value(of: left), expectLeft), "container \(container)")
            #expect(approx(s.value(of: width), expectWidth), "container \(container)")
        }
        #expect(approx(s.value(of: w), 100)) // the 999 suggestion of 90 yields to required constraints
        try s.removeEditVariable(w)
        #expect(!s.hasEditVariable(w))
        #expect(throws: SolverError.unknownEditVariable(w)) { try s.suggestValue(w, 10) }
        #expect(throws: SolverError.requiredEditStrength) { try s.addEditVariable(w, strength: .required) }
    }

    @Test func sameInputSameResultAndOrderIndependentWhenUnique() throws {
        func build(order: [Int]) throws -> [Double] {
            var s = SimplexSolver()
            let v = try (0..<4).map { _ in try s.makeVariable() }
            let cs: [LinearConstraint] = [
                LinearConstraint(expr(v[0]), .equal, LinearExpression(constant: 10), label: "a"),
                LinearConstraint(expr(v[1]), .equal, expr(v[0]) + 20, label: "b"),
                LinearConstraint(expr(v[2]), .greaterThanOrEqual, expr(v[1]), label: "c"),
                LinearConstraint(expr(v[2]), .equal, LinearExpression(constant: 0), strength: ConstraintStrength(priority: 300), label: "d"),
                LinearConstraint(expr(v[3]), .equal, expr(v[2]) * 2, strength: ConstraintStrength(priority: 600), label: "e"),
                LinearConstraint(expr(v[3]), .lessThanOrEqual, LinearExpression(constant: 50), label: "f"),
            ]
            for i in order { try s.add(cs[i]) }
            return v.map { s.value(of: $0) }
        }
        let a = try build(order: [0, 1, 2, 3, 4, 5])
        #expect(a.enumerated().allSatisfy { approx($0.element, [10, 30, 30, 50][$0.offset]) })
        for order in [[5, 4, 3, 2, 1, 0], [2, 0, 4, 1, 5, 3], [3, 5, 1, 4, 0, 2]] {
            let b = try build(order: order)
            #expect(zip(a, b).allSatisfy { approx($0, $1) }, "order \(order)")
        }
        // Ambiguous system (x + y = 10, nothing else): identical answers on every run.
        func ambiguous() throws -> [Double] {
            var s = SimplexSolver()
            let x = try s.makeVariable(), y = try s.makeVariable()
            try s.add(LinearConstraint(expr(x) + expr(y), .equal, LinearExpression(constant: 10), label: "sum"))
            try s.add(LinearConstraint(expr(x), .greaterThanOrEqual, LinearExpression(), label: "x>=0"))
            try s.add(LinearConstraint(expr(y), .greaterThanOrEqual, LinearExpression(), label: "y>=0"))
            return [s.value(of: x), s.value(of: y)]
        }
        let first = try ambiguous()
        for _ in 0..<5 { #expect(try ambiguous() == first) }
    }

    @Test func invalidInputIsATypedError() throws {
        var s = SimplexSolver(limits: SolverLimits(maxVariables: 2))
        let x = try s.makeVariable()
        _ = try s.makeVariable()
        #expect(throws: SolverError.limitExceeded(what: "variables", limit: 2)) { _ = try s.makeVariable() }
        #expect(throws: SolverError.invalidConstraint(label: "nan", reason: "constant is not finite")) {
            try s.add(LinearConstraint(expr(x), .equal, LinearExpression(constant: .nan), label: "nan"))
        }
        #expect(throws: SolverError.invalidConstraint(label: "ghost", reason: "unknown variable 99")) {
            try s.add(LinearConstraint(expr(LinearVariable(id: 99)), .equal, LinearExpression(), label: "ghost"))
        }
    }
}
