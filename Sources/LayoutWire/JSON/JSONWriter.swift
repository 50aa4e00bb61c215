import LayoutEngine

/// Appends compact JSON to a byte buffer. The caller pairs `begin`/`end` calls; the writer
/// inserts commas. Strings are escaped per RFC 8259: `"`, `\` and control characters.
public struct JSONWriter {
    @usableFromInline var out: OutputBuffer
    /// Whether the innermost open container has a member or element already.
    @usableFromInline var needsComma = false

    public init(capacity: Int = 256) { out = OutputBuffer(capacity: capacity) }

    /// What has been written so far (a copy).
    public var bytes: [UInt8] { out.array() }

    /// Room for `extra` bytes in a buffer this writer alone holds.
    @inlinable @inline(__always) mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        out.reserve(extra)
    }

    @inlinable @inline(__always) mutating func byte(_ b: UInt8) {
        reserve(1).pointee = b
        out.count += 1
    }

    @inline(__always) private mutating func raw(_ s: UnsafeBufferPointer<UInt8>) {
        guard let source = s.baseAddress, s.count > 0 else { return }
        let p = reserve(s.count)
        if s.count < 32 {
            for i in 0..<s.count { p[i] = source[i] }
        } else {
            p.update(from: source, count: s.count)
        }
        out.count += s.count
    }

    @inlinable @inline(__always) mutating func separator() {
        if needsComma { byte(UInt8(ascii: ",")) }
        needsComma = true
    }

    @inlinable public mutating func beginObject() { separator(); byte(UInt8(ascii: "{")); needsComma = false }
    @inlinable public mutating func endObject() { byte(UInt8(ascii: "}")); needsComma = true }
    @inlinable public mutating func beginArray() { separator(); byte(UInt8(ascii: "[")); needsComma = false }
    @inlinable public mutating func endArray() { byte(UInt8(ascii: "]")); needsComma = true }

    /// A member name; the next call writes its value.
    public mutating func key(_ name: String) {
        separator()
        writeString(name)
        byte(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A member name known to need no escaping (a literal of the format).
    @inlinable public mutating func key(_ name: StaticString) {
        let n = name.utf8CodeUnitCount
        let p = reserve(n + 4)
        var k = 0
        if needsComma { p[0] = UInt8(ascii: ","); k = 1 }
        p[k] = UInt8(ascii: "\"")
        let source = name.utf8Start
        for i in 0..<n { p[k + 1 + i] = source[i] }
        p[k + 1 + n] = UInt8(ascii: "\"")
        p[k + 2 + n] = UInt8(ascii: ":")
        out.count += k + 3 + n
        needsComma = false
    }

    public mutating func string(_ value: String) { separator(); writeString(value) }
    /// A string given as its UTF-8 bytes.
    public mutating func string(utf8 value: UnsafeBufferPointer<UInt8>) { separator(); writeBytes(value) }

    /// A whole JSON value already spelled as JSON (`bytes`), written as it is.
    public mutating func rawValue(_ bytes: UnsafeBufferPointer<UInt8>) {
        separator()
        raw(bytes)
    }

    @inlinable public mutating func number(_ value: Float) {
        separator()
        let p = reserve(JSONNumber.maxFastLength)
        out.count += Self.write(value, to: p)
    }

    /// `value` as `JSONNumber.write(_: Float, to:)` spells it, at `p` (room for
    /// `JSONNumber.maxFastLength` bytes); returns the length.
    @inlinable @inline(__always)
    static func write(_ value: Float, to p: UnsafeMutablePointer<UInt8>) -> Int {
        // Whole numbers from 0 to 9,999 (most frame values): one conversion and a digit-pair
        // table. -0 writes "0", as `writeFast` does; NaN fails the range test.
        if value >= 0 && value < 10_000 {
            let whole = UInt32(value)
            if Float(whole) == value { return JSONNumber.writeSmall(whole, to: p) }
        }
        if let n = JSONNumber.writeFast(value, to: p) { return n }
        return writeSlowPath(value, to: p)
    }

    /// The general spelling (`null`, or Swift's shortest description, at most 15 bytes).
    @usableFromInline static func writeSlowPath(_ value: Float, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var text: [UInt8] = []
        JSONNumber.write(value, to: &text)
        precondition(text.count <= JSONNumber.maxFastLength, "a Float spelled in more than 32 bytes")
        text.withUnsafeBufferPointer { p.update(from: $0.baseAddress!, count: $0.count) }
        return text.count
    }

    /// Opens a node object of an answer and writes its `id` (when it has one) and its frame:
    /// `{"id":"..","left":..,"top":..,"width":..,"height":..` — the same bytes as `beginObject`,
    /// `key`/`string` and four `key`/`number` pairs, with one capacity check for the frame.
    @inlinable public mutating func openNode(id: String?, frame: Frame) {
        if let id { openObject(id: id) } else { beginObject() }
        frameMembers(frame)
    }

    /// `openNode(id:frame:)` for an id given as its UTF-8 bytes (a `NodeIdentifiers` entry):
    /// the node's opening, id and frame written after one capacity check. `escapeFree`: the id
    /// is known to need no escapes (`NodeIdentifiers.escapeFree`), so it is not looked at.
    public mutating func openNode(idUTF8 id: UnsafeBufferPointer<UInt8>?, frame: Frame, escapeFree: Bool = false) {
        guard let id else {
            beginObject()
            frameMembers(frame)
            return
        }
        guard Self.needsNoEscapes(id, known: escapeFree), let source = id.baseAddress else {
            openObject(idUTF8: id)  // escapes, or empty: the general path
            frameMembers(frame)
            return
        }
        let p = reserve(1 + 8 + id.count + 1 + Self.frameRoom)
        var n = 0
        if needsComma { p[0] = UInt8(ascii: ","); n = 1 }
        Self.store(0x22_3A22_6469_227B, at: p + n)  // {"id":"
        n += 7
        for i in 0..<id.count { p[n &+ i] = source[i] }
        n += id.count
        p[n] = UInt8(ascii: "\"")
        out.count += n + 1 + Self.frameMembers(frame, at: p + n + 1, afterMember: true)
        needsComma = true
    }

    /// `,"left":…,"top":…,"width":…,"height":…` with one capacity check.
    @inlinable @inline(__always) mutating func frameMembers(_ frame: Frame) {
        let p = reserve(1 + Self.frameRoom)
        out.count += Self.frameMembers(frame, at: p, afterMember: needsComma)
        needsComma = true
    }

    /// A node's frame members right after bytes copied up to its opening (`{` or `{"id":"..",`).
    mutating func frameMembersAfterOpening(_ frame: Frame) {
        let p = reserve(Self.frameRoom)
        out.count += Self.frameMembers(frame, at: p, afterMember: false)
        needsComma = true
    }

    /// Bytes of an earlier answer copied as they are; they end inside a node object after a member.
    mutating func copied(_ bytes: UnsafeBufferPointer<UInt8>) {
        raw(bytes)
        needsComma = true
    }

    /// Room for `frameMembers`: its names and four numbers.
    @inlinable static var frameRoom: Int { 34 + 4 * JSONNumber.maxFastLength }

    /// Writes a frame's four members at `p` (a comma first when `afterMember`); returns the
    /// bytes written. The names go as 8-byte stores of their bytes (little-endian words, first
    /// byte lowest; the byte a store writes past a shorter name is overwritten next).
    @inlinable @inline(__always)
    static func frameMembers(_ frame: Frame, at p: UnsafeMutablePointer<UInt8>, afterMember: Bool) -> Int {
        var n: Int
        if afterMember {
            store(0x3A22_7466_656C_222C, at: p)  // ,"left":
            n = 8
        } else {
            store(0x3A_2274_6665_6C22, at: p)  // "left":
            n = 7
        }
        n &+= write(frame.left, to: p + n)
        store(0x3A_2270_6F74_222C, at: p + n)  // ,"top":
        n &+= 7
        n &+= write(frame.top, to: p + n)
        store(0x2268_7464_6977_222C, at: p + n)  // ,"width
        p[n &+ 8] = UInt8(ascii: ":")
        n &+= 9
        n &+= write(frame.width, to: p + n)
        store(0x7468_6769_6568_222C, at: p + n)  // ,"height
        p[n &+ 8] = UInt8(ascii: "\"")
        p[n &+ 9] = UInt8(ascii: ":")
        n &+= 10
        n &+= write(frame.height, to: p + n)
        return n
    }

    @inlinable @inline(__always)
    static func store(_ word: UInt64, at p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: word.littleEndian, as: UInt64.self)
    }

    /// `beginObject()`, then the member `"id"` with `id`.
    @usableFromInline mutating func openObject(id: String) {
        beginObject()
        key("id" as StaticString)
        string(id)
    }

    /// `openObject(id:)` for an id given as its UTF-8 bytes.
    @usableFromInline mutating func openObject(idUTF8 id: UnsafeBufferPointer<UInt8>) {
        beginObject()
        key("id" as StaticString)
        string(utf8: id)
    }

    public mutating func number(_ value: Double) {
        separator()
        // Whole numbers from 0 to 9,999 (most sizes in a layout document, which a rebuilt patch
        // writes out whole): the digit-pair table, straight into the output. -0 is left to the
        // general spelling, which keeps its sign.
        if value >= 0 && value < 10_000 && value.sign == .plus {
            let whole = UInt32(value)
            if Double(whole) == value {
                let p = reserve(4)
                out.count += JSONNumber.writeSmall(whole, to: p)
                return
            }
        }
        var text: [UInt8] = []
        JSONNumber.write(value, to: &text)
        text.withUnsafeBufferPointer { raw($0) }
    }

    public mutating func integer(_ value: Int) {
        separator()
        var text: [UInt8] = []
        JSONNumber.write(value, to: &text)
        text.withUnsafeBufferPointer { raw($0) }
    }

    public mutating func bool(_ value: Bool) { separator(); raw(value ? "true" : "false") }
    public mutating func null() { separator(); raw("null") }

    private mutating func raw(_ literal: StaticString) {
        raw(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

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
                byte(UInt8(ascii: ":"))
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

    /// Whether the id `s` is written as it is between quotes: `known` (its ids are
    /// `NodeIdentifiers.escapeFree`), or no byte of it needs an escape.
    @usableFromInline @inline(__always)
    static func needsNoEscapes(_ s: UnsafeBufferPointer<UInt8>, known: Bool) -> Bool {
        known || firstEscape(s) == s.count
    }

    /// The index of the first byte of `s` that needs an escape (`"`, `\`, a control
    /// character), or `s.count`: eight bytes at a time, then byte by byte.
    @usableFromInline @inline(__always)
    static func firstEscape(_ s: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = s.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        while i + 8 <= s.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // High bit set in a byte that is `"`, `\` or below 0x20 (bytes >= 0x80 are left
            // out with `& ~word`: UTF-8 needs no escapes).
            let special = (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                | ((word &- ones &* 0x20) & ~word)) & highs
            // The lowest flagged byte is a real hit (false flags only run upward).
            if special != 0 { return i + special.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < s.count {
            let b = s[i]
            if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return i }
            i += 1
        }
        return i
    }

    /// A quoted string from UTF-8 bytes, escaping what RFC 8259 requires.
    private mutating func writeBytes(_ s: UnsafeBufferPointer<UInt8>) {
        let plain = Self.firstEscape(s)
        if plain == s.count {
            // Nothing to escape (ids, keys): one copy between the quotes.
            let p = reserve(s.count + 2)
            p[0] = UInt8(ascii: "\"")
            if let source = s.baseAddress {
                if s.count < 32 {
                    for i in 0..<s.count { p[1 + i] = source[i] }
                } else {
                    (p + 1).update(from: source, count: s.count)
                }
            }
            p[s.count + 1] = UInt8(ascii: "\"")
            out.count += s.count + 2
            return
        }
        byte(UInt8(ascii: "\""))
        var runStart = 0
        for i in 0..<s.count {
            let b = s[i]
            guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
            if i > runStart { raw(UnsafeBufferPointer(rebasing: s[runStart..<i])) }
            runStart = i + 1
            byte(UInt8(ascii: "\\"))
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): byte(b)
            case 0x0A: byte(UInt8(ascii: "n"))
            case 0x0D: byte(UInt8(ascii: "r"))
            case 0x09: byte(UInt8(ascii: "t"))
            case 0x08: byte(UInt8(ascii: "b"))
            case 0x0C: byte(UInt8(ascii: "f"))
            default:
                for c in [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                          Self.hexDigits[Int(b >> 4)], Self.hexDigits[Int(b & 0xF)]] { byte(c) }
            }
        }
        if s.count > runStart { raw(UnsafeBufferPointer(rebasing: s[runStart..<s.count])) }
        byte(UInt8(ascii: "\""))
    }
}
