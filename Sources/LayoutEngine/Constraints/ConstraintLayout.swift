// The Auto Layout-style model: items (views or layout guides) placed by linear constraints
// between their anchors, solved by `SimplexSolver`.

/// An Auto Layout priority, 1...1000. 1000 is required.
public struct LayoutPriority: Hashable, Sendable, Comparable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var rawValue: Double
    @inlinable public init(_ rawValue: Double) { self.rawValue = rawValue }
    @inlinable public init(floatLiteral value: Double) { rawValue = value }
    @inlinable public init(integerLiteral value: Int) { rawValue = Double(value) }
    @inlinable public static func < (a: LayoutPriority, b: LayoutPriority) -> Bool { a.rawValue < b.rawValue }

    public static let required: LayoutPriority = 1000
    /// Auto Layout's `defaultHigh`, the default compression resistance.
    public static let defaultHigh: LayoutPriority = 750
    /// Auto Layout's `defaultLow`, the default content hugging.
    public static let defaultLow: LayoutPriority = 250
    /// Auto Layout's `fittingSizeLevel`: how hard an unsized container shrinks to fit.
    public static let fittingSizeLevel: LayoutPriority = 50

    /// The solver strength: priority levels are strictly ordered (see `ConstraintStrength`).
    @inlinable public var strength: ConstraintStrength { ConstraintStrength(priority: rawValue) }
}

/// Left-to-right or right-to-left: where `leading` and `trailing` lie.
public enum ReadingDirection: UInt8, Hashable, Sendable, CaseIterable {
    case leftToRight
    case rightToLeft
}

/// The anchors of an item. `leading`/`trailing` follow the reading direction; `left`/`right`
/// never do. The `...Margin` anchors are inset by the item's `layoutMargins`.
public enum LayoutAnchorKind: UInt8, Hashable, Sendable, CaseIterable {
    case left, right, top, bottom, leading, trailing, width, height, centerX, centerY
    case leftMargin, rightMargin, topMargin, bottomMargin, leadingMargin, trailingMargin

    /// The axis an anchor positions or measures along.
    public enum Axis: UInt8, Hashable, Sendable { case horizontal, vertical }

    /// Whether the anchor is a size rather than a position.
    @inlinable public var isDimension: Bool { self == .width || self == .height }

    /// Horizontal for x positions and width, vertical for y positions and height.
    public var axis: Axis {
        switch self {
        case .left, .right, .leading, .trailing, .width, .centerX, .leftMargin, .rightMargin,
             .leadingMargin, .trailingMargin: return .horizontal
        case .top, .bottom, .height, .centerY, .topMargin, .bottomMargin: return .vertical
        }
    }

    /// Leading / trailing anchors, which mirror in right-to-left layouts.
    public var isDirectional: Bool {
        self == .leading || self == .trailing || self == .leadingMargin || self == .trailingMargin
    }

    /// Left / right anchors, which never mirror.
    public var isAbsoluteHorizontal: Bool {
        self == .left || self == .right || self == .leftMargin || self == .rightMargin
    }
}

/// The container being laid out, or one of its items by index.
public enum LayoutItemRef: Hashable, Sendable {
    case container
    case item(Int)

    public var left: LayoutAnchor { LayoutAnchor(self, .left) }
    public var right: LayoutAnchor { LayoutAnchor(self, .right) }
    public var top: LayoutAnchor { LayoutAnchor(self, .top) }
    public var bottom: LayoutAnchor { LayoutAnchor(self, .bottom) }
    public var leading: LayoutAnchor { LayoutAnchor(self, .leading) }
    public var trailing: LayoutAnchor { LayoutAnchor(self, .trailing) }
    public var width: LayoutAnchor { LayoutAnchor(self, .width) }
    public var height: LayoutAnchor { LayoutAnchor(self, .height) }
    public var centerX: LayoutAnchor { LayoutAnchor(self, .centerX) }
    public var centerY: LayoutAnchor { LayoutAnchor(self, .centerY) }
    public var topMargin: LayoutAnchor { LayoutAnchor(self, .topMargin) }
    public var bottomMargin: LayoutAnchor { LayoutAnchor(self, .bottomMargin) }
    public var leadingMargin: LayoutAnchor { LayoutAnchor(self, .leadingMargin) }
    public var trailingMargin: LayoutAnchor { LayoutAnchor(self, .trailingMargin) }
    public var leftMargin: LayoutAnchor { LayoutAnchor(self, .leftMargin) }
    public var rightMargin: LayoutAnchor { LayoutAnchor(self, .rightMargin) }
}

