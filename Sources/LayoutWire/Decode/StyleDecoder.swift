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
        switch property {
        case .width where doc.tokens[value].kind == .object, .height where doc.tokens[value].kind == .object:
            let isWidth: Bool
            if case .width = property { isWidth = true } else { isWidth = false }
            let path = isWidth ? "/width" : "/height"
            try within(path) { () throws(WireError) in try recordSizeOf(value, isWidth ? .width : .height, path: "/style" + path) }
        case .text(let property):
            try decodeTextProperty(property, value: value, into: &text.pendingStyle)
        default:
            do { try property.set(input(value), on: &style) } catch {
                throw self.error(error, property, value: value, key: key)
            }
        }
    }

    /// The value at `index` as a style property reads it.
    @inline(__always) func input(_ index: Int) -> StyleInput {
        let token = doc.tokens[index]
        switch token.kind {
        case .number: return .number(Double(bitPattern: token.payload))
        case .string: return .string(doc.bytes(at: index))
        default: return .other
        }
    }

    /// The error for a value `property` refused, worded with the key's name.
    private func error(_ failure: StyleInputFailure, _ property: StyleProperty, value: Int, key: Int) -> WireError {
        let name = doc.string(at: key)
        let pointer = keyPointer(key)
        switch failure {
        case .wrongType: return wrongType(value, "\(name) must be \(property.expected)", pointer: pointer)
        case .negative: return .invalid("invalid-value", "\(name) must not be negative", pointer: pointer)
        case .notRepresentable:
            return .invalid("not-representable", "\(name) is not representable as a 32-bit float", pointer: pointer)
        case .unknownKeyword:
            return .invalid("unknown-value", "unknown \(name) \"\(doc.string(at: value))\"; expected \(property.keywords ?? "")",
                            pointer: pointer)
        case .invalidLength:
            return .invalid("unknown-value", "invalid \(name) \"\(doc.string(at: value))\"; expected \(property.forms.described)",
                            pointer: pointer)
        }
    }

    private func keyPointer(_ key: Int) -> String { "/" + JSONPointer.escape(doc.string(at: key)) }
}
