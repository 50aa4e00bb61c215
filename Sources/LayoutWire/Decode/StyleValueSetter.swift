import LayoutEngine

/// One JSON scalar as a style property reads it; both decoders (the tape's and the one-pass)
/// hand their values over in this form, so a value means the same whichever reads it.
enum StyleInput {
    case number(Double)
    /// A string's bytes, unescaped.
    case string(UnsafeBufferPointer<UInt8>)
    /// `true`, `false`, `null`, an array or an object.
    case other
}

/// Why a value does not fit a style property; the tape decoder words it with the key's name.
enum StyleInputFailure: Error {
    /// Not a number or string of the kind the property takes (`StyleProperty.expected`).
    case wrongType
    case negative
    /// A finite number too large for a 32-bit float.
    case notRepresentable
    /// A string that is none of the property's keywords.
    case unknownKeyword
    /// A string that is no length of the forms the property accepts.
    case invalidLength
}

extension StyleProperty {
    /// Sets this property of `style` from `input`, with every check `Style.validate` makes.
    /// Text properties and size references (`{"of": ...}`) are the caller's: they fail here.
    func set(_ input: StyleInput, on style: inout Style) throws(StyleInputFailure) {
        switch self {
        case .direction: style.direction = try Self.keyword(input, Keywords.direction)
        case .flexDirection: style.flexDirection = try Self.keyword(input, Keywords.flexDirection)
        case .justifyContent: style.justifyContent = try Self.keyword(input, Keywords.justify)
        case .alignContent: style.alignContent = try Self.keyword(input, Keywords.align)
        case .alignItems: style.alignItems = try Self.keyword(input, Keywords.align)
        case .alignSelf: style.alignSelf = try Self.keyword(input, Keywords.align)
        case .positionType: style.positionType = try Self.keyword(input, Keywords.positionType)
        case .flexWrap: style.flexWrap = try Self.keyword(input, Keywords.wrap)
        case .overflow: style.overflow = try Self.keyword(input, Keywords.overflow)
        case .display: style.display = try Self.keyword(input, Keywords.display)
        case .boxSizing: style.boxSizing = try Self.keyword(input, Keywords.boxSizing)
        case .flex: style.flex = try Self.number(input, allowNegative: true)
        case .flexGrow: style.flexGrow = try Self.number(input, allowNegative: false)
        case .flexShrink: style.flexShrink = try Self.number(input, allowNegative: false)
        case .aspectRatio: style.aspectRatio = try Self.number(input, allowNegative: false)
        case .flexBasis: style.flexBasis = try length(input)
        case .width: style.width = try length(input)
        case .height: style.height = try length(input)
        case .minWidth: style.minWidth = try length(input)
        case .minHeight: style.minHeight = try length(input)
        case .maxWidth: style.maxWidth = try length(input)
        case .maxHeight: style.maxHeight = try length(input)
        case .margin(let edge): style.margin[edge] = try length(input)
        case .inset(let edge): style.position[edge] = try length(input)
        case .padding(let edge): style.padding[edge] = try length(input)
        case .border(let edge): style.border[edge] = try length(input)
        case .gap(.all): style.gap = try length(input)
        case .gap(.row): style.rowGap = try length(input)
        case .gap(.column): style.columnGap = try length(input)
        case .text: throw .wrongType
        }
    }

    /// The keywords this property takes ("\"row\", \"column\" or ..."), or nil for a number or length.
    var keywords: String? {
        switch self {
        case .direction: return Keywords.direction.accepted
        case .flexDirection: return Keywords.flexDirection.accepted
        case .justifyContent: return Keywords.justify.accepted
        case .alignContent, .alignItems, .alignSelf: return Keywords.align.accepted
        case .positionType: return Keywords.positionType.accepted
        case .flexWrap: return Keywords.wrap.accepted
        case .overflow: return Keywords.overflow.accepted
        case .display: return Keywords.display.accepted
        case .boxSizing: return Keywords.boxSizing.accepted
        default: return nil
        }
    }

    /// What a value of this property must be, for messages: "a non-negative number", "one of
    /// \"row\", ...", "a number, a percentage like \"50%\" or \"auto\"".
    var expected: String {
        if let keywords { return "one of " + keywords }
        switch self {
        case .flex: return "a number"
        case .flexGrow, .flexShrink, .aspectRatio: return "a non-negative number"
        default: return forms.described
        }
    }

    @inline(__always)
    private static func keyword<K>(_ input: StyleInput, _ table: KeywordTable<K>) throws(StyleInputFailure) -> K {
        guard case .string(let bytes) = input else { throw .wrongType }
        guard let value = table.match(bytes) else { throw .unknownKeyword }
        return value
    }

    @inline(__always)
    private static func number(_ input: StyleInput, allowNegative: Bool) throws(StyleInputFailure) -> Float {
        guard case .number(let number) = input else { throw .wrongType }
        return try checked(number, allowNegative: allowNegative)
    }

    /// A finite Float; the sign is checked on the Double, since a tiny negative rounds to -0.
    @inline(__always)
    static func checked(_ number: Double, allowNegative: Bool) throws(StyleInputFailure) -> Float {
        let value = Float(number)
        guard value.isFinite else { throw .notRepresentable }
        guard allowNegative || !(number < 0) else { throw .negative }
        return value
    }

    /// A length: a number of points, or a string in one of the forms this property allows.
    @inline(__always)
    private func length(_ input: StyleInput) throws(StyleInputFailure) -> StyleValue {
        let forms = self.forms
        let allowNegative = forms.contains(.negative)
        let text: UnsafeBufferPointer<UInt8>
        switch input {
        case .number(let number): return .points(try Self.checked(number, allowNegative: allowNegative))
        case .string(let bytes): text = bytes
        case .other: throw .wrongType
        }
        if let last = text.last, last == UInt8(ascii: "%"), forms.contains(.percent) {
            let digits = UnsafeBufferPointer(rebasing: text[..<(text.count - 1)])
            if let (number, end) = JSONNumber.parse(digits, from: 0), end == digits.count {
                return .percent(try Self.checked(number, allowNegative: allowNegative))
            }
        } else if forms.contains(.auto), spells(text, "auto") {
            return .auto
        } else if forms.contains(.intrinsic) {
            if spells(text, "max-content") { return .maxContent }
            if spells(text, "fit-content") { return .fitContent }
            if spells(text, "stretch") { return .stretch }
        }
        throw .invalidLength
    }

}
