import LayoutEngine

extension RequestDecoder {
    /// Applies the members of a `style` object to `style`. Pointers are relative to the style.
    func decodeStyle(at index: Int, into style: inout Style) throws(WireError) {
        try expect(index, .object, "style", "")
        for (i, value) in doc.members(of: index) {
            guard let property = StyleProperty.named(doc.bytes(at: i)) else {
                let name = doc.string(at: i)
                if let paint = PaintKey.named(name) {
                    try applyPaint(paint, value: value, key: i)
                    continue
                }
                throw WireError.invalid("unknown-key", "unknown style property \"\(name)\"",
                                        pointer: "/" + JSONPointer.escape(name))
            }
            try apply(property, value: value, key: i, to: &style)
        }
    }

    private func apply(_ property: StyleProperty, value: Int, key: Int, to style: inout Style) throws(WireError) {
        // Built only when an error needs it.
        func pointer() -> String { "/" + JSONPointer.escape(doc.string(at: key)) }
        func name() -> String { doc.string(at: key) }
        func length() throws(WireError) -> StyleValue { try lengthValue(value, property.forms, key: key) }
        func number(allowNegative: Bool) throws(WireError) -> Float {
            guard doc.tokens[value].kind == .number else {
                throw wrongType(value, "\(name()) must be \(allowNegative ? "a number" : "a non-negative number")",
                                pointer: pointer())
            }
            return try checked(Double(bitPattern: doc.tokens[value].payload), name(), allowNegative: allowNegative,
                               pointer: pointer())
        }
        func word<K>(_ table: KeywordTable<K>) throws(WireError) -> K {
            try keyword(value, table, name(), pointer: pointer())
        }
        switch property {
        case .direction: style.direction = try word(Keywords.direction)
        case .flexDirection: style.flexDirection = try word(Keywords.flexDirection)
        case .justifyContent: style.justifyContent = try word(Keywords.justify)
        case .alignContent: style.alignContent = try word(Keywords.align)
        case .alignItems: style.alignItems = try word(Keywords.align)
        case .alignSelf: style.alignSelf = try word(Keywords.align)
        case .positionType: style.positionType = try word(Keywords.positionType)
        case .flexWrap: style.flexWrap = try word(Keywords.wrap)
        case .overflow: style.overflow = try word(Keywords.overflow)
        case .display: style.display = try word(Keywords.display)
        case .boxSizing: style.boxSizing = try word(Keywords.boxSizing)
        case .flex: style.flex = try number(allowNegative: true)
        case .flexGrow: style.flexGrow = try number(allowNegative: false)
        case .flexShrink: style.flexShrink = try number(allowNegative: false)
        case .aspectRatio: style.aspectRatio = try number(allowNegative: false)
        case .flexBasis: style.flexBasis = try length()
        case .width, .height:
            let isWidth: Bool
            if case .width = property { isWidth = true } else { isWidth = false }
            let dimension: SizeReference.Dimension = isWidth ? .width : .height
            if doc.tokens[value].kind == .object {
                let path = isWidth ? "/width" : "/height"
                try within(path) { () throws(WireError) in try recordSizeOf(value, dimension, path: "/style" + path) }
            } else if dimension == .width {
                style.width = try length()
            } else {
                style.height = try length()
            }
        case .minWidth: style.minWidth = try length()
        case .minHeight: style.minHeight = try length()
        case .maxWidth: style.maxWidth = try length()
        case .maxHeight: style.maxHeight = try length()
        case .margin(let edge): style.margin[edge] = try length()
        case .inset(let edge): style.position[edge] = try length()
        case .padding(let edge): style.padding[edge] = try length()
        case .border(let edge): style.border[edge] = try length()
        case .gap(.all): style.gap = try length()
        case .gap(.row): style.rowGap = try length()
        case .gap(.column): style.columnGap = try length()
        case .text(let property): try decodeTextProperty(property, value: value, into: &text.pendingStyle)
        }
    }

    /// A length: a number of points, or a string in one of the forms `forms` allows.
    private func lengthValue(_ index: Int, _ forms: LengthForms, key: Int) throws(WireError) -> StyleValue {
        let allowNegative = forms.contains(.negative)
        let token = doc.tokens[index]
        if token.kind == .number {
            return .points(try checked(Double(bitPattern: token.payload), doc.string(at: key),
                                       allowNegative: allowNegative, pointer: keyPointer(key)))
        }
        guard token.kind == .string else {
            throw wrongType(index, "\(doc.string(at: key)) must be \(forms.described)", pointer: keyPointer(key))
        }
        let text = doc.bytes(at: index)
        if let last = text.last, last == UInt8(ascii: "%"), forms.contains(.percent) {
            let digits = UnsafeBufferPointer(rebasing: text[..<(text.count - 1)])
            if let (number, end) = JSONNumber.parse(digits, from: 0), end == digits.count {
                return .percent(try checked(number, doc.string(at: key), allowNegative: allowNegative,
                                            pointer: keyPointer(key)))
            }
        } else if forms.contains(.auto), doc.equals(index, "auto") {
            return .auto
        } else if forms.contains(.intrinsic) {
            if doc.equals(index, "max-content") { return .maxContent }
            if doc.equals(index, "fit-content") { return .fitContent }
            if doc.equals(index, "stretch") { return .stretch }
        }
        throw .invalid("unknown-value", "invalid \(doc.string(at: key)) \"\(doc.string(at: index))\"; expected \(forms.described)",
                       pointer: keyPointer(key))
    }

    private func keyPointer(_ key: Int) -> String { "/" + JSONPointer.escape(doc.string(at: key)) }
}
