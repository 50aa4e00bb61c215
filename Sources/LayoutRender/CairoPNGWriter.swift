import CCairo
import LayoutWire

/// Rasterises a `Picture` with cairo (an ARGB32 image surface, antialiased) and encodes it as
/// PNG with cairo's own writer: the same items the SVG writer emits, drawn in the same order.
public enum CairoPNGWriter {
    public static func png(_ picture: Picture, scale: Float = 1, limits: RenderLimits = .default) throws(RenderError) -> [UInt8] {
        let options = RenderOptions(format: .png, scale: scale)
        let (width, height) = options.pixelSize(width: picture.width, height: picture.height)
        guard width <= RenderLimits.maxSide, height <= RenderLimits.maxSide, width * height <= limits.maxPixels else {
            throw .tooLarge(width: width, height: height, maxPixels: limits.maxPixels)
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .rasterizer("no surface")
        }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface))
        guard let cr = cairo_create(surface) else { throw .rasterizer("no context") }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, Double(scale), Double(scale))
        draw(picture, on: cr)
        try check(cairo_status(cr))
        cairo_surface_flush(surface)

        // cairo hands the PNG out in pieces to a C callback; the buffer travels as its closure.
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(surface, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        try check(status)
        return withExtendedLifetime(sink) { sink.bytes }
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
        for item in picture.items {
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
            case .beginGroup(let opacity):
                cairo_push_group(cr)
                groupOpacities.append(Double(opacity))
            case .endGroup:
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, groupOpacities.popLast() ?? 1)
            }
        }
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
