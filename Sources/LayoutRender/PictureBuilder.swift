import LayoutEngine
import LayoutTextModel
import LayoutWire

extension Picture {
    /// The picture of a laid-out request (call `computeLayout` first) in `mode`. Nodes are drawn
    /// in pre-order, so a child paints over its parent as in a browser; wireframe labels come
    /// last, above every box. `text`: the lines of the text leaves by node index (`NodeID.index`),
    /// relative to each leaf's content box; drawn in the inherited `color` (black by default) in
    /// paint mode, in a muted grey in wireframe mode.
    public init(of request: LayoutRequest, mode: RenderMode, text: [Int32: [GlyphLine]] = [:]) {
        let tree = request.tree
        let rootFrame = tree.frame(of: request.root)
        var items: [Item] = []
        items.reserveCapacity(tree.nodeCount * (mode == .wireframe ? 3 : 2))
        var labelled: [(id: String, box: Rect)] = []

        // Pre-order with an explicit stack; `.close` ends an opacity group after its subtree.
        // `color` is the text colour inherited from the parent, as CSS `color` is.
        enum Step { case visit(NodeID, originX: Float, originY: Float, depth: Int, color: CSSColor), close }
        let black = CSSColor(rgb: 0)
        var stack: [Step] = [.visit(request.root, originX: -rootFrame.left, originY: -rootFrame.top, depth: 0, color: black)]
        while let step = stack.popLast() {
            guard case let .visit(node, originX, originY, depth, inherited) = step else {
                items.append(.endGroup)
                continue
            }
            let frame = tree.frame(of: node)
            let rect = Rect(x: originX + frame.left, y: originY + frame.top, width: frame.width, height: frame.height)
            let index = Int(node.index)
            let id = index < request.ids.count ? request.ids[index] : nil
            let edges = tree.boxEdges(of: node)
            var color = inherited
            switch mode {
            case .wireframe:
                let kind = request.paint.modelKinds[node.index]
                Self.wireframe(node: node.index, id: id, rect: rect, edges: edges,
                               color: WireframeColors.outline(depth: depth, modelKind: kind), into: &items)
                if let id { labelled.append((id, rect)) }
            case .paint:
                let paint = request.paint[node] ?? NodePaint()
                if let opacity = paint.opacity, opacity < 1 {
                    items.append(.beginGroup(opacity: opacity))
                    stack.append(.close)
                }
                Self.paint(node: node.index, id: id, rect: rect, edges: edges, paint: paint,
                           direction: tree.resolvedDirection(of: node), into: &items)
                color = paint.color ?? inherited
            }
            if let lines = text[node.index] {
                let b = edges.border, p = edges.padding
                let content = Point(x: rect.x + b.left + p.left, y: rect.y + b.top + p.top)
                Self.text(lines, at: content, color: mode == .paint ? color : WireframeColors.text, into: &items)
            }
            // Children pushed last-first, so they pop in order.
            let children = Array(tree.children(of: node))
            for child in children.reversed() {
                stack.append(.visit(child, originX: rect.x, originY: rect.y, depth: depth + 1, color: color))
            }
        }
        // Last node first: a child's label wins over its parent's at a shared corner.
        var labels = LabelPlacer(bounds: Rect(x: 0, y: 0, width: rootFrame.width, height: rootFrame.height))
        for (id, box) in labelled.reversed() { labels.place(id, in: box) }
        items.append(contentsOf: labels.items.reversed())
        self.init(width: rootFrame.width, height: rootFrame.height,
                  background: mode == .wireframe ? WireframeColors.background : nil, items: items)
    }

