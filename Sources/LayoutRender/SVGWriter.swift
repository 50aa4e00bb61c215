import LayoutWire

/// Writes a `Picture` as SVG 1.1 text, by hand: one `<rect class="box">` per node at its
/// absolute frame in points (the `viewBox`), sized `scale` device pixels per point; shading
/// and borders are `<path>`s, labels `<text>`, so the rectangles are exactly the boxes.
public enum SVGWriter {
    public static func svg(_ picture: Picture, scale: Float = 1) -> [UInt8] {
        var out = SVGText()
        out.bytes.reserveCapacity(256 + picture.items.count * 160)
        out.raw(#"<svg xmlns="http://www.w3.org/2000/svg" width=""#); out.number(picture.width * scale)
        out.raw(#"" height=""#); out.number(picture.height * scale)
        out.raw(#"" viewBox="0 0 "#); out.number(picture.width); out.raw(" "); out.number(picture.height)
        out.raw("\">\n")
        if let background = picture.background {
            out.raw(#"<path class="background" d="M0 0H"#); out.number(picture.width)
            out.raw("V"); out.number(picture.height); out.raw(#"H0Z""#)
            out.paint("fill", background)
            out.raw("/>\n")
        }
        for item in picture.items {
            switch item {
            case .box(let box):
                out.raw(#"<rect class="box" data-node=""#); out.text(String(box.node)); out.raw("\"")
                if let id = box.id { out.raw(#" data-id=""#); out.text(escaped(id)); out.raw("\"") }
                out.raw(#" x=""#); out.number(box.frame.x)
                out.raw(#"" y=""#); out.number(box.frame.y)
                out.raw(#"" width=""#); out.number(box.frame.width)
                out.raw(#"" height=""#); out.number(box.frame.height); out.raw("\"")
                if box.radius > 0 { out.raw(#" rx=""#); out.number(box.radius); out.raw("\"") }
                if let fill = box.fill { out.paint("fill", fill) } else { out.raw(#" fill="none""#) }
                if let stroke = box.stroke {
                    out.paint("stroke", stroke)
                    out.raw(#" stroke-width=""#); out.number(box.strokeWidth); out.raw("\"")
                }
                out.raw("/>\n")
            case let .ring(outer, inner, radius, fill):
                out.raw(#"<path fill-rule="evenodd" d=""#)
                out.roundedRect(outer, radius: radius)
                out.roundedRect(inner, radius: max(0, radius - max(inner.x - outer.x, inner.y - outer.y)))
                out.raw("\"")
                out.paint("fill", fill)
                out.raw("/>\n")
            case let .quad(a, b, c, d, fill):
                out.raw(#"<path d="M"#); out.number(a.x); out.raw(" "); out.number(a.y)
                for point in [b, c, d] { out.raw("L"); out.number(point.x); out.raw(" "); out.number(point.y) }
                out.raw("Z\"")
                out.paint("fill", fill)
                out.raw("/>\n")
            case let .label(text, origin, size, color):
                out.raw(#"<text x=""#); out.number(origin.x); out.raw(#"" y=""#); out.number(origin.y)
                out.raw(#"" font-family="sans-serif" font-size=""#); out.number(size); out.raw("\"")
                out.paint("fill", color)
                out.raw(">"); out.text(escaped(text)); out.raw("</text>\n")
            case .glyphs(let text):
                out.glyphs(text)
            case .beginGroup(let opacity):
                out.raw(#"<g opacity=""#); out.number(opacity); out.raw("\">\n")
            case .endGroup:
                out.raw("</g>\n")
            }
        }
        out.raw("</svg>\n")
        return out.bytes
    }

    /// A number as SVG reads it: whole numbers without a fraction, others in Swift's shortest
    /// form that reads back to the same Float.
    static func number(_ value: Float) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e9 { return String(Int(value)) }
        return value.description
    }

    /// Text with XML's five special characters escaped (for attributes and content alike), and
    /// the characters XML 1.0 cannot carry at all (C0 controls but tab, newline and return;
    /// U+FFFE, U+FFFF) replaced by U+FFFD, so any id gives a well-formed document.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 < 0x20 || $0 == 0xEF })
        else { return text }
        var out = ""
        for char in text.unicodeScalars {
            switch char {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(char)
            default:
                let forbidden = char.value < 0x20 || char.value == 0xFFFE || char.value == 0xFFFF
                out.unicodeScalars.append(forbidden ? "\u{FFFD}" : char)
            }
        }
        return out
    }
}

/// The SVG document being written, as UTF-8 bytes, appended piece by piece (no intermediate
/// strings: a 1,000-node picture is some 200 KB).
private struct SVGText {
    var bytes: [UInt8] = []

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func text(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Whole numbers digit by digit; others in Swift's shortest exact form.
    mutating func number(_ value: Float) {
        guard value.isFinite, value == value.rounded(), abs(value) < 1e9 else {
            text(SVGWriter.number(value))
            return
        }
        var whole = Int(value)
        if whole < 0 { bytes.append(UInt8(ascii: "-")); whole = -whole }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(whole % 10)
                whole /= 10
                count += 1
            } while whole > 0
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
        }
    }

    /// A text run as `<text>` in its font's family, weight and style: its characters (logical
    /// order, `direction="rtl"` for right-to-left runs, anchored at their right end) stretched
    /// or narrowed to the measured width with `textLength`, so a viewer with the font draws
    /// them where they were measured. Spaces are kept (`xml:space`): they are part of the width.
    mutating func glyphs(_ text: Picture.TextRun) {
        let run = text.run
        raw(#"<text class="text" xml:space="preserve" x=""#)
        number(run.rightToLeft ? text.origin.x + run.width : text.origin.x)
        raw(#"" y=""#); number(text.origin.y)
        raw(#"" font-family=""#); self.text(SVGWriter.escaped(run.font.family))
        raw(#"" font-size=""#); number(run.size); raw("\"")
        if run.font.weight != 400 { raw(#" font-weight=""#); self.text(String(run.font.weight)); raw("\"") }
        if run.font.italic { raw(#" font-style="italic""#) }
        if run.rightToLeft { raw(#" direction="rtl""#) }
        raw(#" textLength=""#); number(run.width); raw(#"" lengthAdjust="spacing""#)
        paint("fill", text.color)
        raw(">"); self.text(SVGWriter.escaped(run.text)); raw("</text>\n")
    }

    /// ` fill="#rrggbb"` and, when not opaque, ` fill-opacity="a"`.
    mutating func paint(_ attribute: StaticString, _ color: CSSColor) {
        raw(" "); raw(attribute); raw("=\""); text(color.hexRGB); raw("\"")
        if color.alpha < 255 {
            raw(" "); raw(attribute); raw("-opacity=\"")
            number(Float((color.opacity * 1000).rounded() / 1000))
            raw("\"")
        }
    }

    /// A closed subpath around `rect`, with arcs at the corners when `radius` > 0.
    mutating func roundedRect(_ rect: Picture.Rect, radius: Float) {
        let r = min(radius, min(rect.width, rect.height) / 2)
        let x0 = rect.x, y0 = rect.y, x1 = rect.x + rect.width, y1 = rect.y + rect.height
        func point(_ x: Float, _ y: Float) { number(x); raw(" "); number(y) }
        guard r > 0 else {
            raw("M"); point(x0, y0); raw("H"); number(x1); raw("V"); number(y1); raw("H"); number(x0); raw("Z")
            return
        }
        func arc(_ x: Float, _ y: Float) { raw("A"); point(r, r); raw(" 0 0 1 "); point(x, y) }
        raw("M"); point(x0 + r, y0); raw("H"); number(x1 - r); arc(x1, y0 + r)
        raw("V"); number(y1 - r); arc(x1 - r, y1)
        raw("H"); number(x0 + r); arc(x0, y1 - r)
        raw("V"); number(y0 + r); arc(x0 + r, y0); raw("Z")
    }
}
