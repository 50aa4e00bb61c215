@_spi(Decoding) import LayoutEngine

// The token readers: numbers, literals, strings (in place or unescaped), member names and
// brackets, each moving `pos` past what it read.
extension OnePassDecoder {
    /// A non-negative number that fits a Float.
    mutating func measurement() throws(GaveUp) -> Float {
        do { return try StyleProperty.checked(try number(), allowNegative: false) } catch { throw GaveUp() }
    }

    mutating func number() throws(GaveUp) -> Double {
        guard let (value, end) = JSONNumber.parse(input, from: pos) else { throw GaveUp() }
        pos = end
        return value
    }

    mutating func bool() throws(GaveUp) -> Bool {
        if peek() == UInt8(ascii: "t") { try literal("true"); return true }
        try literal("false")
        return false
    }

    mutating func literal(_ word: StaticString) throws(GaveUp) {
        let n = word.utf8CodeUnitCount
        guard pos + n <= input.count else { throw GaveUp() }
        for i in 0..<n where input[pos + i] != word.utf8Start[i] { throw GaveUp() }
        pos += n
    }

    /// A string at `pos` after whitespace, checked to be UTF-8 as the parser checks it: its
    /// bytes in the input, or, when it has escapes, in `unescaped` (valid until the next string).
    @inline(__always)
    mutating func string() throws(GaveUp) -> UnsafeBufferPointer<UInt8> {
        skipWhitespace()
        guard pos < input.count, input[pos] == UInt8(ascii: "\"") else { throw GaveUp() }
        let start = pos + 1
        let end = try Self.plainRun(input, from: start)
        guard end < input.count else { throw GaveUp() }
        if input[end] == UInt8(ascii: "\\") { return try unescapedString(from: start, escape: end) }
        guard input[end] == UInt8(ascii: "\""), end - start <= limits.maxStringBytes else { throw GaveUp() }
        pos = end + 1
        return UnsafeBufferPointer(rebasing: input[start..<end])
    }

    /// Where the run of string bytes from `start` ends: at a quote, a backslash, a control
    /// character or the end of the input, past valid UTF-8 sequences.
    // Static: as a method it was handed a copy of the whole decoder per string.
    @inline(__always)
    static func plainRun(_ input: UnsafeBufferPointer<UInt8>, from start: Int) throws(GaveUp) -> Int {
        var end = start
        while true {
            end = JSONParser.skipPlainASCII(input, from: end)
            while end < input.count, JSONParser.isPlainASCII(input[end]) { end += 1 }
            guard end < input.count, input[end] >= 0x80 else { return end }
            let length = UTF8Validation.sequenceLength(input, at: end)
            guard length > 0 else { throw GaveUp() }
            end += length
        }
    }

    /// The string from `start` whose first escape is at `escape`, unescaped into `unescaped`.
    // Never inlined: the rare path stays out of `string()`, which every key and id goes through.
    @inline(never)
    mutating func unescapedString(from start: Int, escape: Int) throws(GaveUp) -> UnsafeBufferPointer<UInt8> {
        var out = unescaped.take() ?? GrowableBuffer(capacity: 64)
        defer { unescaped = out }
        out.removeAll()
        out.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<escape]))
        var at = escape
        while true {
            do { at = try JSONEscape.decode(input, at: at, appendingTo: &out) } catch { throw GaveUp() }
            let end = try Self.plainRun(input, from: at)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: input[at..<end]))
            guard end < input.count, out.count <= limits.maxStringBytes else { throw GaveUp() }
            if input[end] == UInt8(ascii: "\"") {
                pos = end + 1
                return UnsafeBufferPointer(out.buffer)
            }
            guard input[end] == UInt8(ascii: "\\") else { throw GaveUp() }  // a control character
            at = end
        }
    }

    /// `id` as a node keeps it to its end: a string unescaped is copied out of `unescaped`.
    mutating func keptID(_ id: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let base = input.baseAddress, let start = id.baseAddress,
              start < base || start > base + input.count else { return id }
        var kept = unescapedID.take() ?? GrowableBuffer(capacity: 64)
        kept.removeAll()
        kept.append(contentsOf: id)
        unescapedID = kept
        return UnsafeBufferPointer(kept.buffer)
    }

    /// A node member's name (`key()`), recognised from its first eight bytes when it is one of
    /// the node keys spelled without whitespace before its colon: most keys of a request.
    mutating func nodeKey() throws(GaveUp) -> UnsafeBufferPointer<UInt8> {
        skipWhitespace()
        guard pos + 11 <= input.count, let base = input.baseAddress else { return try key() }
        let word = UInt64(littleEndian: UnsafeRawPointer(base + pos).loadUnaligned(as: UInt64.self))
        // Each name's bytes as a little-endian word (first byte lowest), quote included: the
        // name's length when it is one of them.
        let length: Int
        if word & 0xFF_FFFF_FFFF == 0x3A_2264_6922 {  // "id":
            length = 2
        } else if word == 0x3A22_656C_7974_7322 {  // "style":
            length = 5
        } else if word == 0x6572_646C_6968_6322, spells(UnsafeBufferPointer(rebasing: input[pos + 8..<pos + 11]), "n\":") {
            length = 8  // "children":
        } else if word == 0x6572_7573_6165_6D22, spells(UnsafeBufferPointer(rebasing: input[pos + 8..<pos + 10]), "\":") {
            length = 7  // "measure":
        } else {
            return try key()
        }
        // A string limit below the name's length: `key()` gives up on it as the parser would.
        guard length <= limits.maxStringBytes else { return try key() }
        let key = UnsafeBufferPointer(rebasing: input[pos + 1..<pos + 1 + length])
        pos += length + 3
        skipWhitespace()
        return key
    }

    /// A member's name and its colon; `pos` is then at the value (after whitespace).
    mutating func key() throws(GaveUp) -> UnsafeBufferPointer<UInt8> {
        let name = try string()
        skipWhitespace()
        guard pos < input.count, input[pos] == UInt8(ascii: ":") else { throw GaveUp() }
        pos += 1
        skipWhitespace()
        return name
    }

    /// After a member: true at a comma (another member follows), false at the closing brace.
    mutating func nextMember() throws(GaveUp) -> Bool {
        skipWhitespace()
        guard pos < input.count else { throw GaveUp() }
        pos += 1
        switch input[pos - 1] {
        case UInt8(ascii: ","): return true
        case UInt8(ascii: "}"): return false
        default: throw GaveUp()
        }
    }

    mutating func open(_ bracket: UInt8) throws(GaveUp) {
        skipWhitespace()
        guard pos < input.count, input[pos] == bracket else { throw GaveUp() }
        pos += 1
    }

    /// Whether the container just opened closes at once (consumed).
    mutating func closesEmpty(_ bracket: UInt8) throws(GaveUp) -> Bool {
        skipWhitespace()
        guard pos < input.count else { throw GaveUp() }
        guard input[pos] == bracket else { return false }
        pos += 1
        return true
    }

    @inline(__always) mutating func peek() -> UInt8 {
        skipWhitespace()
        return pos < input.count ? input[pos] : 0
    }

    @inline(__always) mutating func skipWhitespace() {
        pos = skippingWhitespace(input, from: pos)
    }
}
