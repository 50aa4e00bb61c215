import CCairo
import LayoutWire

/// Rasterises a `Picture` with cairo (an ARGB32 image surface, antialiased) and encodes it as
/// PNG (`PNGEncoder`): the same items the SVG writer emits, drawn in the same order.
public enum CairoPNGWriter {
    public static func png(_ picture: Picture, scale: Float = 1, limits: RenderLimits = .default) throws(RenderError) -> [UInt8] {
        let options = RenderOptions(format: .png, scale: scale)
        try LayoutRenderer.check(width: picture.width, height: picture.height, options: options, limits: limits)
        let (width, height) = options.pixelSize(width: picture.width, height: picture.height)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .rasterizer("no surface")
        }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface))
        guard let cr = cairo_create(surface) else { throw .rasterizer("no context") }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, Double(scale), Double(scale))
        setTextOptions(cr)
        draw(picture, on: cr)
        try check(cairo_status(cr))
        cairo_surface_flush(surface)

        guard let data = cairo_image_surface_get_data(surface),
              let png = PNGEncoder.encode(pixels: data, width: width, height: height,
                                          stride: Int(cairo_image_surface_get_stride(surface))) else {
            throw .rasterizer("PNG encoding failed")
        }
        return png
    }

    private static func check(_ status: cairo_status_t) throws(RenderError) {
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .rasterizer(cairo_status_to_string(status).map { String(cString: $0) } ?? "status \(status.rawValue)")
        }
    }

    private static func draw(_ picture: Picture, on cr: OpaquePointer) {
        if let background = picture.background {
            cairo_rectangle(cr, 0, 0, Double(picture.width), Double(picture.height))
            fill(cr, background)
        }
        // The opacity of each open group, innermost last.
        var groupOpacities: [Double] = []
        let groupBounds = picture.groupBounds()
        for (index, item) in picture.items.enumerated() {
            switch item {
            case .box(let box):
                roundedRect(cr, box.frame, radius: box.radius)
                if let fill = box.fill {
                    setColor(cr, fill)
                    if box.stroke != nil { cairo_fill_preserve(cr) } else { cairo_fill(cr) }
                }
                if let stroke = box.stroke {
                    setColor(cr, stroke)
                    cairo_set_line_width(cr, Double(box.strokeWidth))
                    cairo_stroke(cr)
                }
                cairo_new_path(cr)
            case let .ring(outer, inner, radius, color):
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
                roundedRect(cr, outer, radius: radius)
                roundedRect(cr, inner, radius: max(0, radius - max(inner.x - outer.x, inner.y - outer.y)))
                fill(cr, color)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
            case let .quad(a, b, c, d, color):
                cairo_move_to(cr, Double(a.x), Double(a.y))
                for point in [b, c, d] { cairo_line_to(cr, Double(point.x), Double(point.y)) }
                cairo_close_path(cr)
                fill(cr, color)
            case let .label(text, origin, size, color):
                cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
                cairo_set_font_size(cr, Double(size))
                setColor(cr, color)
                cairo_move_to(cr, Double(origin.x), Double(origin.y))
                cairo_show_text(cr, text)
                cairo_new_path(cr)
            case .glyphs(let text):
                drawGlyphs(cr, text)
            case .beginGroup(let opacity):
                // The group's surface covers the clip: clipped to what the group draws, it is
                // the size of a node's subtree, not of the whole picture.
                cairo_save(cr)
                if let bounds = groupBounds[index] {
                    cairo_rectangle(cr, Double(bounds.x) - 1, Double(bounds.y) - 1,
                                    Double(bounds.width) + 2, Double(bounds.height) + 2)
                    cairo_clip(cr)
                }
                cairo_push_group(cr)
                groupOpacities.append(Double(opacity))
            case .endGroup:
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, groupOpacities.popLast() ?? 1)
                cairo_restore(cr)
            }
        }
    }

    /// Outlines unhinted and glyphs at their exact positions (no metrics hinting): text is
    /// positioned in subpixels, as it was measured.
    private static func setTextOptions(_ cr: OpaquePointer) {
        guard let options = cairo_font_options_create() else { return }
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_set_font_options(cr, options)
    }

    /// A run's glyphs with the font file it was shaped with.
    private static func drawGlyphs(_ cr: OpaquePointer, _ text: Picture.TextRun) {
        guard let face = CairoFontFaces.shared.face(path: text.run.font.path, faceIndex: text.run.font.faceIndex) else { return }
        cairo_set_font_face(cr, face)
        cairo_set_font_size(cr, Double(text.run.size))
        setColor(cr, text.color)
        let x = Double(text.origin.x), y = Double(text.origin.y)
        var glyphs = text.run.glyphs.map { cairo_glyph_t(index: UInt($0.id), x: x + Double($0.x), y: y + Double($0.y)) }
        cairo_show_glyphs(cr, &glyphs, Int32(glyphs.count))
    }

    private static func fill(_ cr: OpaquePointer, _ color: CSSColor) {
        setColor(cr, color)
        cairo_fill(cr)
    }

    private static func setColor(_ cr: OpaquePointer, _ color: CSSColor) {
        cairo_set_source_rgba(cr, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255,
                              color.opacity)
    }

    /// The same outline as `SVGWriter.roundedRect`: a rectangle with quarter-circle corners.
    private static func roundedRect(_ cr: OpaquePointer, _ rect: Picture.Rect, radius: Float) {
        let r = Double(min(radius, min(rect.width, rect.height) / 2))
        let x0 = Double(rect.x), y0 = Double(rect.y), x1 = x0 + Double(rect.width), y1 = y0 + Double(rect.height)
        guard r > 0 else {
            cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
            return
        }
        cairo_new_sub_path(cr)
        cairo_arc(cr, x1 - r, y0 + r, r, -.pi / 2, 0)
        cairo_arc(cr, x1 - r, y1 - r, r, 0, .pi / 2)
        cairo_arc(cr, x0 + r, y1 - r, r, .pi / 2, .pi)
        cairo_arc(cr, x0 + r, y0 + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }
}

