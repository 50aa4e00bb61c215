import LayoutRender

/// The render options of a `/render` request: the query parameters `format` (svg, png),
/// `mode` (wireframe, paint) and `scale` (device pixels per point), and without `format`, the
/// `Accept` header.
enum RenderQuery {
    /// Why the options could not be read: the parameter (or header) at fault and what is wrong.
    struct Refusal: Error, Equatable {
        /// 400 for a bad parameter, 406 when `Accept` admits no picture format.
        var status: Int
        var code: String
        var parameter: String
        var message: String
    }

    /// The options `query` (the part of the target after `?`, nil when there is none) and
    /// `accept` ask for. Every parameter may appear once; unknown ones are refused, as unknown
    /// keys in the body are.
    static func options(query: String?, accept: String?) throws(Refusal) -> RenderOptions {
        var options = RenderOptions()
        var seen: Set<String> = []
        var format: RenderFormat?
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecoded(parts[0])
            let value = parts.count > 1 ? percentDecoded(parts[1]) : ""
            guard seen.insert(name).inserted else {
                throw invalid(name, "the query parameter \(name) is given more than once")
            }
            switch name {
            case "format":
                guard let chosen = RenderFormat(rawValue: value) else {
                    throw invalid(name, "format must be svg or png, not \"\(value)\"")
                }
                format = chosen
            case "mode":
                guard let chosen = RenderMode(rawValue: value) else {
                    throw invalid(name, "mode must be wireframe or paint, not \"\(value)\"")
                }
                options.mode = chosen
            case "scale":
                guard let scale = RenderOptions.scale(parsing: value) else {
                    throw invalid(name, "scale (device pixels per point) must be a number above 0 and at most \(Int(RenderOptions.maxScale)), not \"\(value)\"")
                }
                options.scale = scale
            default:
                throw Refusal(status: 400, code: "unknown-parameter", parameter: name,
                              message: "unknown query parameter \(name); accepted: format, mode, scale")
            }
        }
        if let format {
            options.format = format
        } else {
            guard let negotiated = negotiate(accept: accept) else {
                throw Refusal(status: 406, code: "not-acceptable", parameter: "Accept",
                              message: "Accept admits neither image/svg+xml nor image/png; send one of them or ?format=svg|png")
            }
            options.format = negotiated
        }
        return options
    }

    private static func invalid(_ parameter: String, _ message: String) -> Refusal {
        Refusal(status: 400, code: "invalid-parameter", parameter: parameter, message: message)
    }

    /// The picture format an `Accept` header prefers (RFC 9110 §12.5.1): the one with the
    /// higher quality, SVG on a tie; SVG when there is no header; nil when neither is admitted.
    static func negotiate(accept: String?) -> RenderFormat? {
        guard let accept, !accept.allSatisfy({ $0 == " " || $0 == "\t" }) else { return .svg }
        var svg: (q: Double, specificity: Int) = (0, -1)
        var png: (q: Double, specificity: Int) = (0, -1)
        for range in accept.split(separator: ",") {
            let fields = range.split(separator: ";")
            guard let type = fields.first else { continue }
            let mediaType = String(type.filter { $0 != " " && $0 != "\t" }).lowercased()
            var q = 1.0
            for parameter in fields.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].filter({ $0 != " " }).lowercased() == "q" {
                    q = Double(pair[1].filter { $0 != " " }) ?? 0
                }
            }
            // The most specific range that matches a type sets its quality.
            func consider(_ target: inout (q: Double, specificity: Int), _ name: String) {
                let specificity = mediaType == name ? 2 : mediaType == "image/*" ? 1 : mediaType == "*/*" ? 0 : -1
                if specificity > target.specificity { target = (q, specificity) }
            }
            consider(&svg, RenderFormat.svg.mediaType)
            consider(&png, RenderFormat.png.mediaType)
        }
        if svg.q <= 0 && png.q <= 0 { return nil }
        return png.q > svg.q ? .png : .svg
    }

    /// `text` with `%XX` escapes and `+` decoded (as HTML forms encode query values).
    private static func percentDecoded(_ text: Substring) -> String {
        guard text.contains("%") || text.contains("+") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), utf8.count >= 2,
                      let high = hexValue(utf8[utf8.startIndex]), let low = hexValue(utf8[utf8.startIndex + 1]) {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
