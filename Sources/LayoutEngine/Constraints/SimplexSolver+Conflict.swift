// Recovery from an unsatisfiable required constraint: restore the tableau, then explain the
// failure with a minimal set of conflicting required constraints (deletion filtering).

extension SimplexSolver {
    /// Re-adds every live constraint to an empty tableau (after a failed phase one left the
    /// tableau changed). Handles and edit variables keep working.
    mutating func rebuild() throws {
        let saved = records
        for i in rowOf.indices { rowOf[i] = -1 }
        rows.removeAll(keepingCapacity: true)
        basics.removeAll(keepingCapacity: true)
        levels.removeAll()
        objectives.removeAll()
        infeasible.removeAll()
        artificial = nil
        records.removeAll(keepingCapacity: true)
        liveConstraints = 0
        for record in saved {
            guard let record else { records.append(nil); continue }
            guard case .added = try insert(record.constraint) else {
                throw SolverError.internalError("rebuild failed on '\(record.constraint.label)'")
            }
        }
        for i in edits.indices {
            let record = records[edits[i].handle.index]!
            edits[i].marker = record.marker
            edits[i].other = record.other
        }
    }

    /// The conflict explaining why `failing` could not be added.
    func conflict(for failing: LinearConstraint) -> ConstraintConflict {
        let required = records.compactMap { $0?.constraint }.filter { $0.strength.isRequired }
        // Only required constraints connected to the failing one through shared variables
        // can take part in the conflict.
        var marked = [Bool](repeating: false, count: kinds.count)
        for t in failing.expression.terms { marked[t.variable.id] = true }
        var taken = [Bool](repeating: false, count: required.count)
        var changed = true
        while changed {
            changed = false
            for (i, c) in required.enumerated() where !taken[i] {
                if c.expression.terms.contains(where: { marked[$0.variable.id] }) {
                    taken[i] = true
                    changed = true
                    for t in c.expression.terms { marked[t.variable.id] = true }
                }
            }
        }
        var group: [LinearConstraint] = []
        for (i, c) in required.enumerated() where taken[i] { group.append(c) }
        if group.count > limits.maxConflictSearch {
            return ConstraintConflict(failing: failing.label, labels: group.map(\.label) + [failing.label],
                                      isMinimal: false)
        }
        // Deletion filtering: drop each constraint whose absence keeps the set infeasible.
        var i = 0
        while i < group.count {
            var trial = group
            trial.remove(at: i)
            if isFeasible(trial + [failing]) { i += 1 } else { group = trial }
        }
        return ConstraintConflict(failing: failing.label, labels: group.map(\.label) + [failing.label],
                                  isMinimal: true)
    }

    /// Whether the constraints can all hold, tried in a scratch solver over the same variables.
    func isFeasible(_ constraints: [LinearConstraint]) -> Bool {
        var probe = SimplexSolver(limits: limits)
        probe.kinds = kinds
        probe.rowOf = [Int32](repeating: -1, count: kinds.count)
        for c in constraints {
            guard let outcome = try? probe.insert(c) else { return false }
            if case .unsatisfiable = outcome { return false }
        }
        return true
    }
}
