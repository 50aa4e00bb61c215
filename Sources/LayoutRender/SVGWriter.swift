import LayoutWire

/// Writes a `Picture` as SVG 1.1 text, by hand: one `<rect class="box">` per node at its
/// absolute frame in points (the `viewBox`), sized `scale` device pixels per point; shading
/// and borders are `<path>`s, labels `<text>`, so the rectangles are exactly the boxes.
public enum SVGWriter {
    public static func svg(_ picture: Picture, scale: Float = 1) -> [UInt8] {
        var out = SVGText()
        out.reserve(256 + picture.items.count * 120)
        let width = number(picture.width), height = number(picture.height)
        out += #"<svg xmlns="http://www.w3.org/2000/svg" width=""# + number(picture.width * scale)
        out += #"" height=""# + number(picture.height * scale) + #"" viewBox="0 0 "# + width + " " + height + #"">"#
        out += "\n"
        if let background = picture.background {
            out += #"<path class="background" d="M0 0H"# + width + "V" + height + #"H0Z""#
            out.paint("fill", background)
            out += "/>\n"
        }
        for item in picture.items {
            switch item {
            case .box(let box):
                out += #"<rect class="box" data-node=""# + String(box.node) + "\""
                if let id = box.id { out += #" data-id=""# + escaped(id) + "\"" }
                out += #" x=""# + number(box.frame.x) + #"" y=""# + number(box.frame.y)
                out += #"" width=""# + number(box.frame.width) + #"" height=""# + number(box.frame.height) + "\""
                if box.radius > 0 { out += #" rx=""# + number(box.radius) + "\"" }
                if let fill = box.fill { out.paint("fill", fill) } else { out += #" fill="none""# }
                if let stroke = box.stroke {
                    out.paint("stroke", stroke)
                    out += #" stroke-width=""# + number(box.strokeWidth) + "\""
                }
                out += "/>\n"
            case let .ring(outer, inner, radius, fill):
                out += #"<path fill-rule="evenodd" d=""#
                out += roundedRect(outer, radius: radius) + roundedRect(inner, radius: max(0, radius - max(inner.x - outer.x, inner.y - outer.y)))
                out += "\""
                out.paint("fill", fill)
                out += "/>\n"
            case let .quad(a, b, c, d, fill):
                out += #"<path d="M"# + number(a.x) + " " + number(a.y)
                for point in [b, c, d] { out += "L" + number(point.x) + " " + number(point.y) }
                out += "Z\""
                out.paint("fill", fill)
                out += "/>\n"
            case let .label(text, origin, size, color):
                out += #"<text x=""# + number(origin.x) + #"" y=""# + number(origin.y)
                out += #"" font-family="sans-serif" font-size=""# + number(size) + "\""
                out.paint("fill", color)
                out += ">" + escaped(text) + "</text>\n"
            case .beginGroup(let opacity):
                out += #"<g opacity=""# + number(opacity) + "\">\n"
            case .endGroup:
                out += "</g>\n"
            }
        }
        out += "</svg>\n"
        return out.bytes
    }

    /// A closed subpath around `rect`, with arcs at the corners when `radius` > 0.
    static func roundedRect(_ rect: Picture.Rect, radius: Float) -> String {
        let r = min(radius, min(rect.width, rect.height) / 2)
        let x0 = rect.x, y0 = rect.y, x1 = rect.x + rect.width, y1 = rect.y + rect.height
        guard r > 0 else {
            return "M" + number(x0) + " " + number(y0) + "H" + number(x1) + "V" + number(y1) + "H" + number(x0) + "Z"
        }
        let arc = "A" + number(r) + " " + number(r) + " 0 0 1 "
        return "M" + number(x0 + r) + " " + number(y0) + "H" + number(x1 - r) + arc + number(x1) + " " + number(y0 + r)
            + "V" + number(y1 - r) + arc + number(x1 - r) + " " + number(y1)
            + "H" + number(x0 + r) + arc + number(x0) + " " + number(y1 - r)
            + "V" + number(y0 + r) + arc + number(x0 + r) + " " + number(y0) + "Z"
    }

    /// A number as SVG reads it: whole numbers without a fraction, others in Swift's shortest
    /// form that reads back to the same Float.
    static func number(_ value: Float) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e9 { return String(Int(value)) }
        return value.description
    }

    /// Text with XML's five special characters escaped (for attributes and content alike).
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var out = ""
        for char in text.unicodeScalars {
            switch char {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.unicodeScalars.append(char)
            }
        }
        return out
    }
}

/// The SVG document being written, as UTF-8 bytes.
private struct SVGText {
    var bytes: [UInt8] = []

    mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

    static func += (text: inout SVGText, string: String) {
        text.bytes.append(contentsOf: string.utf8)
    }

    /// ` fill="#rrggbb"` and, when not opaque, ` fill-opacity="a"`.
    mutating func paint(_ attribute: String, _ color: CSSColor) {
        self += " " + attribute + "=\"" + color.hexRGB + "\""
        if color.alpha < 255 {
            self += " " + attribute + "-opacity=\"" + SVGWriter.number(Float((color.opacity * 1000).rounded() / 1000)) + "\""
        }
    }
}
