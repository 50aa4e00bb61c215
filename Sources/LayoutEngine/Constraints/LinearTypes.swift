// Value types of the linear constraint solver: variables, expressions, relations, strengths.

/// A solver variable: an opaque id handed out by `SimplexSolver.makeVariable()`.
public struct LinearVariable: Hashable, Sendable, Comparable {
    /// The solver's symbol id for this variable.
    public let id: Int
    @inlinable public init(id: Int) { self.id = id }
    @inlinable public static func < (a: LinearVariable, b: LinearVariable) -> Bool { a.id < b.id }
}

/// One `coefficient * variable` term of a linear expression.
public struct LinearTerm: Hashable, Sendable {
    public var variable: LinearVariable
    public var coefficient: Double
    @inlinable public init(_ variable: LinearVariable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }
}

/// `sum(terms) + constant`. Terms may repeat a variable; the solver adds them up.
public struct LinearExpression: Hashable, Sendable {
    public var terms: [LinearTerm]
    public var constant: Double

    @inlinable public init(_ terms: [LinearTerm] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    /// The expression `1 * variable`.
    @inlinable public init(_ variable: LinearVariable) {
        self.terms = [LinearTerm(variable)]
        self.constant = 0
    }

    /// A constant expression.
    @inlinable public init(constant: Double) {
        self.terms = []
        self.constant = constant
    }

    /// Adds `other * factor` to this expression.
    @inlinable public mutating func add(_ other: LinearExpression, times factor: Double = 1) {
        for term in other.terms {
            terms.append(LinearTerm(term.variable, term.coefficient * factor))
        }
        constant += other.constant * factor
    }

    /// Adds `coefficient * variable`.
    @inlinable public mutating func add(_ variable: LinearVariable, times coefficient: Double = 1) {
        terms.append(LinearTerm(variable, coefficient))
    }

    public static func + (a: LinearExpression, b: LinearExpression) -> LinearExpression {
        var r = a; r.add(b); return r
    }
    public static func - (a: LinearExpression, b: LinearExpression) -> LinearExpression {
        var r = a; r.add(b, times: -1); return r
    }
    public static func + (a: LinearExpression, c: Double) -> LinearExpression {
        var r = a; r.constant += c; return r
    }
    public static func - (a: LinearExpression, c: Double) -> LinearExpression {
        var r = a; r.constant -= c; return r
    }
    public static func * (a: LinearExpression, c: Double) -> LinearExpression {
        var r = LinearExpression(); r.add(a, times: c); return r
    }
}

/// How a constraint relates its expression to zero.
public enum LinearRelation: UInt8, Hashable, Sendable, CaseIterable {
    /// `expression == 0`
    case equal
    /// `expression <= 0`
    case lessThanOrEqual
    /// `expression >= 0`
    case greaterThanOrEqual
}

/// How much a constraint matters.
///
/// The solver minimises violations lexicographically by `priority`: every distinct priority
/// below 1000 is its own objective level, and a higher level always dominates any amount of
/// violation at lower levels (Auto Layout's promise that higher priorities are satisfied
/// first, kept exactly instead of approximated with large weights). Inside one level,
/// violations are summed, each multiplied by `weight`: that is Cassowary's / kiwi's classic
/// weighted objective, which `kiwi(_:)` uses with kiwi's own weights.
/// Priority 1000 (or more) means required: it must hold exactly or the add fails.
public struct ConstraintStrength: Hashable, Sendable {
    /// Auto Layout priority, 1...1000; 1000 is required.
    public var priority: Double
    /// Weight of this constraint's violation inside its priority level; > 0.
    public var weight: Double

    @inlinable public init(priority: Double, weight: Double = 1) {
        self.priority = priority
        self.weight = weight
    }

    /// Must hold exactly.
    public static let required = ConstraintStrength(priority: 1000)

    /// Whether this strength is required.
    @inlinable public var isRequired: Bool { priority >= 1000 }

    /// kiwi's `strength::required` weight, 1001001000.
    public static let kiwiRequiredWeight: Double = 1_001_001_000

    /// A kiwi strength given as its raw weight (`strong` = 1e6, `medium` = 1e3, `weak` = 1):
    /// the weight is clipped to kiwi's required value, which maps to `.required`; every other
    /// weight lives in one shared priority level so they trade off exactly as in kiwi.
    public static func kiwi(_ weight: Double) -> ConstraintStrength {
        let clipped = max(0, min(kiwiRequiredWeight, weight))
        if clipped >= kiwiRequiredWeight { return .required }
        return ConstraintStrength(priority: 1, weight: clipped)
    }
}

/// A linear constraint `expression (relation) 0`, with a strength and a caller label that
/// errors report.
public struct LinearConstraint: Hashable, Sendable {
    public var expression: LinearExpression
    public var relation: LinearRelation
    public var strength: ConstraintStrength
    /// Caller-chosen name used in conflict reports.
    public var label: String

    @inlinable public init(_ expression: LinearExpression, _ relation: LinearRelation,
                           strength: ConstraintStrength = .required, label: String = "") {
        self.expression = expression
        self.relation = relation
        self.strength = strength
        self.label = label
    }

    /// `lhs (relation) rhs`, stored as `lhs - rhs (relation) 0`.
    @inlinable public init(_ lhs: LinearExpression, _ relation: LinearRelation, _ rhs: LinearExpression,
                           strength: ConstraintStrength = .required, label: String = "") {
        var e = lhs
        e.add(rhs, times: -1)
        self.init(e, relation, strength: strength, label: label)
    }
}

/// A handle to a constraint added to a `SimplexSolver`.
public struct ConstraintHandle: Hashable, Sendable, Comparable {
    public let index: Int
    @inlinable public init(index: Int) { self.index = index }
    @inlinable public static func < (a: ConstraintHandle, b: ConstraintHandle) -> Bool { a.index < b.index }
}