/// One anchor of one item.
public struct LayoutAnchor: Hashable, Sendable {
    public var item: LayoutItemRef
    public var kind: LayoutAnchorKind
    @inlinable public init(_ item: LayoutItemRef, _ kind: LayoutAnchorKind) {
        self.item = item
        self.kind = kind
    }

    /// `self == other * multiplier + constant`.
    public func constraint(equalTo other: LayoutAnchor, multiplier: Double = 1, constant: Double = 0,
                           priority: LayoutPriority = .required, label: String = "") -> LayoutConstraint {
        LayoutConstraint(self, .equal, other, multiplier: multiplier, constant: constant, priority: priority, label: label)
    }
    /// `self >= other * multiplier + constant`.
    public func constraint(greaterThanOrEqualTo other: LayoutAnchor, multiplier: Double = 1, constant: Double = 0,
                           priority: LayoutPriority = .required, label: String = "") -> LayoutConstraint {
        LayoutConstraint(self, .greaterThanOrEqual, other, multiplier: multiplier, constant: constant, priority: priority, label: label)
    }
    /// `self <= other * multiplier + constant`.
    public func constraint(lessThanOrEqualTo other: LayoutAnchor, multiplier: Double = 1, constant: Double = 0,
                           priority: LayoutPriority = .required, label: String = "") -> LayoutConstraint {
        LayoutConstraint(self, .lessThanOrEqual, other, multiplier: multiplier, constant: constant, priority: priority, label: label)
    }
    /// `self == constant` (a size, or a position measured from the container's origin / leading edge).
    public func constraint(equalToConstant constant: Double, priority: LayoutPriority = .required,
                           label: String = "") -> LayoutConstraint {
        LayoutConstraint(self, .equal, nil, constant: constant, priority: priority, label: label)
    }
    /// `self >= constant`.
    public func constraint(greaterThanOrEqualToConstant constant: Double, priority: LayoutPriority = .required,
                           label: String = "") -> LayoutConstraint {
        LayoutConstraint(self, .greaterThanOrEqual, nil, constant: constant, priority: priority, label: label)
    }
    /// `self <= constant`.
    public func constraint(lessThanOrEqualToConstant constant: Double, priority: LayoutPriority = .required,
                           label: String = "") -> LayoutConstraint {
        LayoutConstraint(self, .lessThanOrEqual, nil, constant: constant, priority: priority, label: label)
    }
}

/// `first (relation) second * multiplier + constant`, as `NSLayoutConstraint` reads.
///
/// Both anchors must be positions on the same axis, or both dimensions (any axis); `second`
/// nil compares with `constant` alone. Leading/trailing cannot be mixed with left/right.
public struct LayoutConstraint: Hashable, Sendable {
    public var first: LayoutAnchor
    public var relation: LinearRelation
    public var second: LayoutAnchor?
    public var multiplier: Double
    public var constant: Double
    public var priority: LayoutPriority
    /// Name reported in conflicts; empty means `constraints[index]`.
    public var label: String

    public init(_ first: LayoutAnchor, _ relation: LinearRelation, _ second: LayoutAnchor?,
                multiplier: Double = 1, constant: Double = 0, priority: LayoutPriority = .required,
                label: String = "") {
        self.first = first
        self.relation = relation
        self.second = second
        self.multiplier = multiplier
        self.constant = constant
        self.priority = priority
        self.label = label
    }
}

/// Insets of an item's margin anchors, in reading-direction terms.
public struct LayoutMargins: Hashable, Sendable {
    public var top: Double
    public var leading: Double
    public var bottom: Double
    public var trailing: Double
    public init(top: Double, leading: Double, bottom: Double, trailing: Double) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
    /// UIKit's default `layoutMargins` of a plain view: 8 on every side.
    public static let standard = LayoutMargins(top: 8, leading: 8, bottom: 8, trailing: 8)
    public static let zero = LayoutMargins(top: 0, leading: 0, bottom: 0, trailing: 0)
}

/// A view or a layout guide. An intrinsic size on an axis adds Auto Layout's content
/// constraints: `size <= intrinsic` at the hugging priority and `size >= intrinsic` at the
/// compression-resistance priority. Without one, the size is free.
public struct ConstraintItem: Hashable, Sendable {
    /// Name used in conflict reports and generated labels.
    public var name: String
    public var intrinsicWidth: Double?
    public var intrinsicHeight: Double?
    public var horizontalHugging: LayoutPriority
    public var verticalHugging: LayoutPriority
    public var horizontalCompressionResistance: LayoutPriority
    public var verticalCompressionResistance: LayoutPriority
    public var layoutMargins: LayoutMargins

