/// A colour of the paint style keys, 8 bits per channel, straight (not premultiplied) alpha;
/// parsed from CSS colour syntax (CSS Color Module Level 4: hex, `rgb()`/`rgba()`, named
/// colours and `transparent`).
public struct CSSColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `0xRRGGBB`, opaque.
    public init(rgb: UInt32) {
        self.init(red: UInt8(truncatingIfNeeded: rgb >> 16), green: UInt8(truncatingIfNeeded: rgb >> 8),
                  blue: UInt8(truncatingIfNeeded: rgb))
    }

    public static let transparent = CSSColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// Alpha from 0 to 1.
    public var opacity: Double { Double(alpha) / 255 }

    /// `#rrggbb`, for SVG's fill and stroke (alpha goes in a separate opacity attribute).
    public var hexRGB: String {
        String(unsafeUninitializedCapacity: 7) { buffer in
            buffer[0] = UInt8(ascii: "#")
            for (offset, channel) in [red, green, blue].enumerated() {
                buffer[1 + 2 * offset] = Self.hexDigits[Int(channel >> 4)]
                buffer[2 + 2 * offset] = Self.hexDigits[Int(channel & 0xF)]
            }
            return 7
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The colour `text` spells in CSS syntax, or nil: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`,
    /// `rgb(r, g, b)`, `rgba(r, g, b, a)` (also with spaces and a slash before alpha, and
    /// percentages), one of the 148 named colours, or `transparent`; letter case is ignored.
    public init?(css text: String) {
        let trimmed = Self.lowercasedTrimmed(text)
        if trimmed.first == "#" {
            guard let color = Self.hex(trimmed.dropFirst()) else { return nil }
            self = color
        } else if trimmed.hasPrefix("rgb") {
            guard let color = Self.functional(trimmed) else { return nil }
            self = color
        } else if trimmed == "transparent" {
            self = .transparent
        } else if let rgb = CSSNamedColors.table[trimmed] {
            self.init(rgb: rgb)
        } else {
            return nil
        }
    }

    /// What `init?(css:)` accepts, for error messages.
    public static let syntaxDescription = "a CSS colour: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), a named colour or transparent"

    private static func lowercasedTrimmed(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" || first == "\n" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\n" { scalars.removeLast() }
        var out = ""
        for scalar in scalars {
            if scalar >= "A" && scalar <= "Z" {
                out.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// 3, 4, 6 or 8 hex digits.
    private static func hex(_ digits: Substring) -> CSSColor? {
        var values: [UInt8] = []
        for scalar in digits.unicodeScalars {
            switch scalar {
            case "0"..."9": values.append(UInt8(scalar.value - 48))
            case "a"..."f": values.append(UInt8(scalar.value - 87))
            default: return nil
            }
        }
        switch values.count {
        case 3, 4:
            let channels = values.map { $0 << 4 | $0 }
            return CSSColor(red: channels[0], green: channels[1], blue: channels[2],
                            alpha: values.count == 4 ? channels[3] : 255)
        case 6, 8:
            let channels = stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
            return CSSColor(red: channels[0], green: channels[1], blue: channels[2],
                            alpha: values.count == 8 ? channels[3] : 255)
        default:
            return nil
        }
    }

    /// `rgb(...)` or `rgba(...)` (the two are aliases in CSS Color 4): three channels as
    /// numbers 0-255 or percentages, separated by commas or spaces, and an optional alpha (a
    /// number 0-1 or a percentage) after a comma or a slash. Values out of range are clamped,
    /// as CSS does.
    private static func functional(_ text: String) -> CSSColor? {
        let name: Substring
        if text.hasPrefix("rgba(") { name = "rgba(" } else if text.hasPrefix("rgb(") { name = "rgb(" } else { return nil }
        guard text.hasSuffix(")") else { return nil }
        let body = text.dropFirst(name.count).dropLast()
        let usesCommas = body.contains(",")
        var channelsPart = body
        var alphaPart: Substring? = nil
        var parts: [Substring]
        if usesCommas {
            parts = body.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingBlanks }
            guard parts.count == 3 || parts.count == 4 else { return nil }
            if parts.count == 4 { alphaPart = parts.removeLast() }
        } else {
            if let slash = body.firstIndex(of: "/") {
                channelsPart = body[..<slash]
                alphaPart = body[body.index(after: slash)...].trimmingBlanks
            }
            parts = channelsPart.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 3 else { return nil }
        }
        // CSS forbids mixing numbers and percentages among the channels.
        let percents = parts.filter { $0.hasSuffix("%") }.count
        guard percents == 0 || percents == 3 else { return nil }
        var channels: [UInt8] = []
        for part in parts {
            guard let value = channel(part, percentScale: 255) else { return nil }
            channels.append(value)
        }
        var alpha: UInt8 = 255
        if let alphaPart {
            guard let value = channel(alphaPart, percentScale: 255, numberScale: 255) else { return nil }
            alpha = value
        }
        return CSSColor(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha)
    }

    /// A number (times `numberScale`) or a percentage (of `percentScale`), clamped to 0...255
    /// and rounded.
    private static func channel(_ text: Substring, percentScale: Double, numberScale: Double = 1) -> UInt8? {
        var value: Double
        if text.hasSuffix("%") {
            guard let number = decimal(text.dropLast()) else { return nil }
            value = number / 100 * percentScale
        } else {
            guard let number = decimal(text) else { return nil }
            value = number * numberScale
        }
        value = min(255, max(0, value))
        return UInt8((value).rounded())
    }

    /// A plain CSS number: optional sign, digits, optional fraction (no exponent, no `inf`).
    private static func decimal(_ text: Substring) -> Double? {
        var sawDigit = false
        var sawPoint = false
        for (offset, char) in text.enumerated() {
            if char.isASCII, char.isNumber { sawDigit = true; continue }
            if char == "." && !sawPoint { sawPoint = true; continue }
            if (char == "-" || char == "+") && offset == 0 { continue }
            return nil
        }
        guard sawDigit else { return nil }
        return Double(text)
    }
}

extension Substring {
    fileprivate var trimmingBlanks: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
