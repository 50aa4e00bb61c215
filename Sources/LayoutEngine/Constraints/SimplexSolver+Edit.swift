// Edit variables: values suggested repeatedly (a container being resized, a drag), re-solved
// incrementally with the dual simplex instead of rebuilding the tableau.

extension SimplexSolver {
    /// Makes `variable` editable: adds `variable == suggestion` at the given non-required
    /// strength. The suggestion starts at 0; change it with `suggestValue(_:_:)`.
    public mutating func addEditVariable(_ variable: LinearVariable, strength: ConstraintStrength) throws {
        if edits.contains(where: { $0.variable == variable }) { throw SolverError.duplicateEditVariable(variable) }
        if strength.isRequired { throw SolverError.requiredEditStrength }
        let c = LinearConstraint(LinearExpression(variable), .equal, strength: strength, label: "edit(\(variable.id))")
        let handle = try add(c)
        let record = records[handle.index]!
        edits.append(EditInfo(variable: variable, handle: handle, marker: record.marker, other: record.other, constant: 0))
    }

    /// Removes an edit variable and its edit constraint.
    public mutating func removeEditVariable(_ variable: LinearVariable) throws {
        guard let i = edits.firstIndex(where: { $0.variable == variable }) else {
            throw SolverError.unknownEditVariable(variable)
        }
        let info = edits.remove(at: i)
        try removeRecord(info.handle, records[info.handle.index]!)
    }

    /// Whether `variable` is an edit variable.
    public func hasEditVariable(_ variable: LinearVariable) -> Bool {
        edits.contains(where: { $0.variable == variable })
    }

    /// Suggests a value for an edit variable and re-solves with the dual simplex.
    public mutating func suggestValue(_ variable: LinearVariable, _ value: Double) throws {
        guard let i = edits.firstIndex(where: { $0.variable == variable }) else {
            throw SolverError.unknownEditVariable(variable)
        }
        guard value.isFinite else {
            throw SolverError.invalidConstraint(label: "edit(\(variable.id))", reason: "suggested value is not finite")
        }
        let delta = value - edits[i].constant
        edits[i].constant = value
        // The edit constraint's constant lives wherever its error terms are: in the row of a
        // basic error term, or spread over the rows that mention the marker.
        let marker = edits[i].marker
        let other = edits[i].other
        // Keep the record's expression in step so a rebuild replays the current suggestion.
        records[edits[i].handle.index]!.constraint.expression.constant = -value
        let rm = Int(rowOf[marker])
        if rm >= 0 {
            rows[rm].constant -= delta
            if rows[rm].constant < 0 { infeasible.append(marker) }
        } else {
            let ro = Int(rowOf[other])
            if ro >= 0 {
                rows[ro].constant += delta
                if rows[ro].constant < 0 { infeasible.append(other) }
            } else {
                for r in rows.indices {
                    let c = rows[r].coefficient(for: marker)
                    if c != 0 {
                        rows[r].constant += delta * c
                        if rows[r].constant < 0 && kinds[basics[r]] != .external { infeasible.append(basics[r]) }
                    }
                }
            }
        }
        try dualOptimize()
    }

    /// Dual simplex: the objective is optimal but some restricted rows went negative.
    mutating func dualOptimize() throws {
        var pivots = 0
        while let leaving = infeasible.popLast() {
            let r = Int(rowOf[leaving])
            guard r >= 0, rows[r].constant < 0, !nearZero(rows[r].constant) else { continue }
            let entering = dualEnteringSymbol(rows[r])
            if entering < 0 { throw SolverError.internalError("dual optimize failed") }
            pivot(rowIndex: r, entering: entering)
            pivots += 1
            if pivots > limits.maxPivotsPerOperation {
                throw SolverError.iterationLimitExceeded(limit: limits.maxPivotsPerOperation)
            }
        }
    }

    /// The positive cell of an infeasible row with the lexicographically smallest
    /// objective / coefficient ratio.
    func dualEnteringSymbol(_ row: SolverRow) -> Int {
        var best = -1
        var bestCoefficient = 0.0
        for cell in row.cells where cell.coefficient > 0 && kinds[cell.symbol] != .dummy {
            if best < 0 || ratioLess(cell.symbol, cell.coefficient, best, bestCoefficient) {
                best = cell.symbol
                bestCoefficient = cell.coefficient
            }
        }
        return best
    }

    /// Lexicographic `objective(a)/ca < objective(b)/cb`, level by level, with a relative
    /// tolerance so rounding noise does not decide.
    func ratioLess(_ a: Int, _ ca: Double, _ b: Int, _ cb: Double) -> Bool {
        for l in objectives.indices {
            let ra = objectives[l].coefficient(for: a) / ca
            let rb = objectives[l].coefficient(for: b) / cb
            let tolerance = 1e-9 * max(1, abs(ra), abs(rb))
            if ra < rb - tolerance { return true }
            if ra > rb + tolerance { return false }
        }
        return false
    }
}
