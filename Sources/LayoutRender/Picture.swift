import LayoutTextModel
import LayoutWire

/// A drawing of a laid-out tree, in points, the root's top-left at (0, 0): what both back ends
/// (`SVGWriter`, `CairoPNGWriter`) draw, item by item in order, so an SVG and a PNG of the
/// same request show the same shapes.
public struct Picture: Hashable, Sendable {
    /// The root's size.
    public var width: Float
    public var height: Float
    /// Painted under everything; nil leaves the picture transparent.
    public var background: CSSColor?
    public var items: [Item]

    public init(width: Float, height: Float, background: CSSColor?, items: [Item]) {
        self.width = width
        self.height = height
        self.background = background
        self.items = items
    }

    /// One thing to draw.
    public enum Item: Hashable, Sendable {
        /// A node's box: exactly one per node, at its absolute frame.
        case box(Box)
        /// The area between two rectangles (`outer` holds `inner`), filled: the margin, border
        /// and padding shading of the wireframe, a one-colour border in paint mode.
        case ring(outer: Rect, inner: Rect, radius: Float, fill: CSSColor)
        /// A filled quadrilateral: one edge of a border whose edges differ in colour.
        case quad(Point, Point, Point, Point, fill: CSSColor)
        /// A line of text, `origin` at the left end of its baseline.
        case label(text: String, origin: Point, size: Float, color: CSSColor)
        /// Shaped glyphs of a text leaf's line, drawn with their font file.
        case glyphs(TextRun)
        /// Everything up to the matching `endGroup` is drawn at once, at `opacity`.
        case beginGroup(opacity: Float)
        case endGroup
    }

    /// A node's box and how it is drawn.
    public struct Box: Hashable, Sendable {
        /// The node's index in its tree (`NodeID.index`) and its client id.
        public var node: Int32
        public var id: String?
        public var frame: Rect
        public var fill: CSSColor?
        public var stroke: CSSColor?
        public var strokeWidth: Float
        /// Corner radius (already clamped to half the shorter side).
        public var radius: Float

        public init(node: Int32, id: String?, frame: Rect, fill: CSSColor?, stroke: CSSColor?,
                    strokeWidth: Float, radius: Float) {
            self.node = node
            self.id = id
            self.frame = frame
            self.fill = fill
            self.stroke = stroke
            self.strokeWidth = strokeWidth
            self.radius = radius
        }
    }

    /// A run of a text leaf's line placed in the picture.
    public struct TextRun: Hashable, Sendable {
        /// The glyphs, positioned from the run's left end on the baseline.
        public var run: GlyphRun
        /// Where the run's left end meets the baseline.
        public var origin: Point
        public var color: CSSColor
        /// The line box the run sits in (its height and the run's width): what it may cover.
        public var bounds: Rect

        public init(run: GlyphRun, origin: Point, color: CSSColor, bounds: Rect) {
            self.run = run
            self.origin = origin
            self.color = color
            self.bounds = bounds
        }
    }

    public struct Point: Hashable, Sendable {
        public var x: Float, y: Float
        public init(x: Float, y: Float) { self.x = x; self.y = y }
    }

    /// An axis-aligned rectangle in points.
    public struct Rect: Hashable, Sendable {
        public var x: Float, y: Float, width: Float, height: Float
        public init(x: Float, y: Float, width: Float, height: Float) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// The rectangle grown by `left`/`top`/`right`/`bottom` (shrunk for negative values),
        /// never below zero size.
        func outset(left: Float, top: Float, right: Float, bottom: Float) -> Rect {
            Rect(x: x - left, y: y - top, width: max(0, width + left + right), height: max(0, height + top + bottom))
        }

        var isEmpty: Bool { !(width > 0 && height > 0) }
    }
}
