// Lowering a ConstraintLayout to solver constraints: four variables per item (left, top,
// width, height), every anchor a linear expression of them, right-to-left handled by solving
// leading/trailing constraints in mirrored coordinates (x' = containerWidth - x), which is
// what Auto Layout does: the constant moves toward the trailing side in either direction.

extension ConstraintLayout {
    /// Solves the layout for a container size and reading direction.
    ///
    /// Throws `ConstraintLayoutError.unsatisfiable` naming a minimal set of conflicting
    /// required constraints (by label), or a validation error pointing at the bad item or
    /// constraint. Ambiguous layouts resolve deterministically.
    public func solve(containerSize: ConstraintContainerSize, direction: ReadingDirection = .leftToRight,
                      limits: SolverLimits = SolverLimits()) throws -> ConstraintLayoutResult {
        var lowering = try ConstraintLowering(layout: self, direction: direction, limits: limits)
        do {
            try lowering.addContainerConstraints(containerSize)
            try lowering.addContentConstraints()
            try lowering.addLayoutConstraints()
        } catch let SolverError.unsatisfiable(conflict) {
            throw ConstraintLayoutError.unsatisfiable(conflict)
        } catch let e as SolverError {
            throw ConstraintLayoutError.solver(e)
        }
        return lowering.result()
    }

    /// The linear system `solve` hands to the solver, in the order it adds it: container
    /// size constraints, intrinsic content constraints, then `constraints`. Useful to replay
    /// a layout in another solver or to explain a result.
    public func linearSystem(containerSize: ConstraintContainerSize,
                             direction: ReadingDirection = .leftToRight) throws -> ConstraintLinearSystem {
        var lowering = try ConstraintLowering(layout: self, direction: direction, limits: SolverLimits())
        lowering.recording = true
        try lowering.addContainerConstraints(containerSize)
        try lowering.addContentConstraints()
        try lowering.addLayoutConstraints()
        return ConstraintLinearSystem(variableCount: 2 + lowering.variables.count, constraints: lowering.recorded,
                                      containerWidth: lowering.containerWidth, containerHeight: lowering.containerHeight,
                                      itemVariables: lowering.variables)
    }

    /// Checks items and constraints without solving.
    public func validate() throws {
        for (i, item) in items.enumerated() {
            for v in [item.intrinsicWidth, item.intrinsicHeight] {
                if let v, !(v.isFinite && v >= 0) {
                    throw ConstraintLayoutError.invalidItem(index: i, reason: "intrinsic size must be finite and >= 0")
                }
            }
            for p in [item.horizontalHugging, item.verticalHugging, item.horizontalCompressionResistance,
                      item.verticalCompressionResistance] where !(p.rawValue > 0 && p.rawValue <= 1000) {
                throw ConstraintLayoutError.invalidItem(index: i, reason: "priorities must be in (0, 1000]")
            }
            let m = item.layoutMargins
            if ![m.top, m.leading, m.bottom, m.trailing].allSatisfy(\.isFinite) {
                throw ConstraintLayoutError.invalidItem(index: i, reason: "margins must be finite")
            }
        }
        for (i, c) in constraints.enumerated() {
            if let reason = problem(with: c) { throw ConstraintLayoutError.invalidConstraint(index: i, reason: reason) }
        }
    }

    func problem(with c: LayoutConstraint) -> String? {
        for ref in [c.first.item, c.second?.item] {
            if case .item(let i)? = ref, !(i >= 0 && i < items.count) { return "item \(i) does not exist" }
        }
        guard c.multiplier.isFinite, c.constant.isFinite else { return "multiplier and constant must be finite" }
        guard c.priority.rawValue > 0 && c.priority.rawValue <= 1000 else { return "priority must be in (0, 1000]" }
        guard let second = c.second else { return nil }
        let a = c.first.kind, b = second.kind
        if a.isDimension != b.isDimension { return "cannot relate a position anchor to a size anchor" }
        if !a.isDimension && a.axis != b.axis { return "cannot relate anchors of different axes" }
        if (a.isDirectional && b.isAbsoluteHorizontal) || (a.isAbsoluteHorizontal && b.isDirectional) {
            return "cannot mix leading/trailing with left/right anchors"
        }
        return nil
    }
}

/// A constraint layout as plain linear constraints over numbered variables.
public struct ConstraintLinearSystem: Hashable, Sendable {
    /// Variables are numbered `0..<variableCount`.
    public var variableCount: Int
    public var constraints: [LinearConstraint]
    public var containerWidth: LinearVariable
    public var containerHeight: LinearVariable
    /// left, top, width, height of each item, in item order.
    public var itemVariables: [LinearVariable]
}

/// The solver state for one `ConstraintLayout.solve` call.
struct ConstraintLowering {
    let layout: ConstraintLayout
    let rtl: Bool
    var solver: SimplexSolver
    let containerWidth: LinearVariable
    let containerHeight: LinearVariable
    /// left, top, width, height per item.
    var variables: [LinearVariable] = []
    /// When set, constraints are collected instead of solved (`linearSystem`).
    var recording = false
    var recorded: [LinearConstraint] = []

    mutating func emit(_ c: LinearConstraint) throws {
        if recording { recorded.append(c) } else { try solver.add(c) }
    }

    init(layout: ConstraintLayout, direction: ReadingDirection, limits: SolverLimits) throws {
        try layout.validate()
        self.layout = layout
        rtl = direction == .rightToLeft
        solver = SimplexSolver(limits: limits)
        do {
            containerWidth = try solver.makeVariable()
            containerHeight = try solver.makeVariable()
            variables.reserveCapacity(layout.items.count * 4)
            for _ in 0..<(layout.items.count * 4) { variables.append(try solver.makeVariable()) }
        } catch let e as SolverError {
            throw ConstraintLayoutError.solver(e)
        }
    }

