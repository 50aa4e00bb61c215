// The FixFlex model: one-dimensional stacks of sizing intents (Fix, Flex, Fill, Match) between
// two anchors, lowered to required constraints plus one layout guide per spacer, exactly as
// FixFlex generates NSLayoutConstraints and UILayoutGuides.

/// How one stack element is sized along the stack's axis.
public enum FixFlexSizing: Hashable, Sendable {
    /// Exactly this size.
    case fix(Double)
    /// Free, optionally bounded (required `>= min`, `<= max`). For views, hugging and
    /// compression resistance set on the stack's axis replace the view's own priorities.
    /// On a spacer the priorities have no effect (a layout guide has no content).
    case flex(min: Double?, max: Double?, huggingPriority: LayoutPriority?, compressionResistancePriority: LayoutPriority?)
    /// A share of the free space: every Fill in one stack is sized `weight / firstWeight`
    /// times the stack's first Fill.
    case fill(weight: Double)
    /// `size == dimension * (multiplier ?? 1) + (offset ?? 0)`.
    case match(dimension: LayoutAnchor, multiplier: Double?, offset: Double?)
}

/// One element of a stack: a spacer (no views; a layout guide is created for it), one view,
/// or several views laid in parallel (each gets the same constraints).
public struct FixFlexIntent: Hashable, Sendable {
    /// Item indices of the views; empty means a spacer.
    public var views: [Int]
    public var sizing: FixFlexSizing

    public init(views: [Int], sizing: FixFlexSizing) {
        self.views = views
        self.sizing = sizing
    }

    /// `Fix(value)`: a fixed spacer.
    public static func fix(_ value: Double) -> FixFlexIntent { FixFlexIntent(views: [], sizing: .fix(value)) }
    /// `Fix(views, value)`.
    public static func fix(_ views: [Int], _ value: Double) -> FixFlexIntent { FixFlexIntent(views: views, sizing: .fix(value)) }
    /// `Flex(min:max:)`: a flexible spacer.
    public static func flex(min: Double? = nil, max: Double? = nil) -> FixFlexIntent {
        FixFlexIntent(views: [], sizing: .flex(min: min, max: max, huggingPriority: .required, compressionResistancePriority: .required))
    }
    /// `Flex(views, min:max:huggingPriority:compressionResistancePriority:)`.
    public static func flex(_ views: [Int], min: Double? = nil, max: Double? = nil, huggingPriority: LayoutPriority? = nil,
                            compressionResistancePriority: LayoutPriority? = nil) -> FixFlexIntent {
        FixFlexIntent(views: views, sizing: .flex(min: min, max: max, huggingPriority: huggingPriority,
                                                  compressionResistancePriority: compressionResistancePriority))
    }
    /// `Fill(weight:)`: a spacer taking a weighted share.
    public static func fill(weight: Double = 1) -> FixFlexIntent { FixFlexIntent(views: [], sizing: .fill(weight: weight)) }
    /// `Fill(views, weight:)`.
    public static func fill(_ views: [Int], weight: Double = 1) -> FixFlexIntent { FixFlexIntent(views: views, sizing: .fill(weight: weight)) }
    /// `Match(dimension:multiplier:offset:)`: a spacer sized from a dimension.
    public static func match(dimension: LayoutAnchor, multiplier: Double? = nil, offset: Double? = nil) -> FixFlexIntent {
        FixFlexIntent(views: [], sizing: .match(dimension: dimension, multiplier: multiplier, offset: offset))
    }
    /// `Match(views, dimension:multiplier:offset:)`.
    public static func match(_ views: [Int], dimension: LayoutAnchor, multiplier: Double? = nil, offset: Double? = nil) -> FixFlexIntent {
        FixFlexIntent(views: views, sizing: .match(dimension: dimension, multiplier: multiplier, offset: offset))
    }
}

