/// JSON string escapes (RFC 8259, section 7): what one stands for, for the tape parser and the
/// one-pass decoder alike.
enum JSONEscape {
    /// Why an escape does not stand for anything; offsets into the input.
    enum Failure: Error {
        /// The input ends right after the backslash.
        case unterminated
        /// Fewer than four hex digits after the `\u` at `escapeAt`.
        case truncatedUnicode(escapeAt: Int)
        /// The byte at `at` is not a hex digit.
        case invalidHexDigit(at: Int)
        /// A surrogate without its other half.
        case unpairedSurrogate
        /// A backslash before this byte, which JSON does not escape.
        case invalid(UInt8)
    }

    /// Appends the UTF-8 bytes of the escape at `at` (on its backslash) to `out`; returns the
    /// position after it (after both halves of a surrogate pair).
    static func decode(_ input: UnsafeBufferPointer<UInt8>, at: Int,
                       appendingTo out: inout GrowableBuffer<UInt8>) throws(Failure) -> Int {
        guard at + 1 < input.count else { throw .unterminated }
        let c = input[at + 1]
        var pos = at + 2
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(c)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(input, at: pos, escapeAt: at)
            pos += 4
            if scalar >= 0xD800 && scalar < 0xDC00 {
                // A high surrogate must be followed by an escaped low one.
                guard pos + 1 < input.count, input[pos] == UInt8(ascii: "\\"), input[pos + 1] == UInt8(ascii: "u") else {
                    throw .unpairedSurrogate
                }
                let low = try hex4(input, at: pos + 2, escapeAt: pos)
                pos += 6
                guard low >= 0xDC00 && low < 0xE000 else { throw .unpairedSurrogate }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                throw .unpairedSurrogate
            }
            appendUTF8(scalar, to: &out)
        default:
            throw .invalid(c)
        }
        return pos
    }

    /// The four hex digits at `pos`, of the `\u` at `escape`.
    private static func hex4(_ input: UnsafeBufferPointer<UInt8>, at pos: Int, escapeAt escape: Int) throws(Failure) -> UInt32 {
        guard pos + 4 <= input.count else { throw .truncatedUnicode(escapeAt: escape) }
        var v: UInt32 = 0
        for i in 0..<4 {
            let c = input[pos + i]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: throw .invalidHexDigit(at: pos + i)
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    private static func appendUTF8(_ v: UInt32, to out: inout GrowableBuffer<UInt8>) {
        switch v {
        case 0..<0x80:
            out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | v >> 6)); out.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | v >> 12)); out.append(UInt8(0x80 | (v >> 6) & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        default:
            out.append(UInt8(0xF0 | v >> 18)); out.append(UInt8(0x80 | (v >> 12) & 0x3F))
            out.append(UInt8(0x80 | (v >> 6) & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
        }
    }
}