    mutating func addContainerConstraints(_ size: ConstraintContainerSize) throws {
        for (value, v, name) in [(size.width, containerWidth, "width"), (size.height, containerHeight, "height")] {
            if let value {
                guard value.isFinite && value >= 0 else { throw ConstraintLayoutError.invalidContainerSize }
                try emit(LinearConstraint(LinearExpression(v) - value, .equal, label: "container.\(name)"))
            } else {
                try emit(LinearConstraint(LinearExpression(v), .greaterThanOrEqual,
                                                label: "container.\(name) >= 0"))
                try emit(LinearConstraint(LinearExpression(v), .equal,
                                                strength: LayoutPriority.fittingSizeLevel.strength,
                                                label: "container.\(name) fitting"))
            }
        }
    }

    mutating func addContentConstraints() throws {
        for (i, item) in layout.items.enumerated() {
            for axis in [LayoutAnchorKind.Axis.horizontal, .vertical] {
                guard let size = axis == .horizontal ? item.intrinsicWidth : item.intrinsicHeight else { continue }
                let dim = LinearExpression(variables[i * 4 + (axis == .horizontal ? 2 : 3)]) - size
                let name = axis == .horizontal ? "width" : "height"
                try emit(LinearConstraint(dim, .lessThanOrEqual, strength: item.hugging(axis).strength,
                                                label: "\(item.name).\(name) hugging"))
                try emit(LinearConstraint(dim, .greaterThanOrEqual,
                                                strength: item.compressionResistance(axis).strength,
                                                label: "\(item.name).\(name) compression resistance"))
            }
        }
    }

    mutating func addLayoutConstraints() throws {
        for (i, c) in layout.constraints.enumerated() {
            let label = c.label.isEmpty ? "constraints[\(i)]" : c.label
            try emit(LinearConstraint(expression(c), c.relation, strength: c.priority.strength, label: label))
        }
    }

    /// `first - (second * multiplier + constant)`, mirrored for directional anchors in RTL.
    func expression(_ c: LayoutConstraint) -> LinearExpression {
        let mirror = rtl && (c.first.kind.isDirectional || (c.second?.kind.isDirectional ?? false))
            && !c.first.kind.isDimension
        var e = LinearExpression()
        e.terms.reserveCapacity(6)
        append(c.first, times: 1, mirrored: mirror, to: &e)
        if let second = c.second {
            append(second, times: -c.multiplier, mirrored: mirror, to: &e)
        }
        e.constant -= c.constant
        return e
    }

    /// Adds `factor * anchor` to `e`; mirrored means measured from the container's right
    /// edge (`containerWidth - x`).
    func append(_ a: LayoutAnchor, times factor: Double, mirrored: Bool, to e: inout LinearExpression) {
        if mirrored && !a.kind.isDimension {
            e.add(containerWidth, times: factor)
            appendPhysical(a, times: -factor, to: &e)
        } else {
            appendPhysical(a, times: factor, to: &e)
        }
    }

    /// Adds `factor * anchor` in container coordinates (x to the right, y down).
    func appendPhysical(_ a: LayoutAnchor, times f: Double, to e: inout LinearExpression) {
        // Position = origin + fraction * size + inset; the container's origin is 0.
        let origin: (LinearVariable, LinearVariable)?
        let size: (LinearVariable, LinearVariable)
        let margins: LayoutMargins
        switch a.item {
        case .container:
            origin = nil
            size = (containerWidth, containerHeight)
            margins = layout.containerMargins
        case .item(let i):
            origin = (variables[i * 4], variables[i * 4 + 1])
            size = (variables[i * 4 + 2], variables[i * 4 + 3])
            margins = layout.items[i].layoutMargins
        }
        let horizontal = a.kind.axis == .horizontal
        let fraction: Double
        var inset = 0.0
        switch a.kind {
        case .width: e.add(size.0, times: f); return
        case .height: e.add(size.1, times: f); return
        case .left, .top: fraction = 0
        case .right, .bottom: fraction = 1
        case .centerX, .centerY: fraction = 0.5
        case .leading: fraction = rtl ? 1 : 0
        case .trailing: fraction = rtl ? 0 : 1
        case .leftMargin: fraction = 0; inset = rtl ? margins.trailing : margins.leading
        case .rightMargin: fraction = 1; inset = -(rtl ? margins.leading : margins.trailing)
        case .leadingMargin: fraction = rtl ? 1 : 0; inset = rtl ? -margins.leading : margins.leading
        case .trailingMargin: fraction = rtl ? 0 : 1; inset = rtl ? margins.trailing : -margins.trailing
        case .topMargin: fraction = 0; inset = margins.top
        case .bottomMargin: fraction = 1; inset = -margins.bottom
        }
        if let origin { e.add(horizontal ? origin.0 : origin.1, times: f) }
        if fraction != 0 { e.add(horizontal ? size.0 : size.1, times: f * fraction) }
        e.constant += f * inset
    }

    func result() -> ConstraintLayoutResult {
        var frames: [Frame] = []
        frames.reserveCapacity(layout.items.count)
        for i in layout.items.indices {
            frames.append(Frame(left: Float(solver.value(of: variables[i * 4])),
                                top: Float(solver.value(of: variables[i * 4 + 1])),
                                width: Float(solver.value(of: variables[i * 4 + 2])),
                                height: Float(solver.value(of: variables[i * 4 + 3]))))
        }
        return ConstraintLayoutResult(frames: frames, containerWidth: solver.value(of: containerWidth),
                                      containerHeight: solver.value(of: containerHeight))
    }
}
