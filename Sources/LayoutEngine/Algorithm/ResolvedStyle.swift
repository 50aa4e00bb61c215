// Style lookups as Yoga's Style.h resolves them: edge precedence (start/end, then the physical
// edge, then horizontal/vertical, then all), percentages, box-sizing and min/max.
//
// The lookups the layout pass makes per item are `@_transparent`: a `Style` is 416 bytes, and
// where the optimizer left a call to one of its methods on `styles[n]` (despite
// `@inline(__always)`), it passed the node's whole style as a copy on the stack, a 413-byte
// memcpy per call (about 9,000 per layout of a 1,000-cell feed).

extension StyleValue {
    /// Points, or a percentage of `reference`; NaN (Yoga's undefined) for everything else.
    @inline(__always) func resolveNaN(_ reference: Float) -> Float {
        switch unit {
        case .points: return value
        case .percent: return value * reference * 0.01
        default: return .nan
        }
    }

    /// Yoga's `inexactEquals` on two style lengths.
    @inline(__always) func inexactlyEquals(_ other: StyleValue) -> Bool {
        unit == other.unit && inexactEquals(value, other.value)
    }
}

extension Edges {
    /// The value that applies to a physical edge under a resolved direction.
    @inline(__always) func resolve(_ edge: PhysicalEdge, _ direction: Direction) -> StyleValue {
        withUnsafePointer(to: self) { Self.resolve(edge, direction, in: $0) }
    }

    /// The value that applies to a physical edge of the edges at `e`, read one edge at a time.
    /// The layout's per-item lookups read a style in place through this: on an `Edges` value
    /// taken from `styles[n]`, the optimizer loaded all nine edges before choosing among them.
    @inline(__always)
    static func resolve(_ edge: PhysicalEdge, _ direction: Direction, in e: UnsafePointer<Edges>) -> StyleValue {
        switch edge {
        case .left:
            if direction == .ltr, !e.pointee.start.isUndefined { return e.pointee.start }
            if direction == .rtl, !e.pointee.end.isUndefined { return e.pointee.end }
            if !e.pointee.left.isUndefined { return e.pointee.left }
            if !e.pointee.horizontal.isUndefined { return e.pointee.horizontal }
            return e.pointee.all
        case .right:
            if direction == .ltr, !e.pointee.end.isUndefined { return e.pointee.end }
            if direction == .rtl, !e.pointee.start.isUndefined { return e.pointee.start }
            if !e.pointee.right.isUndefined { return e.pointee.right }
            if !e.pointee.horizontal.isUndefined { return e.pointee.horizontal }
            return e.pointee.all
        case .top:
            if !e.pointee.top.isUndefined { return e.pointee.top }
            if !e.pointee.vertical.isUndefined { return e.pointee.vertical }
            return e.pointee.all
        case .bottom:
            if !e.pointee.bottom.isUndefined { return e.pointee.bottom }
            if !e.pointee.vertical.isUndefined { return e.pointee.vertical }
            return e.pointee.all
        }
    }
}

extension Style {
    // MARK: margins

    /// Margin on a physical edge; auto and undefined count as 0.
    @inline(__always) func margin(_ edge: PhysicalEdge, _ direction: Direction, _ widthSize: Float) -> Float {
        withUnsafePointer(to: margin) { Self.margin(edge, direction, widthSize, in: $0) }
    }

    /// Margin on a physical edge of the margins at `margins` (see `Edges.resolve(_:_:in:)`).
    @inline(__always) static func margin(_ edge: PhysicalEdge, _ direction: Direction, _ widthSize: Float,
                                         in margins: UnsafePointer<Edges>) -> Float {
        let v = Edges.resolve(edge, direction, in: margins).resolveNaN(widthSize)
        return v.isNaN ? 0 : v
    }

    @inline(__always) func flexStartMargin(_ axis: FlexDirection, _ direction: Direction, _ widthSize: Float) -> Float {
        margin(axis.flexStartEdge, direction, widthSize)
    }

    @inline(__always) func flexEndMargin(_ axis: FlexDirection, _ direction: Direction, _ widthSize: Float) -> Float {
        margin(axis.flexEndEdge, direction, widthSize)
    }

    @inline(__always) func inlineStartMargin(_ axis: FlexDirection, _ direction: Direction, _ widthSize: Float) -> Float {
        margin(axis.inlineStartEdge(direction), direction, widthSize)
    }

    @inline(__always) func inlineEndMargin(_ axis: FlexDirection, _ direction: Direction, _ widthSize: Float) -> Float {
        margin(axis.inlineEndEdge(direction), direction, widthSize)
    }

    /// Both margins on an axis; the total does not depend on the direction.
    @inline(__always) func marginForAxis(_ axis: FlexDirection, _ widthSize: Float) -> Float {
        axis.isRow
            ? margin(.left, .ltr, widthSize) + margin(.right, .ltr, widthSize)
            : margin(.top, .ltr, widthSize) + margin(.bottom, .ltr, widthSize)
    }

