/// The computed margin, border and padding of a laid-out box, per physical edge, in points
/// (unrounded, as the layout pass resolved them): what a picture of the layout shades around
/// and inside each frame, as browser devtools do.
public struct BoxEdges: Hashable, Sendable {
    /// One value per physical edge.
    public struct Insets: Hashable, Sendable {
        public var left: Float, top: Float, right: Float, bottom: Float
        public init(left: Float = 0, top: Float = 0, right: Float = 0, bottom: Float = 0) {
            self.left = left
            self.top = top
            self.right = right
            self.bottom = bottom
        }
    }

    public var margin = Insets()
    public var border = Insets()
    public var padding = Insets()

    public init(margin: Insets = Insets(), border: Insets = Insets(), padding: Insets = Insets()) {
        self.margin = margin
        self.border = border
        self.padding = padding
    }
}

extension LayoutTree {
    /// The margin, border and padding `node` was laid out with (zero before any layout).
    public func boxEdges(of node: NodeID) -> BoxEdges {
        let i = Int(node.index)
        guard i >= 0 && i < layouts.count else { return BoxEdges() }
        func insets(_ values: EdgeValues) -> BoxEdges.Insets {
            // A node never laid out (display: none) may hold NaN; it draws nothing around itself.
            func finite(_ value: Float) -> Float { value.isFinite ? value : 0 }
            return BoxEdges.Insets(left: finite(values.left), top: finite(values.top),
                                   right: finite(values.right), bottom: finite(values.bottom))
        }
        let layout = layouts[i]
        return BoxEdges(margin: insets(layout.margin), border: insets(layout.border), padding: insets(layout.padding))
    }
}