    /// Margin, box, border and padding of one node, as devtools shade them.
    private static func wireframe(node: Int32, id: String?, rect: Rect, edges: BoxEdges, color: CSSColor,
                                  into items: inout [Item]) {
        let m = edges.margin
        let marginRect = rect.outset(left: max(0, m.left), top: max(0, m.top), right: max(0, m.right), bottom: max(0, m.bottom))
        if marginRect != rect { items.append(.ring(outer: marginRect, inner: rect, radius: 0, fill: WireframeColors.margin)) }
        var fill = color
        fill.alpha = WireframeColors.boxFillAlpha
        items.append(.box(Box(node: node, id: id, frame: rect, fill: fill, stroke: color,
                              strokeWidth: WireframeColors.outlineWidth, radius: 0)))
        let b = edges.border, p = edges.padding
        let inBorder = rect.outset(left: -b.left, top: -b.top, right: -b.right, bottom: -b.bottom)
        if inBorder != rect { items.append(.ring(outer: rect, inner: inBorder, radius: 0, fill: WireframeColors.border)) }
        let inPadding = inBorder.outset(left: -p.left, top: -p.top, right: -p.right, bottom: -p.bottom)
        if inPadding != inBorder { items.append(.ring(outer: inBorder, inner: inPadding, radius: 0, fill: WireframeColors.padding)) }
    }

    /// The glyph runs of a text leaf's lines, `content` the content box's top-left.
    private static func text(_ lines: [GlyphLine], at content: Point, color: CSSColor, into items: inout [Item]) {
        for line in lines {
            for run in line.runs where !run.glyphs.isEmpty {
                let x = content.x + line.left + run.left
                items.append(.glyphs(TextRun(run: run, origin: Point(x: x, y: content.y + line.baseline), color: color,
                                             bounds: Rect(x: x, y: content.y + line.top, width: run.width, height: line.height))))
            }
        }
    }

    /// Background, then border, of one node in paint mode.
    private static func paint(node: Int32, id: String?, rect: Rect, edges: BoxEdges, paint: NodePaint,
                              direction: Direction, into items: inout [Item]) {
        let radius = min(paint.borderRadius ?? 0, min(rect.width, rect.height) / 2)
        items.append(.box(Box(node: node, id: id, frame: rect, fill: paint.backgroundColor, stroke: nil,
                              strokeWidth: 0, radius: max(0, radius))))
        let b = edges.border
        guard b.left > 0 || b.top > 0 || b.right > 0 || b.bottom > 0 else { return }
        // React Native's default border colour is black.
        func color(_ edge: PaintEdge) -> CSSColor { paint.borderColor(edge, direction: direction) ?? CSSColor(rgb: 0) }
        let left = color(.left), top = color(.top), right = color(.right), bottom = color(.bottom)
        let inner = rect.outset(left: -b.left, top: -b.top, right: -b.right, bottom: -b.bottom)
        if left == top && top == right && right == bottom {
            items.append(.ring(outer: rect, inner: inner, radius: max(0, radius), fill: left))
            return
        }
        // Each edge a trapezoid from the outer corners to the inner ones, as browsers miter them.
        let o = (l: rect.x, t: rect.y, r: rect.x + rect.width, b: rect.y + rect.height)
        let i = (l: inner.x, t: inner.y, r: inner.x + inner.width, b: inner.y + inner.height)
        let edgesToDraw: [(Float, CSSColor, Point, Point, Point, Point)] = [
            (b.top, top, Point(x: o.l, y: o.t), Point(x: o.r, y: o.t), Point(x: i.r, y: i.t), Point(x: i.l, y: i.t)),
            (b.right, right, Point(x: o.r, y: o.t), Point(x: o.r, y: o.b), Point(x: i.r, y: i.b), Point(x: i.r, y: i.t)),
            (b.bottom, bottom, Point(x: o.r, y: o.b), Point(x: o.l, y: o.b), Point(x: i.l, y: i.b), Point(x: i.r, y: i.b)),
            (b.left, left, Point(x: o.l, y: o.b), Point(x: o.l, y: o.t), Point(x: i.l, y: i.t), Point(x: i.l, y: i.b)),
        ]
        for (width, fill, a, b, c, d) in edgesToDraw where width > 0 && fill.alpha > 0 {
            items.append(.quad(a, b, c, d, fill: fill))
        }
    }
}

