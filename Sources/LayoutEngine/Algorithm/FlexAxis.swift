// Axis arithmetic of Yoga's FlexDirection.h: resolving row against the text direction, and
// mapping flex-relative and inline-relative edges onto physical ones.

extension FlexDirection {
    @inline(__always) var isColumn: Bool { self == .column || self == .columnReverse }

    /// Row and row-reverse swap under right-to-left text.
    @inline(__always) func resolved(_ direction: Direction) -> FlexDirection {
        if direction == .rtl {
            if self == .row { return .rowReverse }
            if self == .rowReverse { return .row }
        }
        return self
    }

    /// The cross axis of a container whose resolved main axis is `self`.
    @inline(__always) func crossAxis(_ direction: Direction) -> FlexDirection {
        isColumn ? FlexDirection.row.resolved(direction) : .column
    }

    @inline(__always) var flexStartEdge: PhysicalEdge {
        switch self {
        case .column: return .top
        case .columnReverse: return .bottom
        case .row: return .left
        case .rowReverse: return .right
        }
    }

    @inline(__always) var flexEndEdge: PhysicalEdge {
        switch self {
        case .column: return .bottom
        case .columnReverse: return .top
        case .row: return .right
        case .rowReverse: return .left
        }
    }

    @inline(__always) func inlineStartEdge(_ direction: Direction) -> PhysicalEdge {
        isRow ? (direction == .rtl ? .right : .left) : .top
    }

    @inline(__always) func inlineEndEdge(_ direction: Direction) -> PhysicalEdge {
        isRow ? (direction == .rtl ? .left : .right) : .bottom
    }

    /// Yoga's `needsTrailingPosition`: reversed axes are laid out from the far edge.
    @inline(__always) var needsTrailingPosition: Bool { self == .rowReverse || self == .columnReverse }
}

// MARK: - Float helpers with Yoga's undefined (NaN) semantics

@inline(__always) func maxOrDefined(_ a: Float, _ b: Float) -> Float {
    if !a.isNaN && !b.isNaN { return a > b ? a : b }
    return a.isNaN ? b : a
}

@inline(__always) func minOrDefined(_ a: Float, _ b: Float) -> Float {
    if !a.isNaN && !b.isNaN { return a < b ? a : b }
    return a.isNaN ? b : a
}

@inline(__always) func inexactEquals(_ a: Float, _ b: Float) -> Bool {
    if !a.isNaN && !b.isNaN { return abs(a - b) < 0.0001 }
    return a.isNaN && b.isNaN
}

@inline(__always) func inexactEquals(_ a: Double, _ b: Double) -> Bool {
    if !a.isNaN && !b.isNaN { return abs(a - b) < 0.0001 }
    return a.isNaN && b.isNaN
}