extension Picture {
    /// For each `beginGroup` (by item index), the rectangle around everything drawn until its
    /// `endGroup`; nil for a group that draws nothing.
    func groupBounds() -> [Int: Rect] {
        var bounds: [Int: Rect] = [:]
        var open: [(index: Int, bounds: Rect?)] = []
        func union(_ a: Rect?, _ b: Rect) -> Rect {
            guard let a else { return b }
            let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
            return Rect(x: x0, y: y0, width: max(a.x + a.width, b.x + b.width) - x0,
                        height: max(a.y + a.height, b.y + b.height) - y0)
        }
        func extent(_ item: Item) -> Rect? {
            switch item {
            case .box(let box):
                let half = box.stroke == nil ? 0 : box.strokeWidth / 2
                return box.frame.outset(left: half, top: half, right: half, bottom: half)
            case .ring(let outer, _, _, _): return outer
            case let .quad(a, b, c, d, _):
                let xs = [a.x, b.x, c.x, d.x], ys = [a.y, b.y, c.y, d.y]
                return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            case let .label(text, origin, size, _):
                return Rect(x: origin.x, y: origin.y - size, width: Float(text.count) * size, height: size * 1.5)
            case .glyphs(let text): return text.bounds
            case .beginGroup, .endGroup: return nil
            }
        }
        for (index, item) in items.enumerated() {
            switch item {
            case .beginGroup: open.append((index, nil))
            case .endGroup:
                guard let group = open.popLast() else { continue }
                if let extent = group.bounds {
                    bounds[group.index] = extent
                    if !open.isEmpty { open[open.count - 1].bounds = union(open[open.count - 1].bounds, extent) }
                }
            default:
                if let extent = extent(item), !open.isEmpty {
                    open[open.count - 1].bounds = union(open[open.count - 1].bounds, extent)
                }
            }
        }
        return bounds
    }
}
