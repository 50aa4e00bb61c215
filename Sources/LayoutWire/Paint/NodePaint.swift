import LayoutEngine

/// What a node's paint style keys say: how it looks, never where it goes. Decoded beside the
/// engine's `Style` (not into it), so paint changes neither frames nor the structural hash.
public struct NodePaint: Hashable, Sendable {
    public var backgroundColor: CSSColor?
    /// `borderColor` and its per-edge forms, by `PaintEdge`: a per-edge key wins over
    /// `borderColor` whatever their order.
    public var borderColor: CSSColor?
    public var borderEdgeColors: [PaintEdge: CSSColor] = [:]
    public var borderRadius: Float?
    /// The text colour.
    public var color: CSSColor?
    /// 0...1, applied to the node and everything inside it.
    public var opacity: Float?

    public init() {}

    /// The colour of the border on a physical edge, for a node laid out in `direction`.
    public func borderColor(_ edge: PaintEdge, direction: Direction) -> CSSColor? {
        let logical: PaintEdge? = switch edge {
        case .left: direction == .rtl ? .end : .start
        case .right: direction == .rtl ? .start : .end
        default: nil
        }
        return borderEdgeColors[edge] ?? logical.flatMap { borderEdgeColors[$0] } ?? borderColor
    }
}

/// The edges a border colour can name, as React Native spells them (`borderTopColor`, ...).
public enum PaintEdge: UInt8, Hashable, Sendable, CaseIterable {
    case left, top, right, bottom, start, end
}

/// The paint of the nodes that have any, by `NodeID.index`, and the model kind of each node
/// that is not a flexbox node: a side table of a `LayoutRequest` for renderers.
public struct PaintTable: Hashable, Sendable {
    public var nodes: [Int32: NodePaint] = [:]
    /// The `"type"` of nodes of the seed models (`stack`, `core-layout`, `constraints`, ...).
    public var modelKinds: [Int32: String] = [:]

    public init() {}

    public subscript(node: NodeID) -> NodePaint? { nodes[node.index] }

    public var isEmpty: Bool { nodes.isEmpty && modelKinds.isEmpty }
}
