// StackViewLayout's vocabulary: a stack with a flexbox-like API and its own defaults
// (column, justify start, align stretch, grow 0, shrink 0).

/// Namespace of the StackViewLayout model: `StackView`, `StackItem` and their keywords.
public enum StackViewLayout {}

extension StackViewLayout {
    /// The main axis: items are placed top to bottom (`column`, the default) or in text
    /// direction (`row`).
    public enum Direction: UInt8, Hashable, Sendable, CaseIterable {
        case column, row
    }

    /// Distribution of free space along the main axis. Default `start`.
    public enum JustifyContent: UInt8, Hashable, Sendable, CaseIterable {
        case start, center, end, spaceBetween, spaceAround, spaceEvenly
    }

    /// Placement of items on the cross axis. Default `stretch`.
    public enum AlignItems: UInt8, Hashable, Sendable, CaseIterable {
        case stretch, start, center, end
    }

    /// One item's cross-axis placement; `auto` (the default) uses the stack's `alignItems`.
    public enum AlignSelf: UInt8, Hashable, Sendable, CaseIterable {
        case auto, stretch, start, center, end
    }

    /// A length in points or in percent of the container (StackViewLayout's `SPercent`).
    public enum Length: Hashable, Sendable {
        case points(Float)
        case percent(Float)

        /// The engine's value for this length.
        @inlinable public var styleValue: StyleValue {
            switch self {
            case .points(let v): return .points(v)
            case .percent(let v): return .percent(v)
            }
        }
    }

    /// Per-edge lengths for margins and padding. `start`/`end` follow the layout direction
    /// and win over `left`/`right`; unset edges are nil (0).
    public struct Insets: Hashable, Sendable {
        public var top: Length?
        public var left: Length?
        public var bottom: Length?
        public var right: Length?
        public var start: Length?
        public var end: Length?

        public init(top: Length? = nil, left: Length? = nil, bottom: Length? = nil, right: Length? = nil,
                    start: Length? = nil, end: Length? = nil) {
            self.top = top
            self.left = left
            self.bottom = bottom
            self.right = right
            self.start = start
            self.end = end
        }

        /// The same length on every edge (`margin(_ value:)`).
        public static func all(_ value: Length) -> Insets {
            Insets(top: value, left: value, bottom: value, right: value)
        }

        /// `margin(_ vertical:, _ horizontal:)`: top/bottom and left/right/start/end.
        public static func symmetric(vertical: Length, horizontal: Length) -> Insets {
            Insets(top: vertical, left: horizontal, bottom: vertical, right: horizontal,
                   start: horizontal, end: horizontal)
        }

        /// The engine's edges for these insets.
        public var edges: Edges {
            var edges = Edges()
            if let top { edges.top = top.styleValue }
            if let left { edges.left = left.styleValue }
            if let bottom { edges.bottom = bottom.styleValue }
            if let right { edges.right = right.styleValue }
            if let start { edges.start = start.styleValue }
            if let end { edges.end = end.styleValue }
            return edges
        }
    }
}

extension StackViewLayout.Direction {
    @inlinable var flexDirection: FlexDirection { self == .column ? .column : .row }
}

extension StackViewLayout.JustifyContent {
    @inlinable var justify: Justify {
        switch self {
        case .start: return .flexStart
        case .center: return .center
        case .end: return .flexEnd
        case .spaceBetween: return .spaceBetween
        case .spaceAround: return .spaceAround
        case .spaceEvenly: return .spaceEvenly
        }
    }
}

extension StackViewLayout.AlignItems {
    @inlinable var align: Align {
        switch self {
        case .stretch: return .stretch
        case .start: return .flexStart
        case .center: return .center
        case .end: return .flexEnd
        }
    }
}

extension StackViewLayout.AlignSelf {
    @inlinable var align: Align {
        switch self {
        case .auto: return .auto
        case .stretch: return .stretch
        case .start: return .flexStart
        case .center: return .center
        case .end: return .flexEnd
        }
    }
}