/// `hstack` / `vstack`: intents chained from `startAnchor` (+ `startOffset`) to `endAnchor`
/// (the last element's end == `endAnchor + endOffset`). Horizontal stacks use leading /
/// trailing (mirrored in right-to-left) unless `useAbsolutePositioning` picks left / right.
public struct FixFlexStack: Hashable, Sendable {
    public var axis: LayoutAnchorKind.Axis
    /// nil: the container's leading (left when absolute) or top.
    public var startAnchor: LayoutAnchor?
    public var startOffset: Double
    /// nil: the container's trailing (right when absolute) or bottom.
    public var endAnchor: LayoutAnchor?
    public var endOffset: Double
    /// Horizontal only: left/right instead of leading/trailing.
    public var useAbsolutePositioning: Bool
    public var intents: [FixFlexIntent]

    public init(axis: LayoutAnchorKind.Axis, startAnchor: LayoutAnchor? = nil, startOffset: Double = 0,
                endAnchor: LayoutAnchor? = nil, endOffset: Double = 0, useAbsolutePositioning: Bool = false,
                intents: [FixFlexIntent]) {
        self.axis = axis
        self.startAnchor = startAnchor
        self.startOffset = startOffset
        self.endAnchor = endAnchor
        self.endOffset = endOffset
        self.useAbsolutePositioning = useAbsolutePositioning
        self.intents = intents
    }
}

/// Views (the base layout's items, plus any constraints of its own) laid out by FixFlex stacks.
public struct FixFlexLayout: Hashable, Sendable {
    public var base: ConstraintLayout
    public var stacks: [FixFlexStack]

    public init(base: ConstraintLayout, stacks: [FixFlexStack] = []) {
        self.base = base
        self.stacks = stacks
    }

    /// Appends a horizontal stack.
    public mutating func hstack(startAnchor: LayoutAnchor? = nil, startOffset: Double = 0, endAnchor: LayoutAnchor? = nil,
                                endOffset: Double = 0, useAbsolutePositioning: Bool = false, _ intents: FixFlexIntent...) {
        stacks.append(FixFlexStack(axis: .horizontal, startAnchor: startAnchor, startOffset: startOffset, endAnchor: endAnchor,
                                   endOffset: endOffset, useAbsolutePositioning: useAbsolutePositioning, intents: intents))
    }

    /// Appends a vertical stack.
    public mutating func vstack(startAnchor: LayoutAnchor? = nil, startOffset: Double = 0, endAnchor: LayoutAnchor? = nil,
                                endOffset: Double = 0, _ intents: FixFlexIntent...) {
        stacks.append(FixFlexStack(axis: .vertical, startAnchor: startAnchor, startOffset: startOffset, endAnchor: endAnchor,
                                   endOffset: endOffset, intents: intents))
    }

    /// The equivalent constraint layout: the base items first (hugging / compression
    /// overridden where a Flex says so, later stacks winning), then one layout guide per
    /// spacer, named `stacks[s].spacer[i]`.
    public func lowered() throws -> ConstraintLayout {
        var out = base
        for (s, stack) in stacks.enumerated() {
            try lower(stack, index: s, into: &out)
        }
        return out
    }

    /// Lowers and solves; frames list the base items, then the spacer guides.
    public func solve(containerSize: ConstraintContainerSize, direction: ReadingDirection = .leftToRight,
                      limits: SolverLimits = SolverLimits()) throws -> ConstraintLayoutResult {
        try lowered().solve(containerSize: containerSize, direction: direction, limits: limits)
    }

