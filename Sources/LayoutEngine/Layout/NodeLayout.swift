/// How a size offered to a node on one axis must be read (Yoga's `SizingMode`, in CSS terms).
@usableFromInline enum SizingMode: UInt8, Sendable {
    /// The size is imposed (Yoga's `Exactly`).
    case stretchFit
    /// At most the offered size (Yoga's `AtMost`).
    case fitContent
    /// No constraint (Yoga's `Undefined`).
    case maxContent

    /// The measure-hook spelling of this mode.
    @inline(__always) var measureMode: MeasureMode {
        switch self {
        case .stretchFit: return .exactly
        case .fitContent: return .atMost
        case .maxContent: return .undefined
        }
    }
}

/// The four physical edges of a laid-out box, in Yoga's order.
@usableFromInline enum PhysicalEdge: UInt8 {
    case left, top, right, bottom
}

/// One number per physical edge.
@usableFromInline struct EdgeValues: Sendable {
    @usableFromInline var left: Float = 0
    @usableFromInline var top: Float = 0
    @usableFromInline var right: Float = 0
    @usableFromInline var bottom: Float = 0

    @inlinable init() {}

    @inline(__always) subscript(edge: PhysicalEdge) -> Float {
        get {
            switch edge {
            case .left: return left
            case .top: return top
            case .right: return right
            case .bottom: return bottom
            }
        }
        set {
            switch edge {
            case .left: left = newValue
            case .top: top = newValue
            case .right: right = newValue
            case .bottom: bottom = newValue
            }
        }
    }
}

/// One remembered layout or measurement of a node (Yoga's `CachedMeasurement`).
@usableFromInline struct CacheEntry: Sendable {
    @usableFromInline var availableWidth: Float = -1
    @usableFromInline var availableHeight: Float = -1
    @usableFromInline var widthMode: SizingMode = .maxContent
    @usableFromInline var heightMode: SizingMode = .maxContent
    @usableFromInline var computedWidth: Float = -1
    @usableFromInline var computedHeight: Float = -1
    /// The owner sizes percentages resolved against, and the layout call that stored the entry:
    /// entries from earlier calls are reused only for identical inputs (Yoga ignores owner sizes,
    /// which makes its results depend on earlier calls).
    @usableFromInline var ownerWidth: Float = .nan
    @usableFromInline var ownerHeight: Float = .nan
    @usableFromInline var generation: UInt32 = 0

    @inlinable init() {}

    /// The entry of one answer: the question's constraints and owner sizes, the computed size,
    /// and the call that stored it.
    @inline(__always) init(_ availableWidth: Float, _ availableHeight: Float, _ widthMode: SizingMode,
                           _ heightMode: SizingMode, computed width: Float, _ height: Float,
                           owner ownerWidth: Float, _ ownerHeight: Float, generation: UInt32) {
        self.availableWidth = availableWidth
        self.availableHeight = availableHeight
        self.widthMode = widthMode
        self.heightMode = heightMode
        self.computedWidth = width
        self.computedHeight = height
        self.ownerWidth = ownerWidth
        self.ownerHeight = ownerHeight
        self.generation = generation
    }

    @inline(__always) func matchesExactly(_ availableWidth: Float, _ availableHeight: Float,
                                          _ widthMode: SizingMode, _ heightMode: SizingMode) -> Bool {
        inexactEquals(self.availableWidth, availableWidth) && inexactEquals(self.availableHeight, availableHeight)
            && self.widthMode == widthMode && self.heightMode == heightMode
    }
}

/// Everything the layout pass computes and remembers for one node (Yoga's `LayoutResults`
/// plus the node's dirty flag). Stored contiguously, one per node.
@usableFromInline struct NodeLayout: Sendable {
    /// Unrounded position on each physical edge, relative to the parent.
    @usableFromInline var position = EdgeValues()
    @usableFromInline var margin = EdgeValues()
    @usableFromInline var border = EdgeValues()
    @usableFromInline var padding = EdgeValues()
    /// Unrounded final size (set when the node is laid out, not just measured).
    @usableFromInline var width: Float = .nan
    @usableFromInline var height: Float = .nan
    @usableFromInline var measuredWidth: Float = .nan
    @usableFromInline var measuredHeight: Float = .nan
    @usableFromInline var computedFlexBasis: Float = .nan
    @usableFromInline var computedFlexBasisGeneration: UInt32 = 0
    /// The item's automatic minimum size in its flex container's main axis (CSS Flexbox §4.5),
    /// set with its flex basis; NaN when it has none (every item not sized by `FlexItemSizing.css`).
    @usableFromInline var automaticMinimum: Float = .nan
    /// What the item's min-content contribution in that axis is clamped from (CSS Sizing 3
    /// §5.1, as Blink computes it for flex items): its definite main size, else its min-content
    /// main size; set with the automatic minimum, for the items of a container holding an item
    /// sized by `FlexItemSizing.css` only (`LayoutPass.automaticMinimumSize`).
    @usableFromInline var minContentBase: Float = .nan
    /// The item's target main size in §9.7 as `resolveFlexibleLengthsLikeCSS` runs it (NaN
    /// while not frozen); read by the line's second pass. Unused on lines Yoga's passes resolve.
    @usableFromInline var flexTarget: Float = .nan
    @usableFromInline var generationCount: UInt32 = 0
    @usableFromInline var configVersion: UInt32 = 0
    @usableFromInline var lineIndex: Int32 = 0
    @usableFromInline var direction: Direction = .inherit
    @usableFromInline var lastOwnerDirection: Direction = .inherit
    @usableFromInline var isDirty = true
    @usableFromInline var hadOverflow = false
    @usableFromInline var nextCachedMeasurementsIndex: UInt8 = 0
    /// Whether a descendant is sized by `FlexItemSizing.css`, as found by the layout call
    /// `holdsCSSItemGeneration` (`LayoutPass.subtreeHoldsItemSizedLikeCSS`).
    @usableFromInline var subtreeHoldsCSSItem = false
    @usableFromInline var holdsCSSItemGeneration: UInt32 = 0
    /// The single entry for full layouts; measurements live in the tree's cache array.
    @usableFromInline var cachedLayout = CacheEntry()
    /// The pixel-rounded frame the caller reads.
    @usableFromInline var frame = Frame.zero
    /// The available inner height of the node's last layout; with its padding and border, what
    /// its children's vertical margin percentages resolve against when their style asks for
    /// the container's size.
    @usableFromInline var marginHeightReference: Float = .nan

    @inlinable init() {}

    @inline(__always) func measured(_ axis: FlexDirection) -> Float {
        axis.isRow ? measuredWidth : measuredHeight
    }

    @inline(__always) mutating func setMeasured(_ axis: FlexDirection, _ value: Float) {
        if axis.isRow { measuredWidth = value } else { measuredHeight = value }
    }
}

/// Measurement cache slots per node, as Yoga's `MaxCachedMeasurements`.
@usableFromInline let maxCachedMeasurements = 8

/// The arguments of one layout call, to tell whether the next call changes them.
@usableFromInline struct RootInputs {
    var root: Int32
    var width: Float
    var widthMode: SizingMode
    var height: Float
    var heightMode: SizingMode
    var ownerWidth: Float
    var ownerHeight: Float
    var direction: Direction

    func matches(_ other: RootInputs) -> Bool {
        root == other.root && inexactEquals(width, other.width) && widthMode == other.widthMode
            && inexactEquals(height, other.height) && heightMode == other.heightMode
            && inexactEquals(ownerWidth, other.ownerWidth) && inexactEquals(ownerHeight, other.ownerHeight)
            && direction == other.direction
    }
}