/// Places wireframe labels: an id at its box's top-left corner when an estimate of its width
/// fits the box and the picture, and it overlaps no label placed before. Placed labels are
/// indexed by grid cell, so checking one costs the few labels near it.
struct LabelPlacer {
    /// The picture: labels outside it would not be seen.
    let bounds: Picture.Rect
    private(set) var items: [Picture.Item] = []
    private var placed: [Picture.Rect] = []
    private var cells: [Int64: [Int]] = [:]
    private static let cellSize: Float = 64

    init(bounds: Picture.Rect) {
        self.bounds = bounds
    }

    mutating func place(_ id: String, in box: Picture.Rect) {
        let size = WireframeColors.labelSize
        // About 0.6 em per character in a sans-serif face, plus a margin each side.
        let width = Float(id.count) * size * 0.6 + 4
        guard !id.isEmpty, width <= box.width, size + 4 <= box.height else { return }
        let area = Picture.Rect(x: box.x, y: box.y, width: width, height: size + 4)
        guard area.x >= bounds.x, area.y >= bounds.y, area.x + area.width <= bounds.x + bounds.width,
              area.y + area.height <= bounds.y + bounds.height else { return }
        let keys = Self.cellKeys(area)
        for key in keys {
            for other in cells[key, default: []] where Self.overlap(area, placed[other]) { return }
        }
        for key in keys { cells[key, default: []].append(placed.count) }
        placed.append(area)
        items.append(.label(text: id, origin: Picture.Point(x: box.x + 2, y: box.y + 2 + size * 0.8), size: size,
                            color: WireframeColors.labelColor))
    }

    private static func overlap(_ a: Picture.Rect, _ b: Picture.Rect) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    private static func cellKeys(_ rect: Picture.Rect) -> [Int64] {
        // Clamped: a picture may be huge in points at a tiny scale.
        func cell(_ value: Float) -> Int64 { Int64(max(-1e12, min(1e12, (value / cellSize).rounded(.down)))) }
        var keys: [Int64] = []
        for cx in cell(rect.x)...cell(rect.x + rect.width) {
            for cy in cell(rect.y)...cell(rect.y + rect.height) { keys.append(cx &* 1_000_003 &+ cy) }
        }
        return keys
    }
}

/// The wireframe's palette: outlines by depth (or model kind), and devtools' shades for margin
/// (orange), border (yellow) and padding (green).
enum WireframeColors {
    static let background = CSSColor(rgb: 0xFFFFFF)
    static let margin = CSSColor(red: 0xF6, green: 0xB2, blue: 0x6B, alpha: 0x99)
    static let border = CSSColor(red: 0xFF, green: 0xE5, blue: 0x99, alpha: 0xCC)
    static let padding = CSSColor(red: 0x93, green: 0xC4, blue: 0x7D, alpha: 0x99)
    static let labelColor = CSSColor(rgb: 0x1F2937)
    /// Text leaves' lines, drawn faintly under the labels.
    static let text = CSSColor(red: 0x4B, green: 0x55, blue: 0x63, alpha: 0x73)
    static let labelSize: Float = 10
    static let outlineWidth: Float = 1
    /// Boxes are tinted with their outline colour at this alpha, so nesting reads as depth.
    static let boxFillAlpha: UInt8 = 0x1A

    /// Eight hues far apart, cycled by depth.
    static let depthPalette: [CSSColor] = [
        0x2563EB, 0xDC2626, 0x059669, 0xD97706, 0x7C3AED, 0xDB2777, 0x0891B2, 0x65A30D,
    ].map { CSSColor(rgb: $0) }

    /// Nodes of the seed models keep one colour per kind whatever their depth.
    static let modelPalette: [String: CSSColor] = [
        "stack": CSSColor(rgb: 0x9333EA), "stack-item": CSSColor(rgb: 0xC026D3),
        "core-layout": CSSColor(rgb: 0x0D9488), "constraints": CSSColor(rgb: 0xEA580C),
        "fixflex": CSSColor(rgb: 0xCA8A04), "flexible-spaces": CSSColor(rgb: 0x4F46E5),
    ]

    static func outline(depth: Int, modelKind: String?) -> CSSColor {
        if let modelKind, let color = modelPalette[modelKind] { return color }
        return depthPalette[depth % depthPalette.count]
    }
}
