// An incremental Cassowary solver (the algorithm of Badros, Borning & Stuckey, in the shape
// kiwi gives it): a simplex tableau kept optimal and feasible after every add / remove, a dual
// simplex for edit-variable suggestions, and a lexicographic objective with one level per
// priority. Symbols are Int ids; rows hold sorted cells; rows live in one array, so every
// choice the solver makes depends only on the order of calls, never on hashing.

/// What a tableau symbol stands for.
@usableFromInline enum SymbolKind: UInt8 {
    /// A caller variable (unrestricted in sign).
    case external
    /// The slack of an inequality (>= 0).
    case slack
    /// An error term of a non-required constraint (>= 0, in the objective).
    case error
    /// The marker of a required equality (held at 0; never enters the basis).
    case dummy
}

/// A Cassowary-style incremental linear constraint solver in Double precision.
///
/// Add constraints with `add(_:)`; read values with `value(of:)`. Non-required constraints are
/// satisfied as well as possible, higher priorities strictly first (see `ConstraintStrength`).
/// Required constraints that cannot all hold make `add` throw `SolverError.unsatisfiable`,
/// naming a minimal conflicting set, and leave the solver as it was before the call.
public struct SimplexSolver {
    struct Record {
        var constraint: LinearConstraint
        var marker: Int
        var other: Int
    }

    struct EditInfo {
        var variable: LinearVariable
        var handle: ConstraintHandle
        var marker: Int
        var other: Int
        var constant: Double
    }

    /// Work bounds; see `SolverLimits`.
    public var limits: SolverLimits

    var kinds: [SymbolKind] = []
    /// Row index per symbol, -1 when the symbol is parametric (not basic).
    var rowOf: [Int32] = []
    var rows: [SolverRow] = []
    /// Basic symbol per row.
    var basics: [Int] = []
    /// Priority of each objective level, highest first; `objectives` is parallel.
    var levels: [Double] = []
    var objectives: [SolverRow] = []
    /// Phase-one objective while a row is added through an artificial variable.
    var artificial: SolverRow? = nil
    var infeasible: [Int] = []
    /// Constraint records by handle index; nil once removed.
    var records: [Record?] = []
    var liveConstraints = 0
    var edits: [EditInfo] = []
    var scratch: [SolverCell] = []
    var variableCount = 0

    /// An empty solver.
    public init(limits: SolverLimits = SolverLimits()) {
        self.limits = limits
    }

    /// A new variable, valued 0 until constraints say otherwise.
    public mutating func makeVariable() throws -> LinearVariable {
        guard variableCount < limits.maxVariables else {
            throw SolverError.limitExceeded(what: "variables", limit: limits.maxVariables)
        }
        variableCount += 1
        return LinearVariable(id: newSymbol(.external))
    }

    /// The current value of a variable.
    public func value(of variable: LinearVariable) -> Double {
        guard variable.id >= 0 && variable.id < rowOf.count else { return 0 }
        let r = Int(rowOf[variable.id])
        return r >= 0 ? rows[r].constant : 0
    }

    /// Number of constraints currently in the solver (edit constraints included).
    public var constraintCount: Int { liveConstraints }

    /// The constraint behind a handle, if it is still in the solver.
    public func constraint(_ handle: ConstraintHandle) -> LinearConstraint? {
        guard handle.index >= 0 && handle.index < records.count else { return nil }
        return records[handle.index]?.constraint
    }

    /// Adds a constraint and re-optimises.
    ///
    /// Throws `SolverError.unsatisfiable` when the constraint is required and conflicts with
    /// required constraints already present; the solver is then unchanged.
    @discardableResult
    public mutating func add(_ constraint: LinearConstraint) throws -> ConstraintHandle {
        try validate(constraint)
        guard liveConstraints < limits.maxConstraints else {
            throw SolverError.limitExceeded(what: "constraints", limit: limits.maxConstraints)
        }
        switch try insert(constraint) {
        case .added(let handle):
            return handle
        case .unsatisfiable(let tableauChanged):
            if tableauChanged { try rebuild() }
            throw SolverError.unsatisfiable(conflict(for: constraint))
        }
    }