    @inline(__always) func flexStartMarginIsAuto(_ axis: FlexDirection, _ direction: Direction) -> Bool {
        margin.resolve(axis.flexStartEdge, direction).isAuto
    }

    @inline(__always) func flexEndMarginIsAuto(_ axis: FlexDirection, _ direction: Direction) -> Bool {
        margin.resolve(axis.flexEndEdge, direction).isAuto
    }

    // MARK: padding and border

    @_transparent func padding(_ edge: PhysicalEdge, _ direction: Direction, _ widthSize: Float) -> Float {
        Self.padding(padding, edge, direction, widthSize)
    }

    /// Border width on an edge; percentages resolve against 0, as in Yoga.
    @_transparent func border(_ edge: PhysicalEdge, _ direction: Direction) -> Float {
        Self.border(border, edge, direction)
    }

    @_transparent static func padding(_ padding: Edges, _ edge: PhysicalEdge, _ direction: Direction,
                                      _ widthSize: Float) -> Float {
        withUnsafePointer(to: padding) { Self.padding(edge, direction, widthSize, in: $0) }
    }

    @_transparent static func border(_ border: Edges, _ edge: PhysicalEdge, _ direction: Direction) -> Float {
        withUnsafePointer(to: border) { Self.border(edge, direction, in: $0) }
    }

    /// Padding on a physical edge of the padding at `padding` (see `Edges.resolve(_:_:in:)`).
    @_transparent static func padding(_ edge: PhysicalEdge, _ direction: Direction, _ widthSize: Float,
                                      in padding: UnsafePointer<Edges>) -> Float {
        maxOrDefined(Edges.resolve(edge, direction, in: padding).resolveNaN(widthSize), 0)
    }

    /// Border width on a physical edge of the borders at `border`.
    @_transparent static func border(_ edge: PhysicalEdge, _ direction: Direction, in border: UnsafePointer<Edges>) -> Float {
        maxOrDefined(Edges.resolve(edge, direction, in: border).resolveNaN(0), 0)
    }

    @_transparent func paddingAndBorder(_ edge: PhysicalEdge, _ direction: Direction, _ widthSize: Float) -> Float {
        Self.paddingAndBorder(padding, border, edge, direction, widthSize)
    }

    @_transparent static func paddingAndBorder(_ padding: Edges, _ border: Edges, _ edge: PhysicalEdge,
                                               _ direction: Direction, _ widthSize: Float) -> Float {
        Self.padding(padding, edge, direction, widthSize) + Self.border(border, edge, direction)
    }

    @_transparent func flexStartPaddingAndBorder(_ axis: FlexDirection, _ direction: Direction, _ widthSize: Float) -> Float {
        paddingAndBorder(axis.flexStartEdge, direction, widthSize)
    }

    @_transparent func flexEndPaddingAndBorder(_ axis: FlexDirection, _ direction: Direction, _ widthSize: Float) -> Float {
        paddingAndBorder(axis.flexEndEdge, direction, widthSize)
    }

    /// Padding plus border on both sides of an axis (Yoga's `paddingAndBorderForAxis`).
    @_transparent func paddingAndBorderForAxis(_ axis: FlexDirection, _ direction: Direction, _ widthSize: Float) -> Float {
        Self.paddingAndBorderForAxis(padding, border, axis.isRow, direction, widthSize)
    }

    /// Padding plus border on both sides, horizontally when `row`.
    @_transparent static func paddingAndBorderForAxis(_ padding: Edges, _ border: Edges, _ row: Bool,
                                                      _ direction: Direction, _ widthSize: Float) -> Float {
        withUnsafePointer(to: padding) { padding in
            withUnsafePointer(to: border) { border in
                paddingAndBorderForAxis(row, direction, widthSize, padding: padding, border: border)
            }
        }
    }

    /// Padding plus border on both sides, horizontally when `row`, of the edges at `padding`
    /// and `border`.
    @_transparent static func paddingAndBorderForAxis(_ row: Bool, _ direction: Direction, _ widthSize: Float,
                                                      padding: UnsafePointer<Edges>,
                                                      border: UnsafePointer<Edges>) -> Float {
        @_transparent func both(_ edge: PhysicalEdge) -> Float {
            Self.padding(edge, direction, widthSize, in: padding) + Self.border(edge, direction, in: border)
        }
        return row ? both(.left) + both(.right) : both(.top) + both(.bottom)
    }

    @_transparent func borderForAxis(_ axis: FlexDirection) -> Float {
        axis.isRow ? border(.left, .ltr) + border(.right, .ltr) : border(.top, .ltr) + border(.bottom, .ltr)
    }

    // MARK: insets

    @inline(__always) func positionValue(_ edge: PhysicalEdge, _ direction: Direction) -> StyleValue {
        position.resolve(edge, direction)
    }

