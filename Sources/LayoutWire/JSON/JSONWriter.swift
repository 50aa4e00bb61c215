/// Appends compact JSON to a byte buffer. The caller pairs `begin`/`end` calls; the writer
/// inserts commas. Strings are escaped per RFC 8259: `"`, `\` and control characters.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Whether the innermost open container has a member or element already.
    private var needsComma = false

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    @inline(__always) private mutating func separator() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    public mutating func beginObject() { separator(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separator(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// A member name; the next call writes its value.
    public mutating func key(_ name: String) {
        separator()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A member name known to need no escaping (a literal of the format).
    public mutating func key(_ name: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) { separator(); writeString(value) }
    public mutating func number(_ value: Float) { separator(); JSONNumber.write(value, to: &bytes) }
    public mutating func number(_ value: Double) { separator(); JSONNumber.write(value, to: &bytes) }
    public mutating func integer(_ value: Int) { separator(); JSONNumber.write(value, to: &bytes) }
    public mutating func bool(_ value: Bool) { separator(); bytes.append(contentsOf: (value ? "true" : "false").utf8) }
    public mutating func null() { separator(); bytes.append(contentsOf: "null".utf8) }

    /// Writes a parsed value, walking its tape without recursion.
    public mutating func value(_ value: JSONValue) {
        let doc = value.document
        let end = doc.next(after: value.index)
        // For each open container: the index after it, and whether it is an object.
        var open: [(end: Int, isObject: Bool)] = []
        var i = value.index
        while i < end {
            while let top = open.last, top.end == i {
                open.removeLast()
                if top.isObject { endObject() } else { endArray() }
            }
            if let top = open.last, top.isObject {
                // Tokens inside an object alternate key, value.
                separator()
                writeBytes(doc.bytes(at: i))
                bytes.append(UInt8(ascii: ":"))
                needsComma = false
                i += 1
            }
            let token = doc.tokens[i]
            switch token.kind {
            case .null: null()
            case .true: bool(true)
            case .false: bool(false)
            case .number: number(Double(bitPattern: token.payload))
            case .string: separator(); writeBytes(doc.bytes(at: i))
            case .array: beginArray(); open.append((Int(token.payload), false))
            case .object: beginObject(); open.append((Int(token.payload), true))
            }
            i += 1
        }
        while let top = open.popLast() {
            if top.isObject { endObject() } else { endArray() }
        }
    }

    private mutating func writeString(_ value: String) {
        var value = value
        value.withUTF8 { writeBytes($0) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A quoted string from UTF-8 bytes, escaping what RFC 8259 requires.
    private mutating func writeBytes(_ s: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for i in 0..<s.count {
            let b = s[i]
            guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
            if i > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: s[runStart..<i])) }
            runStart = i + 1
            bytes.append(UInt8(ascii: "\\"))
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(b)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          Self.hexDigits[Int(b >> 4)], Self.hexDigits[Int(b & 0xF)]])
            }
        }
        if s.count > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: s[runStart..<s.count])) }
        bytes.append(UInt8(ascii: "\""))
    }
}