    /// Removes a constraint and re-optimises.
    public mutating func remove(_ handle: ConstraintHandle) throws {
        guard handle.index >= 0 && handle.index < records.count, let record = records[handle.index] else {
            throw SolverError.unknownConstraint
        }
        if edits.contains(where: { $0.handle == handle }) { throw SolverError.unknownConstraint }
        try removeRecord(handle, record)
    }

    // MARK: - Core

    enum InsertOutcome {
        case added(ConstraintHandle)
        /// `tableauChanged`: phase one pivoted before failing, so the tableau must be rebuilt.
        case unsatisfiable(tableauChanged: Bool)
    }

    mutating func insert(_ constraint: LinearConstraint) throws -> InsertOutcome {
        var (row, marker, other) = makeRow(constraint)
        var subject = chooseSubject(row, marker, other)
        if subject < 0 && allDummies(row) {
            if !nearZero(row.constant) { return .unsatisfiable(tableauChanged: false) }
            subject = marker
        }
        if subject < 0 {
            if try !addWithArtificialVariable(row) { return .unsatisfiable(tableauChanged: true) }
        } else {
            row.solve(for: subject)
            substitute(subject, with: row)
            appendRow(subject, row)
        }
        let handle = ConstraintHandle(index: records.count)
        records.append(Record(constraint: constraint, marker: marker, other: other))
        liveConstraints += 1
        try optimize(artificialPhase: false)
        return .added(handle)
    }

    mutating func removeRecord(_ handle: ConstraintHandle, _ record: Record) throws {
        records[handle.index] = nil
        liveConstraints -= 1
        let strength = record.constraint.strength
        // Take the error terms out of the objective before pivoting.
        for marker in [record.marker, record.other] where marker >= 0 && kinds[marker] == .error {
            let l = levelIndex(strength.priority)
            let r = Int(rowOf[marker])
            if r >= 0 {
                objectives[l].add(rows[r], times: -strength.weight, scratch: &scratch)
            } else {
                objectives[l].insert(marker, -strength.weight)
            }
        }
        let r = Int(rowOf[record.marker])
        if r >= 0 {
            _ = removeRow(at: r)
        } else {
            guard let leavingIndex = markerLeavingRow(record.marker) else {
                throw SolverError.internalError("failed to find leaving row")
            }
            let leaving = basics[leavingIndex]
            var row = removeRow(at: leavingIndex)
            row.solve(for: leaving, record.marker)
            substitute(record.marker, with: row)
        }
        try optimize(artificialPhase: false)
    }

    mutating func newSymbol(_ kind: SymbolKind) -> Int {
        kinds.append(kind)
        rowOf.append(-1)
        return kinds.count - 1
    }

    /// Index of the objective level for a priority, created on first use.
    mutating func levelIndex(_ priority: Double) -> Int {
        var i = 0
        while i < levels.count && levels[i] > priority { i += 1 }
        if i < levels.count && levels[i] == priority { return i }
        levels.insert(priority, at: i)
        objectives.insert(SolverRow(), at: i)
        return i
    }

    func validate(_ c: LinearConstraint) throws {
        func bad(_ reason: String) -> SolverError { .invalidConstraint(label: c.label, reason: reason) }
        guard c.expression.constant.isFinite else { throw bad("constant is not finite") }
        for t in c.expression.terms {
            guard t.coefficient.isFinite else { throw bad("coefficient is not finite") }
            guard t.variable.id >= 0 && t.variable.id < kinds.count && kinds[t.variable.id] == .external else {
                throw bad("unknown variable \(t.variable.id)")
            }
        }
        guard c.strength.priority.isFinite && c.strength.priority > 0 else { throw bad("priority must be > 0") }
        if !c.strength.isRequired {
            guard c.strength.weight.isFinite && c.strength.weight > 0 else { throw bad("weight must be > 0") }
        }
    }

