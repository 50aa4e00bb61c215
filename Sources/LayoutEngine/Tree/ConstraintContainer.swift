// A constraint layout as the content of one tree node: the node is sized by solving its
// constraints, and its children — one per item, in item order — are placed at the items'
// solved frames (see Algorithm/ConstraintContainerLayout.swift).

/// Content of a node whose children are placed by a `ConstraintLayout`.
///
/// Items `0..<childCount` of `layout` are the node's children in order; any further items
/// are layout guides (FixFlex spacers, flexible spaces) with no node. The node's measure is
/// the layout solved in the offered inner size (an undefined axis fits the content); after the
/// flexbox pass, the layout is solved at the node's final inner size and each child is laid
/// out at exactly its item's frame, offset by the node's padding and border.
public struct ConstraintContainer: Hashable, Sendable {
    /// The lowered layout (FixFlex and flexible-space layouts lowered with `lowered()`).
    public var layout: ConstraintLayout
    /// Per item: axes on which the item's intrinsic size is its child's max-content size,
    /// measured by the engine. Missing entries mean none.
    public var intrinsicFromChild: [IntrinsicAxes]
    /// Bounds on the solver's work for each solve.
    public var limits: SolverLimits

    public init(layout: ConstraintLayout, intrinsicFromChild: [IntrinsicAxes] = [], limits: SolverLimits = SolverLimits()) {
        self.layout = layout
        self.intrinsicFromChild = intrinsicFromChild
        self.limits = limits
    }

    /// Which axes of an item take their intrinsic size from the item's child.
    public struct IntrinsicAxes: OptionSet, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let width = IntrinsicAxes(rawValue: 1)
        public static let height = IntrinsicAxes(rawValue: 2)
    }
}
