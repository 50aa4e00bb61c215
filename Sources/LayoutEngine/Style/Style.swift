/// Every layout input of one box, as Yoga's style holds it. A value type: copy it, change it,
/// hand it to a `LayoutTree`. Unset numbers are `nil` and unset lengths `.undefined`, so the
/// engine can tell "not set" from an explicit value (Yoga's `flex` shorthand depends on it).
public struct Style: Hashable, Sendable {
    public var direction: Direction = .inherit
    public var flexDirection: FlexDirection = .column
    public var justifyContent: Justify = .flexStart
    public var alignContent: Align = .flexStart
    public var alignItems: Align = .stretch
    public var alignSelf: Align = .auto
    public var positionType: PositionType = .relative
    public var flexWrap: Wrap = .noWrap
    public var overflow: Overflow = .visible
    public var display: Display = .flex
    public var boxSizing: BoxSizing = .borderBox

    // Stored in the order the layout pass reads them, so each node's hot fields share a cache
    // line or two: sizes first, then flex factors, gaps, and the edge sets.
    public var width: StyleValue = .auto
    public var height: StyleValue = .auto
    public var minWidth: StyleValue = .undefined
    public var minHeight: StyleValue = .undefined
    public var maxWidth: StyleValue = .undefined
    public var maxHeight: StyleValue = .undefined

    /// Yoga's `flex` shorthand: a positive value means flexGrow = flex, and (unless set) a flex
    /// basis of 0 and, under web defaults, flexShrink 1; a negative one means flexShrink = -flex.
    public var flex: Float? = nil
    public var flexGrow: Float? = nil
    public var flexShrink: Float? = nil
    public var flexBasis: StyleValue = .auto
    /// Width divided by height; nil when not set.
    public var aspectRatio: Float? = nil

    public var columnGap: StyleValue = .undefined
    public var rowGap: StyleValue = .undefined
    public var gap: StyleValue = .undefined

    public var margin = Edges()
    /// Insets: `left`, `top`, `right`, `bottom`, `start`, `end` (and the shorthands).
    public var position = Edges()
    public var padding = Edges()
    /// Border widths. Only points are meaningful; percentages resolve to nothing, as in Yoga.
    public var border = Edges()

    /// StackViewLayout's rule: percentages of the margins resolve against the container's
    /// full size (padding and border included), the top and bottom ones against its height,
    /// where flexbox resolves all four against its inner width.
    public var percentMarginsAgainstContainerSize: Bool = false

    /// Yoga's defaults, or with `webDefaults` the ones of `useWebDefaults`: row direction,
    /// alignContent stretch and (applied by the engine) flexShrink 1.
    public init(webDefaults: Bool = false) {
        if webDefaults {
            flexDirection = .row
            alignContent = .stretch
        }
    }

    /// The gap on one gutter, honouring the `gap` shorthand.
    @inlinable public func gap(_ gutter: Gutter) -> StyleValue {
        switch gutter {
        case .column: return columnGap.isUndefined ? gap : columnGap
        case .row: return rowGap.isUndefined ? gap : rowGap
        case .all: return gap
        }
    }
}