    /// The constraint as a row over parametric symbols, with its slack / error / dummy
    /// symbols; `marker` tracks the constraint in the tableau, `other` is its second error.
    mutating func makeRow(_ c: LinearConstraint) -> (SolverRow, Int, Int) {
        var row = SolverRow(constant: c.expression.constant)
        for term in c.expression.terms where !nearZero(term.coefficient) {
            let s = term.variable.id
            let r = Int(rowOf[s])
            if r >= 0 {
                row.add(rows[r], times: term.coefficient, scratch: &scratch)
            } else {
                row.insert(s, term.coefficient)
            }
        }
        var marker = -1
        var other = -1
        let required = c.strength.isRequired
        switch c.relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            let sign: Double = c.relation == .lessThanOrEqual ? 1 : -1
            marker = newSymbol(.slack)
            row.insert(marker, sign)
            if !required {
                other = newSymbol(.error)
                row.insert(other, -sign)
                let l = levelIndex(c.strength.priority)
                objectives[l].insert(other, c.strength.weight)
            }
        case .equal:
            if !required {
                marker = newSymbol(.error)
                other = newSymbol(.error)
                row.insert(marker, -1)
                row.insert(other, 1)
                let l = levelIndex(c.strength.priority)
                objectives[l].insert(marker, c.strength.weight)
                objectives[l].insert(other, c.strength.weight)
            } else {
                marker = newSymbol(.dummy)
                row.insert(marker, 1)
            }
        }
        if row.constant < 0 { row.reverseSign() }
        return (row, marker, other)
    }

    func chooseSubject(_ row: SolverRow, _ marker: Int, _ other: Int) -> Int {
        for cell in row.cells where kinds[cell.symbol] == .external { return cell.symbol }
        for s in [marker, other] where s >= 0 && (kinds[s] == .slack || kinds[s] == .error) {
            if row.coefficient(for: s) < 0 { return s }
        }
        return -1
    }

    func allDummies(_ row: SolverRow) -> Bool {
        row.cells.allSatisfy { kinds[$0.symbol] == .dummy }
    }

    /// Phase one for a row with no usable subject: minimise an artificial variable standing
    /// for the row; the constraint is satisfiable only if it reaches zero.
    mutating func addWithArtificialVariable(_ row: SolverRow) throws -> Bool {
        let art = newSymbol(.slack)
        appendRow(art, row)
        artificial = row
        defer { artificial = nil }
        try optimize(artificialPhase: true)
        let success = nearZero(artificial!.constant)
        let r = Int(rowOf[art])
        if r >= 0 {
            var artRow = removeRow(at: r)
            if artRow.cells.isEmpty { return success }
            guard let entering = artRow.cells.first(where: { kinds[$0.symbol] == .slack || kinds[$0.symbol] == .error })?.symbol else {
                return false
            }
            artRow.solve(for: art, entering)
            substitute(entering, with: artRow)
            appendRow(entering, artRow)
        }
        for i in rows.indices { rows[i].remove(art) }
        for l in objectives.indices { objectives[l].remove(art) }
        return success
    }

    mutating func appendRow(_ basic: Int, _ row: SolverRow) {
        rowOf[basic] = Int32(rows.count)
        rows.append(row)
        basics.append(basic)
    }

    /// Swap-removes a row; the last row takes its index.
    mutating func removeRow(at index: Int) -> SolverRow {
        let basic = basics[index]
        let last = rows.count - 1
        rows.swapAt(index, last)
        basics.swapAt(index, last)
        if index != last { rowOf[basics[index]] = Int32(index) }
        rowOf[basic] = -1
        basics.removeLast()
        return rows.removeLast()
    }

    /// Replaces a parametric symbol by `row` everywhere, noting rows that became infeasible.
    mutating func substitute(_ symbol: Int, with row: SolverRow) {
        // Raw buffers keep this hot loop free of per-row retain/release.
        let bit = SolverRow.bit(symbol)
        var work = [SolverCell]()
        swap(&work, &scratch)
        kinds.withUnsafeBufferPointer { kinds in
            basics.withUnsafeBufferPointer { basics in
                rows.withUnsafeMutableBufferPointer { rows in
                    for i in 0..<rows.count where rows[i].mask & bit != 0 {
                        if rows[i].substitute(symbol, with: row, scratch: &work)
                            && kinds[basics[i]] != .external && rows[i].constant < 0 {
                            infeasible.append(basics[i])
                        }
                    }
                }
            }
        }
        for l in objectives.indices { objectives[l].substitute(symbol, with: row, scratch: &work) }
        if artificial != nil { artificial!.substitute(symbol, with: row, scratch: &work) }
        swap(&work, &scratch)
    }

    mutating func pivot(rowIndex: Int, entering: Int) {
        let leaving = basics[rowIndex]
        var row = removeRow(at: rowIndex)
        row.solve(for: leaving, entering)
        substitute(entering, with: row)
        appendRow(entering, row)
    }

    /// Primal simplex iterations until the objective is minimal.
    mutating func optimize(artificialPhase: Bool) throws {
        var pivots = 0
        while true {
            let entering = artificialPhase ? artificialEnteringSymbol() : enteringSymbol()
            if entering < 0 { return }
            guard let r = leavingRow(for: entering) else {
                throw SolverError.internalError("the objective is unbounded")
            }
            pivot(rowIndex: r, entering: entering)
            pivots += 1
            if pivots > limits.maxPivotsPerOperation {
                throw SolverError.iterationLimitExceeded(limit: limits.maxPivotsPerOperation)
            }
        }
    }

    func artificialEnteringSymbol() -> Int {
        for cell in artificial!.cells where cell.coefficient < 0 && kinds[cell.symbol] != .dummy {
            return cell.symbol
        }
        return -1
    }

    /// Bland's rule over the lexicographic objective: the lowest symbol whose reduced cost
    /// is negative at its most significant non-zero level.
    func enteringSymbol() -> Int {
        var best = -1
        objectives.withUnsafeBufferPointer { objectives in
            kinds.withUnsafeBufferPointer { kinds in
                for l in 0..<objectives.count {
                    objectives[l].cells.withUnsafeBufferPointer { cells in
                        for cell in cells where cell.coefficient < 0 {
                            if best >= 0 && cell.symbol >= best { break }
                            if kinds[cell.symbol] == .dummy { continue }
                            var dominated = false
                            for h in 0..<l where objectives[h].contains(cell.symbol) {
                                dominated = true
                                break
                            }
                            if !dominated { best = cell.symbol; break }
                        }
                    }
                }
            }
        }
        return best
    }

    /// Minimum-ratio row for the entering symbol; ties go to the lowest basic symbol.
    func leavingRow(for entering: Int) -> Int? {
        var ratio = Double.greatestFiniteMagnitude
        var found = -1
        let bit = SolverRow.bit(entering)
        kinds.withUnsafeBufferPointer { kinds in
            basics.withUnsafeBufferPointer { basics in
                rows.withUnsafeBufferPointer { rows in
                    for i in 0..<rows.count where rows[i].mask & bit != 0 && kinds[basics[i]] != .external {
                        let c = rows[i].coefficient(for: entering)
                        if c < 0 {
                            let r = -rows[i].constant / c
                            if r < ratio || (found >= 0 && r == ratio && basics[i] < basics[found]) {
                                ratio = r
                                found = i
                            }
                        }
                    }
                }
            }
        }
        return found >= 0 ? found : nil
    }

    /// Where a non-basic marker leaves the basis when its constraint is removed.
    func markerLeavingRow(_ marker: Int) -> Int? {
        var r1 = Double.greatestFiniteMagnitude
        var r2 = Double.greatestFiniteMagnitude
        var first = -1
        var second = -1
        var third = -1
        for i in rows.indices {
            let c = rows[i].coefficient(for: marker)
            if c == 0 { continue }
            if kinds[basics[i]] == .external {
                third = i
            } else if c < 0 {
                let r = -rows[i].constant / c
                if r < r1 { r1 = r; first = i }
            } else {
                let r = rows[i].constant / c
                if r < r2 { r2 = r; second = i }
            }
        }
        if first >= 0 { return first }
        if second >= 0 { return second }
        return third >= 0 ? third : nil
    }
}
