/// `fontStyle`.
public enum FontSlant: UInt8, Hashable, Sendable {
    case normal, italic
}

/// `lineHeight`: the font's own (`"normal"`), pixels, or a multiple of the font size.
public enum LineHeight: Hashable, Sendable {
    case normal
    case pixels(Float)
    /// A percentage of the font size (`"150%"` is `.percent(150)`).
    case percent(Float)
}

/// `textAlign`. `start` and `end` follow the text's direction.
public enum TextAlign: UInt8, Hashable, Sendable {
    case left, right, center, start, end, justify
}

/// `whiteSpace`, as CSS `white-space`.
public enum WhiteSpace: UInt8, Hashable, Sendable {
    case normal, nowrap, pre, preWrap, preLine

    /// Runs of spaces and tabs become one space.
    public var collapsesSpaces: Bool { self == .normal || self == .nowrap || self == .preLine }
    /// Newlines in the text end lines (otherwise they are spaces).
    public var preservesNewlines: Bool { self == .pre || self == .preWrap || self == .preLine }
    /// Lines break at soft opportunities when too long.
    public var wraps: Bool { self != .nowrap && self != .pre }
}

/// `overflowWrap`, as CSS `overflow-wrap`.
public enum OverflowWrap: UInt8, Hashable, Sendable {
    case normal, breakWord, anywhere
}

/// `textOverflow`: what the last kept line of a clamped text shows.
public enum TextOverflow: UInt8, Hashable, Sendable {
    case clip, ellipsis
}

/// A text style with every property resolved (declared, inherited or initial).
public struct TextStyle: Hashable, Sendable {
    /// Families in order of preference; empty means the default family.
    public var fontFamilies: [String] = []
    public var fontSize: Float = 16
    /// 1 ... 1000; 400 is normal, 700 bold.
    public var fontWeight: Int = 400
    public var fontStyle: FontSlant = .normal
    public var lineHeight: LineHeight = .normal
    public var letterSpacing: Float = 0
    public var textAlign: TextAlign = .start
    public var whiteSpace: WhiteSpace = .normal
    public var overflowWrap: OverflowWrap = .normal
    /// Not inherited: the most lines the leaf shows; 0 means no limit.
    public var maxLines: Int = 0
    /// Not inherited.
    public var textOverflow: TextOverflow = .clip
    /// The paragraph's base direction is right to left (the node's `direction`).
    public var rightToLeft = false

    public init() {}

    /// This style as a child inherits it: the same, without the properties CSS does not inherit.
    public var inherited: TextStyle {
        var style = self
        style.maxLines = 0
        style.textOverflow = .clip
        return style
    }
}

/// A text style as declared on one node: the properties it sets.
public struct TextStyleDeclaration: Hashable, Sendable {
    public var fontFamilies: [String]?
    public var fontSize: Float?
    public var fontWeight: Int?
    public var fontStyle: FontSlant?
    public var lineHeight: LineHeight?
    public var letterSpacing: Float?
    public var textAlign: TextAlign?
    public var whiteSpace: WhiteSpace?
    public var overflowWrap: OverflowWrap?
    public var maxLines: Int?
    public var textOverflow: TextOverflow?

    public init() {}

    /// True when no property is declared.
    public var isEmpty: Bool { self == TextStyleDeclaration() }

    /// `base` with the declared properties applied. A percentage line height becomes pixels
    /// of the font size it is declared with, as CSS computes it: descendants inherit the
    /// length, not the percentage.
    public func applied(to base: TextStyle) -> TextStyle {
        var style = base
        if let fontFamilies { style.fontFamilies = fontFamilies }
        if let fontSize { style.fontSize = fontSize }
        if let fontWeight { style.fontWeight = fontWeight }
        if let fontStyle { style.fontStyle = fontStyle }
        if let lineHeight { style.lineHeight = lineHeight }
        if let letterSpacing { style.letterSpacing = letterSpacing }
        if let textAlign { style.textAlign = textAlign }
        if let whiteSpace { style.whiteSpace = whiteSpace }
        if let overflowWrap { style.overflowWrap = overflowWrap }
        if let maxLines { style.maxLines = maxLines }
        if let textOverflow { style.textOverflow = textOverflow }
        if case .percent(let percent) = style.lineHeight, lineHeight != nil {
            style.lineHeight = .pixels(style.fontSize * percent / 100)
        }
        return style
    }
}

/// A run of text in one style (a `<Text>` nested in a React Native `<Text>`).
public struct TextSpan: Hashable, Sendable {
    public var text: String
    public var style: TextStyle

    public init(text: String, style: TextStyle) {
        self.text = text
        self.style = style
    }
}

/// What a text leaf lays out: its paragraph style (the leaf's own resolved style: alignment,
/// white space, wrapping, clamping, and the strut every line has) and its spans in order.
public struct TextContent: Hashable, Sendable {
    public var style: TextStyle
    public var spans: [TextSpan]

    public init(style: TextStyle, spans: [TextSpan]) {
        self.style = style
        self.spans = spans
    }

    /// A plain text in one style.
    public init(_ text: String, style: TextStyle = TextStyle()) {
        self.init(style: style, spans: [TextSpan(text: text, style: style)])
    }
}
