// The FlexibleLayout model: spacers between pairs of anchors whose sizes keep the ratios of
// their coefficients within one group, optionally with a minimal size per coefficient. Lowered
// like FlexibleLayout does it: one layout guide per spacer, every guide's size a multiple of
// the smallest-coefficient guide, the minimum applied to that guide.

/// One spacer: from `from` (left / top side) to `to` (right / bottom side), sized in
/// proportion to `coefficient` among the spacers of its group.
public struct FlexibleSpace: Hashable, Sendable {
    public var from: LayoutAnchor
    public var to: LayoutAnchor
    public var coefficient: Double

    public init(from: LayoutAnchor, to: LayoutAnchor, coefficient: Double) {
        self.from = from
        self.to = to
        self.coefficient = coefficient
    }
}

/// `a.to(b)` before a coefficient is attached; mirrors FlexibleLayout's DSL.
public struct FlexibleSpaceSpan: Hashable, Sendable {
    public var from: LayoutAnchor
    public var to: LayoutAnchor

    /// The spacer from `from` to `to`.
    public func with(_ coefficient: Double) -> FlexibleSpace {
        FlexibleSpace(from: from, to: to, coefficient: coefficient)
    }

    /// The spacer with its anchors swapped (for spans written right-to-left / bottom-to-top).
    public func reversedWith(_ coefficient: Double) -> FlexibleSpace {
        FlexibleSpace(from: to, to: from, coefficient: coefficient)
    }
}

extension LayoutAnchor {
    /// Starts a flexible spacer from this anchor to `other`.
    public func to(_ other: LayoutAnchor) -> FlexibleSpaceSpan { FlexibleSpaceSpan(from: self, to: other) }
}

/// Spacers with coefficient `coefficient` are at least `value` long; every spacer is then at
/// least `value * itsCoefficient / coefficient`.
public struct MinimalCoefficientSize: Hashable, Sendable {
    public var coefficient: Double
    public var value: Double
    public init(coefficient: Double, value: Double) {
        self.coefficient = coefficient
        self.value = value
    }
}

/// One `Flexible.horizontalLayout` / `verticalLayout` call: coefficients relate only to the
/// other spacers of the same group.
public struct FlexibleSpaceGroup: Hashable, Sendable {
    public var axis: LayoutAnchorKind.Axis
    public var spaces: [FlexibleSpace]
    public var minimalSize: MinimalCoefficientSize?

    public init(axis: LayoutAnchorKind.Axis, spaces: [FlexibleSpace], minimalSize: MinimalCoefficientSize? = nil) {
        self.axis = axis
        self.spaces = spaces
        self.minimalSize = minimalSize
    }
}

/// A constraint layout plus flexible spacer groups.
public struct FlexibleSpaceLayout: Hashable, Sendable {
    public var base: ConstraintLayout
    public var groups: [FlexibleSpaceGroup]

    public init(base: ConstraintLayout, groups: [FlexibleSpaceGroup] = []) {
        self.base = base
        self.groups = groups
    }

    /// Appends a horizontal group.
    public mutating func horizontalLayout(_ spaces: [FlexibleSpace], coefficientSize: MinimalCoefficientSize? = nil) {
        groups.append(FlexibleSpaceGroup(axis: .horizontal, spaces: spaces, minimalSize: coefficientSize))
    }

    /// Appends a vertical group.
    public mutating func verticalLayout(_ spaces: [FlexibleSpace], coefficientSize: MinimalCoefficientSize? = nil) {
        groups.append(FlexibleSpaceGroup(axis: .vertical, spaces: spaces, minimalSize: coefficientSize))
    }

    /// The equivalent constraint layout: base items, then one guide per spacer
    /// (`groups[g].spaces[i]`, in the order given), then the generated constraints.
    public func lowered() throws -> ConstraintLayout {
        var out = base
        for (g, group) in groups.enumerated() {
            try lower(group, index: g, into: &out)
        }
        return out
    }

    /// Lowers and solves; frames list the base items, then the spacer guides.
    public func solve(containerSize: ConstraintContainerSize, direction: ReadingDirection = .leftToRight,
                      limits: SolverLimits = SolverLimits()) throws -> ConstraintLayoutResult {
        try lowered().solve(containerSize: containerSize, direction: direction, limits: limits)
    }

    func lower(_ group: FlexibleSpaceGroup, index g: Int, into out: inout ConstraintLayout) throws {
        func bad(_ reason: String) -> ConstraintLayoutError { .invalidSpaceGroup(index: g, reason: reason) }
        let horizontal = group.axis == .horizontal
        var guides: [LayoutItemRef] = []
        for (i, space) in group.spaces.enumerated() {
            guard space.coefficient.isFinite && space.coefficient > 0 else { throw bad("spaces[\(i)]: coefficient must be > 0") }
            for a in [space.from, space.to] where a.kind.isDimension || a.kind.axis != group.axis {
                throw bad("spaces[\(i)]: anchors must be positions on the group's axis")
            }
            let name = "groups[\(g)].spaces[\(i)]"
            let guide = out.addItem(ConstraintItem(name: name, layoutMargins: .zero))
            guides.append(guide)
            if horizontal {
                // Place the guide beside the `from` view vertically, as the library does.
                out.constraints.append(guide.centerY.constraint(equalTo: LayoutAnchor(space.from.item, .centerY), label: "\(name) centerY"))
                let lead: LayoutAnchorKind = space.from.kind.isDirectional ? .leading : .left
                let trail: LayoutAnchorKind = space.to.kind.isDirectional ? .trailing : .right
                out.constraints.append(LayoutAnchor(guide, lead).constraint(equalTo: space.from, label: "\(name) from"))
                out.constraints.append(LayoutAnchor(guide, trail).constraint(equalTo: space.to, label: "\(name) to"))
            } else {
                out.constraints.append(guide.centerX.constraint(equalTo: LayoutAnchor(space.from.item, .centerX), label: "\(name) centerX"))
                out.constraints.append(guide.top.constraint(equalTo: space.from, label: "\(name) from"))
                out.constraints.append(guide.bottom.constraint(equalTo: space.to, label: "\(name) to"))
            }
        }
        guard !group.spaces.isEmpty else { return }
        // The smallest coefficient is the unit (first such spacer on ties, as a stable sort gives).
        var unit = 0
        for (i, space) in group.spaces.enumerated() where space.coefficient < group.spaces[unit].coefficient { unit = i }
        let unitCoefficient = group.spaces[unit].coefficient
        let dim: LayoutAnchorKind = horizontal ? .width : .height
        if let minimal = group.minimalSize {
            guard minimal.coefficient.isFinite && minimal.coefficient > 0 && minimal.value.isFinite else {
                throw bad("minimal size needs a coefficient > 0 and a finite value")
            }
            out.constraints.append(LayoutAnchor(guides[unit], dim).constraint(
                greaterThanOrEqualToConstant: minimal.value * unitCoefficient / minimal.coefficient,
                label: "groups[\(g)] minimal size"))
        }
        for (i, space) in group.spaces.enumerated() where i != unit {
            out.constraints.append(LayoutAnchor(guides[i], dim).constraint(
                equalTo: LayoutAnchor(guides[unit], dim), multiplier: space.coefficient / unitCoefficient,
                label: "groups[\(g)].spaces[\(i)] ratio"))
        }
    }
}