    /// Defaults are UIKit's: hugging 250, compression resistance 750, margins 8.
    public init(name: String, intrinsicWidth: Double? = nil, intrinsicHeight: Double? = nil,
                horizontalHugging: LayoutPriority = .defaultLow, verticalHugging: LayoutPriority = .defaultLow,
                horizontalCompressionResistance: LayoutPriority = .defaultHigh,
                verticalCompressionResistance: LayoutPriority = .defaultHigh,
                layoutMargins: LayoutMargins = .standard) {
        self.name = name
        self.intrinsicWidth = intrinsicWidth
        self.intrinsicHeight = intrinsicHeight
        self.horizontalHugging = horizontalHugging
        self.verticalHugging = verticalHugging
        self.horizontalCompressionResistance = horizontalCompressionResistance
        self.verticalCompressionResistance = verticalCompressionResistance
        self.layoutMargins = layoutMargins
    }

    public func hugging(_ axis: LayoutAnchorKind.Axis) -> LayoutPriority {
        axis == .horizontal ? horizontalHugging : verticalHugging
    }
    public func compressionResistance(_ axis: LayoutAnchorKind.Axis) -> LayoutPriority {
        axis == .horizontal ? horizontalCompressionResistance : verticalCompressionResistance
    }
    public mutating func setHugging(_ p: LayoutPriority, _ axis: LayoutAnchorKind.Axis) {
        if axis == .horizontal { horizontalHugging = p } else { verticalHugging = p }
    }
    public mutating func setCompressionResistance(_ p: LayoutPriority, _ axis: LayoutAnchorKind.Axis) {
        if axis == .horizontal { horizontalCompressionResistance = p } else { verticalCompressionResistance = p }
    }
}

/// The size offered to a constraint layout; nil on an axis lets the container shrink to
/// fit its content (Auto Layout's compressed fitting size).
public struct ConstraintContainerSize: Hashable, Sendable {
    public var width: Double?
    public var height: Double?
    public init(width: Double?, height: Double?) {
        self.width = width
        self.height = height
    }
}

/// Items inside a container, placed by constraints.
public struct ConstraintLayout: Hashable, Sendable {
    public var items: [ConstraintItem]
    public var constraints: [LayoutConstraint]
    /// Insets of the container's margin anchors.
    public var containerMargins: LayoutMargins

    public init(items: [ConstraintItem] = [], constraints: [LayoutConstraint] = [],
                containerMargins: LayoutMargins = .standard) {
        self.items = items
        self.constraints = constraints
        self.containerMargins = containerMargins
    }

    /// Appends an item and returns its reference.
    @discardableResult
    public mutating func addItem(_ item: ConstraintItem) -> LayoutItemRef {
        items.append(item)
        return .item(items.count - 1)
    }

    /// Appends constraints.
    public mutating func add(_ constraints: LayoutConstraint...) {
        self.constraints.append(contentsOf: constraints)
    }
}

/// Frames computed by `ConstraintLayout.solve`: one per item, in item order, relative to
/// the container's top-left corner, plus the container's solved size.
public struct ConstraintLayoutResult: Hashable, Sendable {
    public var frames: [Frame]
    public var containerWidth: Double
    public var containerHeight: Double
    public init(frames: [Frame], containerWidth: Double, containerHeight: Double) {
        self.frames = frames
        self.containerWidth = containerWidth
        self.containerHeight = containerHeight
    }
}

/// Why a constraint layout could not be solved.
public enum ConstraintLayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Required constraints conflict; the labels name a minimal conflicting set.
    case unsatisfiable(ConstraintConflict)
    /// `constraints[index]` is malformed.
    case invalidConstraint(index: Int, reason: String)
    /// `items[index]` is malformed.
    case invalidItem(index: Int, reason: String)
    /// `stacks[index]` of a `FixFlexLayout` is malformed.
    case invalidStack(index: Int, reason: String)
    /// `groups[index]` of a `FlexibleSpaceLayout` is malformed.
    case invalidSpaceGroup(index: Int, reason: String)
    /// The container size is negative or not finite.
    case invalidContainerSize
    /// A configured limit was hit, or the solver failed numerically.
    case solver(SolverError)

    public var description: String {
        switch self {
        case .unsatisfiable(let c): return c.description
        case .invalidConstraint(let i, let r): return "constraints[\(i)]: \(r)"
        case .invalidItem(let i, let r): return "items[\(i)]: \(r)"
        case .invalidStack(let i, let r): return "stacks[\(i)]: \(r)"
        case .invalidSpaceGroup(let i, let r): return "groups[\(i)]: \(r)"
        case .invalidContainerSize: return "container size must be finite and >= 0"
        case .solver(let e): return e.description
        }
    }
}
