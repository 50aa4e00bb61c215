// Typed failures of the constraint solver.

/// A set of required constraints that cannot hold together.
public struct ConstraintConflict: Hashable, Sendable, CustomStringConvertible {
    /// The constraint whose addition made the required set unsatisfiable.
    public var failing: String
    /// Labels of the conflicting constraints (the failing one included), in insertion order.
    public var labels: [String]
    /// True when `labels` is a minimal conflicting set (deletion filtering completed);
    /// false when the search limit was hit and `labels` is the failing constraint's connected
    /// group of required constraints.
    public var isMinimal: Bool

    public init(failing: String, labels: [String], isMinimal: Bool) {
        self.failing = failing
        self.labels = labels
        self.isMinimal = isMinimal
    }

    public var description: String {
        "unsatisfiable required constraints (\(isMinimal ? "minimal set" : "connected group")): "
            + labels.joined(separator: ", ")
    }
}

/// An error raised by `SimplexSolver`.
public enum SolverError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A required constraint cannot be satisfied together with the required ones before it.
    case unsatisfiable(ConstraintConflict)
    /// A coefficient or constant is NaN or infinite, or a weight/priority is out of range.
    case invalidConstraint(label: String, reason: String)
    /// The handle or edit variable is not known to the solver.
    case unknownConstraint
    case unknownEditVariable(LinearVariable)
    case duplicateEditVariable(LinearVariable)
    /// Edit variables must be non-required.
    case requiredEditStrength
    /// The configured pivot limit was hit (guards against numerical cycling).
    case iterationLimitExceeded(limit: Int)
    /// A configured size limit was hit.
    case limitExceeded(what: String, limit: Int)
    /// The objective became unbounded or a pivot could not be found; indicates numerical
    /// trouble rather than bad input.
    case internalError(String)

    public var description: String {
        switch self {
        case .unsatisfiable(let c): return c.description
        case .invalidConstraint(let label, let reason): return "invalid constraint '\(label)': \(reason)"
        case .unknownConstraint: return "unknown constraint"
        case .unknownEditVariable(let v): return "variable \(v.id) is not an edit variable"
        case .duplicateEditVariable(let v): return "variable \(v.id) is already an edit variable"
        case .requiredEditStrength: return "edit variables cannot be required"
        case .iterationLimitExceeded(let limit): return "solver exceeded \(limit) pivots"
        case .limitExceeded(let what, let limit): return "too many \(what) (limit \(limit))"
        case .internalError(let m): return "internal solver error: \(m)"
        }
    }
}

/// Explicit bounds on solver work; every one is configurable.
public struct SolverLimits: Hashable, Sendable {
    /// Maximum variables a solver may create.
    public var maxVariables: Int = 100_000
    /// Maximum constraints alive at once.
    public var maxConstraints: Int = 200_000
    /// Maximum pivots per add / remove / suggest call.
    public var maxPivotsPerOperation: Int = 1_000_000
    /// Largest group of required constraints that deletion filtering minimises on conflict;
    /// bigger groups are reported whole.
    public var maxConflictSearch: Int = 256

    public init(maxVariables: Int = 100_000, maxConstraints: Int = 200_000,
                maxPivotsPerOperation: Int = 1_000_000, maxConflictSearch: Int = 256) {
        self.maxVariables = maxVariables
        self.maxConstraints = maxConstraints
        self.maxPivotsPerOperation = maxPivotsPerOperation
        self.maxConflictSearch = maxConflictSearch
    }
}
