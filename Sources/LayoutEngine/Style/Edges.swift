/// The edges a box-model property can be set on, as Yoga names them. Physical edges (left,
/// top, right, bottom), flow-relative ones (start, end), and the shorthands (horizontal,
/// vertical, all). The engine resolves them by Yoga's precedence: a physical or flow-relative
/// edge beats horizontal/vertical, which beat all.
public enum Edge: UInt8, Sendable, CaseIterable {
    case left, top, right, bottom, start, end, horizontal, vertical, all
}

/// One value per `Edge`, for margin, padding, border and position (insets).
public struct Edges: Hashable, Sendable {
    public var left: StyleValue = .undefined
    public var top: StyleValue = .undefined
    public var right: StyleValue = .undefined
    public var bottom: StyleValue = .undefined
    public var start: StyleValue = .undefined
    public var end: StyleValue = .undefined
    public var horizontal: StyleValue = .undefined
    public var vertical: StyleValue = .undefined
    public var all: StyleValue = .undefined

    public init() {}

    @inlinable public subscript(edge: Edge) -> StyleValue {
        get {
            switch edge {
            case .left: return left
            case .top: return top
            case .right: return right
            case .bottom: return bottom
            case .start: return start
            case .end: return end
            case .horizontal: return horizontal
            case .vertical: return vertical
            case .all: return all
            }
        }
        set {
            switch edge {
            case .left: left = newValue
            case .top: top = newValue
            case .right: right = newValue
            case .bottom: bottom = newValue
            case .start: start = newValue
            case .end: end = newValue
            case .horizontal: horizontal = newValue
            case .vertical: vertical = newValue
            case .all: all = newValue
            }
        }
    }
}

/// The gutters between items: `gap` sets both, `columnGap`/`rowGap` override it per axis.
public enum Gutter: UInt8, Sendable, CaseIterable {
    case column, row, all
}
