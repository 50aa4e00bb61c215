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

/// The solver state for one `ConstraintLayout.solve` call.
struct ConstraintLowering {
    let layout: ConstraintLayout
    let rtl: Bool
    var solver: SimplexSolver
    let containerWidth: LinearVariable
    let containerHeight: LinearVariable
    /// left, top, width, height per item.
    var variables: [LinearVariable] = []

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
                try solver.add(LinearConstraint(LinearExpression(v) - value, .equal, label: "container.\(name)"))
            } else {
                try solver.add(LinearConstraint(LinearExpression(v), .greaterThanOrEqual,
                                                label: "container.\(name) >= 0"))
                try solver.add(LinearConstraint(LinearExpression(v), .equal,
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
                try solver.add(LinearConstraint(dim, .lessThanOrEqual, strength: item.hugging(axis).strength,
                                                label: "\(item.name).\(name) hugging"))
                try solver.add(LinearConstraint(dim, .greaterThanOrEqual,
                                                strength: item.compressionResistance(axis).strength,
                                                label: "\(item.name).\(name) compression resistance"))
            }
        }
    }

    mutating func addLayoutConstraints() throws {
        for (i, c) in layout.constraints.enumerated() {
            let label = c.label.isEmpty ? "constraints[\(i)]" : c.label
            try solver.add(LinearConstraint(expression(c), c.relation, strength: c.priority.strength, label: label))
        }
    }

    /// `first - (second * multiplier + constant)`, mirrored for directional anchors in RTL.
    func expression(_ c: LayoutConstraint) -> LinearExpression {
        let mirror = rtl && (c.first.kind.isDirectional || (c.second?.kind.isDirectional ?? false))
            && !c.first.kind.isDimension
        var e = anchor(c.first, mirrored: mirror)
        if let second = c.second {
            e.add(anchor(second, mirrored: mirror), times: -c.multiplier)
        }
        e.constant -= c.constant
        return e
    }

    /// The anchor's coordinate; mirrored means measured from the container's right edge.
    func anchor(_ a: LayoutAnchor, mirrored: Bool) -> LinearExpression {
        let p = physical(a)
        if !mirrored || a.kind.isDimension { return p }
        var m = LinearExpression(containerWidth)
        m.add(p, times: -1)
        return m
    }

    /// The anchor in container coordinates (x to the right, y down).
    func physical(_ a: LayoutAnchor) -> LinearExpression {
        let left: LinearExpression, top: LinearExpression, width: LinearExpression, height: LinearExpression
        let margins: LayoutMargins
        switch a.item {
        case .container:
            left = LinearExpression(); top = LinearExpression()
            width = LinearExpression(containerWidth); height = LinearExpression(containerHeight)
            margins = layout.containerMargins
        case .item(let i):
            left = LinearExpression(variables[i * 4]); top = LinearExpression(variables[i * 4 + 1])
            width = LinearExpression(variables[i * 4 + 2]); height = LinearExpression(variables[i * 4 + 3])
            margins = layout.items[i].layoutMargins
        }
        let right = left + width
        let bottom = top + height
        switch a.kind {
        case .left: return left
        case .right: return right
        case .top: return top
        case .bottom: return bottom
        case .width: return width
        case .height: return height
        case .centerX: return left + width * 0.5
        case .centerY: return top + height * 0.5
        case .leading: return rtl ? right : left
        case .trailing: return rtl ? left : right
        case .leftMargin: return left + (rtl ? margins.trailing : margins.leading)
        case .rightMargin: return right - (rtl ? margins.leading : margins.trailing)
        case .leadingMargin: return rtl ? right - margins.leading : left + margins.leading
        case .trailingMargin: return rtl ? left + margins.trailing : right - margins.trailing
        case .topMargin: return top + margins.top
        case .bottomMargin: return bottom - margins.bottom
        }
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
