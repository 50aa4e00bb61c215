/// What a leaf holds besides its style: the content the engine measures (Yoga's measure
/// function) when the style does not fix the leaf's size.
public enum NodeContent: Hashable, Sendable {
    /// No content: the node is sized by its style and children alone.
    case none
    /// Content with a natural size, like an image or a label measured by the client: offered
    /// exactly, it takes the offer; at most, the smaller of the two; undefined, its own size.
    case fixed(Size)
    /// Yoga's test text measurer: every character a 10×10 box, words split on single spaces
    /// (see `conformance/yoga/README.md`).
    case intrinsicText(String)
    /// Yoga's benchmark leaf: its own size on an axis with no limit, otherwise the offer.
    case benchmarkLeaf(Size)
    /// Measured by `LayoutTree.measureFunction` (and `baselineFunction`), for Swift callers.
    /// `tag` is the caller's; it is part of the structural hash, so equal tags must mean equal
    /// content. `flexSizing` says how the leaf is sized as a flex item (Yoga's way unless told).
    case custom(tag: Int, flexSizing: FlexItemSizing = .yoga)
    /// A container whose children are placed by a constraint layout (see `ConstraintContainer`):
    /// measured by solving its constraints; its children are laid out at their items' frames.
    case constraints(ConstraintContainer)
    /// A size computed from the size the container offers: `multiplier × offered + constant`
    /// per axis (Core Layout's relative sizes).
    case proportional(ProportionalSize)

    /// True when the engine must call a measure hook for this node.
    @inlinable public var isMeasured: Bool {
        if case .none = self { return false }
        return true
    }
}

/// How a leaf measured by the measure hook is sized as a flex item where its style leaves that
/// to its content (`flexBasis: auto` without a definite main size; `minWidth` / `minHeight`
/// unset in the main axis).
public enum FlexItemSizing: UInt8, Hashable, Sendable {
    /// Yoga's: the flex basis is measured with the container's main size as an at-most limit,
    /// and there is no automatic minimum size (an item may shrink to nothing).
    case yoga
    /// CSS Flexbox's, for inline content such as text, whose min-content and max-content sizes
    /// differ: the flex basis is the max-content main size (§9.2 step 3 E, `flex-basis:
    /// content`), not clamped by the item's min and max (only its hypothetical main size is),
    /// and the automatic minimum size (§4.5, `min-width` / `min-height: auto`) is
    /// the min-content main size: in a row the width at which the content breaks at every
    /// opportunity, in a column the content's height at the item's width; capped by a definite
    /// main size (the specified size suggestion) and by the max size, and none when the style
    /// sets the min size or `overflow` is not `visible` (a scroll container's is 0). A
    /// container holding such an item sizes all its items so (their bases max-content, their
    /// automatic minimums their min-content sizes), resolves its lines' flexible lengths as
    /// §9.7 runs (not Yoga's two passes), and sized to fit its content and offered less than
    /// a line's hypothetical sizes takes CSS's fit-content size, the space offered but at
    /// least its min-content size (its items' min-content contributions, summed or, wrapping,
    /// the largest), and shrinks its items into it (§9.2 step 4, §9.9.1). A node holding such
    /// an item anywhere below is measured at its min-content size when offered at most 0
    /// (Yoga sizes it 0). A leaf whose min or max width overrides its content's width is
    /// measured again at that width.
    case css
}

/// A Swift measure hook: the node, then width and its mode, then height and its mode.
public typealias MeasureFunction = (NodeID, Float, MeasureMode, Float, MeasureMode) -> Size
/// A Swift baseline hook: the node, its laid-out width and height, and its content box
/// (relative to its border box: the padding and border it was laid out with, percentages
/// resolved); returns the distance from its top to its baseline.
public typealias BaselineFunction = (NodeID, Float, Float, Frame) -> Float