    func lower(_ stack: FixFlexStack, index s: Int, into out: inout ConstraintLayout) throws {
        func bad(_ reason: String) -> ConstraintLayoutError { .invalidStack(index: s, reason: reason) }
        let horizontal = stack.axis == .horizontal
        let absolute = horizontal && stack.useAbsolutePositioning
        let startKind: LayoutAnchorKind = horizontal ? (absolute ? .left : .leading) : .top
        let endKind: LayoutAnchorKind = horizontal ? (absolute ? .right : .trailing) : .bottom
        let dimKind: LayoutAnchorKind = horizontal ? .width : .height
        let start = stack.startAnchor ?? LayoutAnchor(.container, startKind)
        let end = stack.endAnchor ?? LayoutAnchor(.container, endKind)
        for a in [start, end] where a.kind.isDimension || a.kind.axis != stack.axis {
            throw bad("start and end anchors must be positions on the stack's axis")
        }
        guard stack.startOffset.isFinite, stack.endOffset.isFinite else { throw bad("offsets must be finite") }
        let name = "stacks[\(s)]"
        var lastAnchors = [start]
        var firstFill: (dimension: LayoutAnchor, weight: Double)? = nil
        var spacers = 0
        for (k, intent) in stack.intents.enumerated() {
            let tag = "\(name).intents[\(k)]"
            var targets: [LayoutItemRef] = []
            if intent.views.isEmpty {
                let guide = out.addItem(ConstraintItem(name: "\(name).spacer[\(spacers)]", layoutMargins: .zero))
                spacers += 1
                targets.append(guide)
            } else {
                for v in intent.views {
                    guard v >= 0 && v < base.items.count else { throw bad("intents[\(k)]: view \(v) does not exist") }
                    targets.append(.item(v))
                }
            }
            if case .flex(_, _, let hugging, let compression) = intent.sizing {
                for v in intent.views {
                    if let hugging { out.items[v].setHugging(hugging, stack.axis) }
                    if let compression { out.items[v].setCompressionResistance(compression, stack.axis) }
                }
            }
            for target in targets {
                let targetName = "\(tag)(\(itemName(target, out)))"
                for last in lastAnchors {
                    let offset = (k == 0) ? stack.startOffset : 0
                    out.constraints.append(LayoutAnchor(target, startKind).constraint(
                        equalTo: last, constant: offset, label: "\(targetName) start"))
                }
                let dim = LayoutAnchor(target, dimKind)
                switch intent.sizing {
                case .fix(let value):
                    guard value.isFinite else { throw bad("intents[\(k)]: size must be finite") }
                    out.constraints.append(dim.constraint(equalToConstant: value, label: "\(targetName) fix \(value)"))
                case .flex(let min, let max, _, _):
                    if let min {
                        guard min.isFinite else { throw bad("intents[\(k)]: min must be finite") }
                        out.constraints.append(dim.constraint(greaterThanOrEqualToConstant: min, label: "\(targetName) min \(min)"))
                    }
                    if let max {
                        guard max.isFinite else { throw bad("intents[\(k)]: max must be finite") }
                        out.constraints.append(dim.constraint(lessThanOrEqualToConstant: max, label: "\(targetName) max \(max)"))
                    }
                case .match(let dimension, let multiplier, let offset):
                    guard dimension.kind.isDimension else { throw bad("intents[\(k)]: match needs a width or height anchor") }
                    out.constraints.append(dim.constraint(equalTo: dimension, multiplier: multiplier ?? 1, constant: offset ?? 0,
                                                          label: "\(targetName) match"))
                case .fill(let weight):
                    guard weight.isFinite && weight > 0 else { throw bad("intents[\(k)]: weight must be > 0") }
                    if let firstFill {
                        out.constraints.append(dim.constraint(equalTo: firstFill.dimension, multiplier: weight / firstFill.weight,
                                                              label: "\(targetName) fill \(weight)"))
                    } else {
                        firstFill = (dim, weight)
                    }
                }
            }
            lastAnchors = targets.map { LayoutAnchor($0, endKind) }
        }
        for last in lastAnchors {
            out.constraints.append(last.constraint(equalTo: end, constant: stack.endOffset, label: "\(name) end"))
        }
    }

    private func itemName(_ ref: LayoutItemRef, _ layout: ConstraintLayout) -> String {
        switch ref {
        case .container: return "container"
        case .item(let i): return layout.items[i].name
        }
    }
}