    /// An inset on a physical edge; auto and undefined count as 0.
    @inline(__always) func position(_ edge: PhysicalEdge, _ direction: Direction, _ axisSize: Float) -> Float {
        withUnsafePointer(to: position) { Self.position(edge, direction, axisSize, in: $0) }
    }

    /// Set and not auto.
    @inline(__always) func isPositionDefinite(_ edge: PhysicalEdge, _ direction: Direction) -> Bool {
        withUnsafePointer(to: position) { Self.isPositionDefinite(edge, direction, in: $0) }
    }

    /// An inset on a physical edge of the insets at `insets` (see `Edges.resolve(_:_:in:)`).
    @inline(__always) static func position(_ edge: PhysicalEdge, _ direction: Direction, _ axisSize: Float,
                                           in insets: UnsafePointer<Edges>) -> Float {
        let v = Edges.resolve(edge, direction, in: insets).resolveNaN(axisSize)
        return v.isNaN ? 0 : v
    }

    /// Whether the inset on a physical edge of the insets at `insets` is set and not auto.
    @inline(__always) static func isPositionDefinite(_ edge: PhysicalEdge, _ direction: Direction,
                                                     in insets: UnsafePointer<Edges>) -> Bool {
        let v = Edges.resolve(edge, direction, in: insets)
        return !v.isUndefined && !v.isAuto
    }

    @_transparent var horizontalInsetsDefined: Bool {
        !position.left.isUndefined || !position.right.isUndefined || !position.all.isUndefined
            || !position.horizontal.isUndefined || !position.start.isUndefined || !position.end.isUndefined
    }

    @_transparent var verticalInsetsDefined: Bool {
        !position.top.isUndefined || !position.bottom.isUndefined || !position.all.isUndefined
            || !position.vertical.isUndefined
    }

    // MARK: gaps

    /// The gap between items along `axis` (column gap on a row axis), never negative.
    @inline(__always) func gapForAxis(_ axis: FlexDirection, _ ownerSize: Float) -> Float {
        let g = axis.isRow ? gap(.column) : gap(.row)
        return maxOrDefined(g.resolveNaN(ownerSize), 0)
    }

    // MARK: dimensions

    /// Yoga's processed dimension: max when min equals max, else the declared size.
    @_transparent func processedDimension(_ row: Bool) -> StyleValue {
        let maxV = row ? maxWidth : maxHeight
        let minV = row ? minWidth : minHeight
        if !maxV.isUndefined && maxV.inexactlyEquals(minV) { return maxV }
        return row ? width : height
    }

    /// Padding plus border along a dimension, added to sizes under content-box sizing.
    @_transparent func boxSizingExtra(_ row: Bool, _ direction: Direction, _ ownerWidth: Float) -> Float {
        boxSizing == .borderBox ? 0 : Self.contentBoxExtra(padding, border, row, direction, ownerWidth)
    }

    /// `boxSizingExtra` under content-box sizing, out of line and given only the edges it reads:
    /// inlined into every size lookup, it grew the layout's functions (3 % more instructions on
    /// nested_flex) for a sizing few trees use.
    @inline(never)
    static func contentBoxExtra(_ padding: Edges, _ border: Edges, _ row: Bool, _ direction: Direction,
                                _ ownerWidth: Float) -> Float {
        paddingAndBorderForAxis(padding, border, row, direction, ownerWidth)
    }

    @_transparent func resolvedMinDimension(_ row: Bool, _ direction: Direction, _ reference: Float, _ ownerWidth: Float) -> Float {
        let v = (row ? minWidth : minHeight).resolveNaN(reference)
        if boxSizing == .borderBox || v.isNaN { return v }
        return v + boxSizingExtra(row, direction, ownerWidth)
    }

    @_transparent func resolvedMaxDimension(_ row: Bool, _ direction: Direction, _ reference: Float, _ ownerWidth: Float) -> Float {
        let v = (row ? maxWidth : maxHeight).resolveNaN(reference)
        if boxSizing == .borderBox || v.isNaN { return v }
        return v + boxSizingExtra(row, direction, ownerWidth)
    }

    /// Yoga's `hasDefiniteLength`: a non-negative size resolves against `ownerSize`.
    @inline(__always) func hasDefiniteLength(_ row: Bool, _ ownerSize: Float) -> Bool {
        let v = processedDimension(row).resolveNaN(ownerSize)
        return !v.isNaN && v >= 0
    }

    /// Yoga's `getResolvedDimension`: the declared size as a border-box size.
    @_transparent func resolvedDimension(_ row: Bool, _ direction: Direction, _ reference: Float, _ ownerWidth: Float) -> Float {
        let v = processedDimension(row).resolveNaN(reference)
        if boxSizing == .borderBox || v.isNaN { return v }
        return v + boxSizingExtra(row, direction, ownerWidth)
    }

    /// The aspect ratio, NaN when unset or degenerate.
    @inline(__always) var resolvedAspectRatio: Float {
        guard let r = aspectRatio, r > 0, r.isFinite else { return .nan }
        return r
    }
}
