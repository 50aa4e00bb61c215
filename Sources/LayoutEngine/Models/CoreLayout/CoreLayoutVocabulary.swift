// Core Layout's vocabulary: axes, distributions and edges, named as the library names them.

/// Namespace of the Core Layout model: `Layout`, `ContainerBehavior`, `SizeBehavior`,
/// `Edges`, `ComputedLayout`.
public enum CoreLayout {}

extension CoreLayout {
    /// The axis a container places its children along.
    public enum Axis: UInt8, Hashable, Sendable, CaseIterable {
        case horizontal, vertical
    }

    /// Placement of children along the primary axis (`justify-content`).
    public enum PrimaryAxisDistribution: UInt8, Hashable, Sendable, CaseIterable {
        case leading, center, trailing, spaceAround, spaceBetween
    }

    /// Placement of children along the secondary axis (`align-items`, or `align-self` when
    /// a child overrides it).
    public enum SecondaryAxisDistribution: UInt8, Hashable, Sendable, CaseIterable {
        case leading, center, trailing, stretch
    }

    /// Placement of wrapped lines along the secondary axis (`align-content`).
    public enum SecondaryAxisDistributionWhenWrapping: UInt8, Hashable, Sendable, CaseIterable {
        case leading, center, trailing, stretch, spaceAround, spaceBetween
    }

    /// Lengths on the four flow-relative edges. As in Core Layout, an edge not given is 0,
    /// not unset: `Edges(top: 8)` also sets leading, bottom and trailing to 0.
    public struct Edges: Hashable, Sendable {
        public var top: Float
        public var leading: Float
        public var bottom: Float
        public var trailing: Float

        /// The same length on every edge.
        public init(all: Float) {
            top = all; leading = all; bottom = all; trailing = all
        }

        /// Per-edge lengths; `topAndBottom` and `sides` (leading and trailing) win over the
        /// single edges they cover.
        public init(top: Float? = nil, leading: Float? = nil, bottom: Float? = nil, trailing: Float? = nil,
                    topAndBottom: Float? = nil, sides: Float? = nil) {
            self.top = topAndBottom ?? top ?? 0
            self.bottom = topAndBottom ?? bottom ?? 0
            self.leading = sides ?? leading ?? 0
            self.trailing = sides ?? trailing ?? 0
        }

        public static let zero = Edges(all: 0)

        /// The engine's edges: top, start (leading), bottom, end (trailing).
        public var engineEdges: LayoutEngine.Edges {
            var edges = LayoutEngine.Edges()
            edges.top = .points(top)
            edges.start = .points(leading)
            edges.bottom = .points(bottom)
            edges.end = .points(trailing)
            return edges
        }
    }

    /// A width and/or a height, for minimum and maximum sizes.
    public struct WidthAndOrHeight: Hashable, Sendable {
        public var width: Float?
        public var height: Float?

        public init(width: Float? = nil, height: Float? = nil) {
            self.width = width
            self.height = height
        }
    }

    /// A child's own position, overriding where its container would put it: `relative`
    /// offsets it from its place in the flow; `absolute` takes it out of the flow and places
    /// it against its container's edges.
    public enum OverriddenPosition: Hashable, Sendable {
        case relative(Edges)
        case absolute(Edges)
    }
}

extension CoreLayout.PrimaryAxisDistribution {
    var justify: Justify {
        switch self {
        case .leading: return .flexStart
        case .center: return .center
        case .trailing: return .flexEnd
        case .spaceAround: return .spaceAround
        case .spaceBetween: return .spaceBetween
        }
    }
}

extension CoreLayout.SecondaryAxisDistribution {
    var align: Align {
        switch self {
        case .leading: return .flexStart
        case .center: return .center
        case .trailing: return .flexEnd
        case .stretch: return .stretch
        }
    }
}

extension CoreLayout.SecondaryAxisDistributionWhenWrapping {
    var align: Align {
        switch self {
        case .leading: return .flexStart
        case .center: return .center
        case .trailing: return .flexEnd
        case .stretch: return .stretch
        case .spaceAround: return .spaceAround
        case .spaceBetween: return .spaceBetween
        }
    }
}
