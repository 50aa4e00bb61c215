// A tableau row: `basic = constant + sum(coefficient * symbol)`, cells sorted by symbol id so
// every walk over a row has a fixed order (no hash-map iteration anywhere in the solver).

@usableFromInline let solverEpsilon = 1.0e-8

@inlinable func nearZero(_ v: Double) -> Bool { v < solverEpsilon && v > -solverEpsilon }

@usableFromInline struct SolverCell {
    @usableFromInline var symbol: Int
    @usableFromInline var coefficient: Double
    @inlinable init(_ symbol: Int, _ coefficient: Double) {
        self.symbol = symbol
        self.coefficient = coefficient
    }
}

@usableFromInline struct SolverRow {
    @usableFromInline var cells: [SolverCell]
    @usableFromInline var constant: Double
    /// Bit `symbol % 64` is set for every symbol in `cells` (and maybe for symbols that left):
    /// a clear bit proves absence, so scans over the tableau skip most rows without searching.
    @usableFromInline var mask: UInt64 = 0

    @inlinable init(constant: Double = 0) {
        cells = []
        self.constant = constant
    }

    @inlinable static func bit(_ symbol: Int) -> UInt64 { 1 &<< UInt64(symbol & 63) }

    /// Whether `symbol` may be in the row (false means it is certainly not).
    @inlinable func mayContain(_ symbol: Int) -> Bool { mask & SolverRow.bit(symbol) != 0 }

    /// Position of `symbol` in `cells`, or the insertion point as `-(pos + 1)`.
    @inlinable func search(_ symbol: Int) -> Int {
        var lo = 0
        var hi = cells.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            let s = cells[mid].symbol
            if s < symbol { lo = mid + 1 } else if s > symbol { hi = mid } else { return mid }
        }
        return -(lo + 1)
    }

    @inlinable func coefficient(for symbol: Int) -> Double {
        if !mayContain(symbol) { return 0 }
        let i = search(symbol)
        return i >= 0 ? cells[i].coefficient : 0
    }

    @inlinable func contains(_ symbol: Int) -> Bool { mayContain(symbol) && search(symbol) >= 0 }

    /// Adds `coefficient` to the symbol's cell; drops the cell when it becomes ~0.
    @inlinable mutating func insert(_ symbol: Int, _ coefficient: Double) {
        let i = search(symbol)
        if i >= 0 {
            let c = cells[i].coefficient + coefficient
            if nearZero(c) { cells.remove(at: i) } else { cells[i].coefficient = c }
        } else if !nearZero(coefficient) {
            cells.insert(SolverCell(symbol, coefficient), at: -(i + 1))
            mask |= SolverRow.bit(symbol)
        }
    }

    @inlinable mutating func remove(_ symbol: Int) {
        let i = search(symbol)
        if i >= 0 { cells.remove(at: i) }
    }

    /// `self += other * factor`, merging the sorted cell lists through `scratch`.
    @inlinable mutating func add(_ other: SolverRow, times factor: Double, scratch: inout [SolverCell]) {
        constant += other.constant * factor
        if other.cells.isEmpty { return }
        mask |= other.mask
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(cells.count + other.cells.count)
        var i = 0
        var j = 0
        let a = cells.count
        let b = other.cells.count
        while i < a || j < b {
            if j == b || (i < a && cells[i].symbol < other.cells[j].symbol) {
                scratch.append(cells[i]); i += 1
            } else if i == a || other.cells[j].symbol < cells[i].symbol {
                let c = other.cells[j].coefficient * factor
                if !nearZero(c) { scratch.append(SolverCell(other.cells[j].symbol, c)) }
                j += 1
            } else {
                let c = cells[i].coefficient + other.cells[j].coefficient * factor
                if !nearZero(c) { scratch.append(SolverCell(cells[i].symbol, c)) }
                i += 1; j += 1
            }
        }
        swap(&cells, &scratch)
    }

    @inlinable mutating func reverseSign() {
        constant = -constant
        for i in cells.indices { cells[i].coefficient = -cells[i].coefficient }
    }

    /// Turns `0 = a*s + rest + c` into `s = -(rest + c)/a`; `symbol` must be present.
    @inlinable mutating func solve(for symbol: Int) {
        let i = search(symbol)
        let k = -1.0 / cells[i].coefficient
        cells.remove(at: i)
        constant *= k
        for j in cells.indices { cells[j].coefficient *= k }
    }

    /// Row `lhs = ... + b*rhs + ...` becomes `rhs = ...` (lhs moves into the cells).
    @inlinable mutating func solve(for lhs: Int, _ rhs: Int) {
        insert(lhs, -1)
        solve(for: rhs)
    }

    /// Replaces `symbol` by `row` when present. Returns whether it was present.
    @inlinable @discardableResult
    mutating func substitute(_ symbol: Int, with row: SolverRow, scratch: inout [SolverCell]) -> Bool {
        let i = search(symbol)
        if i < 0 { return false }
        let c = cells[i].coefficient
        cells.remove(at: i)
        add(row, times: c, scratch: &scratch)
        return true
    }
}
