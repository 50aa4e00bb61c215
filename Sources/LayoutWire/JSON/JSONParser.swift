/// A single-pass, non-recursive RFC 8259 parser that writes a token tape. Nesting is tracked
/// on an explicit stack bounded by `WireLimits.maxNesting`, so no document can overflow the
/// thread stack. The string storage starts with a copy of the whole input, so a string without
/// escapes (nearly all) is recorded as its place in that copy instead of being copied on its
/// own; strings with escapes are unescaped after it. Everything is UTF-8 validated; no
/// allocation happens per character or per value.
struct JSONParser {
    private let input: UnsafeBufferPointer<UInt8>
    private let limits: WireLimits
    private var pos = 0
    private var tokens: GrowableBuffer<JSONToken>
    private var strings: GrowableBuffer<UInt8>
    /// Open containers; manual memory, so updating the innermost costs no uniqueness check.
    private var stack = GrowableBuffer<Frame>(capacity: 64)

    /// An open container.
    private struct Frame: BitwiseCopyable {
        var token: Int32
        var count: UInt32
        var isObject: Bool
        /// The token of the key whose value is being parsed (objects only).
        var key: Int32
        /// One bit per member name seen (of 64, picked by its length and end bytes): when a
        /// name's bit is already set the object may repeat a name and `close` checks its names;
        /// most objects never collide and skip the check.
        var keyBits: UInt64 = 0
        var mayRepeatKey = false
    }

    /// Where string tokens without escapes point: the input (borrowed) or its copy at the
    /// start of `strings` (owned). Offsets of unescaped strings are shifted by `sideOffset`.
    private let borrowsInput: Bool
    private let sideOffset: Int

    /// With `borrowingInput`, the document reads plain strings from `bytes` and is valid only
    /// while they are (the caller decodes it at once and drops it); otherwise it owns a copy.
    init(bytes: UnsafeBufferPointer<UInt8>, limits: WireLimits, borrowingInput: Bool = false) {
        self.input = bytes
        self.limits = limits
        borrowsInput = borrowingInput
        // Generous guesses: untouched capacity costs address space, not memory.
        tokens = GrowableBuffer(capacity: bytes.count / 6 + 16)
        if borrowingInput {
            sideOffset = bytes.count
            strings = GrowableBuffer(capacity: 256)
        } else {
            // An unescaped string is never longer than its escaped text: the copy and every
            // unescaped string fit in twice the input.
            sideOffset = 0
            strings = GrowableBuffer(capacity: 2 * bytes.count + 16)
            strings.append(contentsOf: bytes)
        }
    }

    /// Parses the whole input. Call once.
    mutating func parse() throws(WireError) -> JSONDocument {
        do throws(WireError) {
            try parseValues()
            skipWhitespace()
            if pos < input.count { throw WireError.syntax("unexpected \(describe(input[pos])) after the document", at: pos) }
        } catch {
            tokens.free()
            strings.free()
            stack.free()
            throw error
        }
        stack.free()
        return JSONDocument(tokens: tokens, strings: strings, borrowing: borrowsInput ? input : nil)
    }

    // MARK: Structure

    private mutating func parseValues() throws(WireError) {
        while true {
            // A value is expected here.
            skipWhitespace()
            guard pos < input.count else { throw .syntax("unexpected end of the document; a value was expected", at: pos) }
            let byte = input[pos]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                guard stack.count < limits.maxNesting else {
                    throw .tooLarge("too-deep", "the document nests deeper than \(limits.maxNesting) arrays and objects",
                                    pointer: currentPointer(), offset: pos)
                }
                stack.append(Frame(token: Int32(tokens.count), count: 0, isObject: isObject, key: -1))
                tokens.append(JSONToken(kind: isObject ? .object : .array, aux: 0, payload: 0))
                pos += 1
                skipWhitespace()
                if pos < input.count, input[pos] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                    try close()
                    if try afterValue() { return }
                    continue
                }
                if isObject { try parseKey() }
                continue
            case UInt8(ascii: "\""):
                try parseString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try parseNumber()
            case UInt8(ascii: "t"):
                try literal("true", .true)
            case UInt8(ascii: "f"):
                try literal("false", .false)
            case UInt8(ascii: "n"):
                try literal("null", .null)
            default:
                throw .syntax("unexpected \(describe(byte)); a value was expected", at: pos)
            }
            if try afterValue() { return }
        }
    }

    /// After a complete value: closes finished containers and consumes separators. Returns true
    /// when the top-level value is complete, false when another value is expected.
    private mutating func afterValue() throws(WireError) -> Bool {
        while stack.count > 0 {
            let top = stack[stack.count - 1]
            stack[stack.count - 1].count = top.count + 1
            skipWhitespace()
            guard pos < input.count else {
                throw .syntax("unexpected end of the document inside \(top.isObject ? "an object" : "an array")", at: pos)
            }
            let byte = input[pos]
            if byte == UInt8(ascii: ",") {
                pos += 1
                if top.isObject { try parseKey() }
                return false
            }
            if byte == (top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                pos += 1
                try close()
                continue
            }
            throw .syntax("unexpected \(describe(byte)); expected ',' or '\(top.isObject ? "}" : "]")'", at: pos)
        }
        return true
    }

    /// Ends the innermost container: records its size and extent, checks object keys.
    private mutating func close() throws(WireError) {
        let frame = stack[stack.count - 1]
        tokens[Int(frame.token)].aux = frame.count
        tokens[Int(frame.token)].payload = UInt64(tokens.count)
        if frame.mayRepeatKey { try checkDuplicateKeys(frame) }
        stack.removeLast()
    }

    /// Parses `"key" :` inside an object.
    private mutating func parseKey() throws(WireError) {
        skipWhitespace()
        guard pos < input.count, input[pos] == UInt8(ascii: "\"") else {
            if pos >= input.count { throw .syntax("unexpected end of the document; a member name was expected", at: pos) }
            throw .syntax("unexpected \(describe(input[pos])); a member name in double quotes was expected", at: pos)
        }
        let key = tokens.count
        stack[stack.count - 1].key = Int32(key)
        try parseString()
        let bit = Self.keyBit(stringBytes(tokens[key]))
        if stack[stack.count - 1].keyBits & bit != 0 { stack[stack.count - 1].mayRepeatKey = true }
        stack[stack.count - 1].keyBits |= bit
        skipWhitespace()
        guard pos < input.count, input[pos] == UInt8(ascii: ":") else {
            if pos >= input.count { throw .syntax("unexpected end of the document; ':' was expected", at: pos) }
            throw .syntax("unexpected \(describe(input[pos])); ':' was expected after a member name", at: pos)
        }
        pos += 1
    }

    /// The bit of `Frame.keyBits` for a member name: equal names always get the same bit.
    @inline(__always) private static func keyBit(_ name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let n = name.count
        guard n > 0 else { return 1 }
        let mix = (UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(name[0]) &* 0xBF58_476D_1CE4_E5B9)
            ^ (UInt64(name[n - 1]) &* 0x94D0_49BB_1331_11EB)
        return 1 << (mix >> 58)
    }

    // MARK: Scalars

    @inline(__always) private mutating func skipWhitespace() {
        pos = skippingWhitespace(input, from: pos)
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONToken.Kind) throws(WireError) {
        let n = word.utf8CodeUnitCount
        let w = word.utf8Start
        for i in 0..<n {
            guard pos + i < input.count, input[pos + i] == w[i] else {
                throw .syntax("invalid literal; expected '\(word)'", at: pos + i)
            }
        }
        pos += n
        tokens.append(JSONToken(kind: kind, aux: 0, payload: 0))
    }

    private mutating func parseNumber() throws(WireError) {
        guard let (value, end) = JSONNumber.parse(input, from: pos) else {
            throw .syntax("invalid number", at: JSONNumber.errorOffset(input, from: pos))
        }
        pos = end
        tokens.append(JSONToken(kind: .number, aux: 0, payload: value.bitPattern))
    }

    /// Parses a string at `pos` (on its opening quote): records its place in the input's copy,
    /// or, when it has escapes, unescapes it into the string storage.
    private mutating func parseString() throws(WireError) {
        let start = pos
        pos += 1
        // Where the unescaped text starts in the storage; -1 until the first escape.
        var offset = -1
        var runStart = pos
        while true {
            // Fast scan over plain ASCII: eight bytes at a time, then byte by byte.
            pos = Self.skipPlainASCII(input, from: pos)
            while pos < input.count {
                if !Self.isPlainASCII(input[pos]) { break }
                pos += 1
            }
            guard pos < input.count else { throw .syntax("unterminated string", at: start) }
            let b = input[pos]
            if b == UInt8(ascii: "\"") {
                if offset < 0 {
                    // No escapes: the text as it stands in the input's copy.
                    let length = pos - runStart
                    pos += 1
                    if length > limits.maxStringBytes { throw stringTooLong(start) }
                    tokens.append(JSONToken(kind: .string, aux: UInt32(length), payload: UInt64(runStart)))
                    return
                }
                flush(from: runStart)
                pos += 1
                break
            }
            if b < 0x20 { throw .syntax("control character \(describe(b)) in a string; it must be escaped", at: pos) }
            if b >= 0x80 {
                let length = UTF8Validation.sequenceLength(input, at: pos)
                guard length > 0 else {
                    throw WireError(.malformed, code: "invalid-utf8", message: "the document is not valid UTF-8", offset: pos)
                }
                pos += length
                continue
            }
            // An escape: from here on, the string is built in the storage.
            if offset < 0 { offset = strings.count }
            flush(from: runStart)
            try parseEscape()
            runStart = pos
            if strings.count - offset > limits.maxStringBytes { throw stringTooLong(start) }
        }
        let length = strings.count - offset
        if length > limits.maxStringBytes { throw stringTooLong(start) }
        tokens.append(JSONToken(kind: .string, aux: UInt32(length), payload: UInt64(sideOffset + offset)))
    }

    /// The first index at or after `start` that holds a quote, a backslash, a control
    /// character or a non-ASCII byte, found eight bytes at a time (SWAR: a word is tested with
    /// a few integer ops; the lowest flagged byte of a word is always a real hit, since the
    /// borrows that cause false flags only run upward). Near the end of the input, it
    /// returns where fewer than eight bytes remain.
    @inline(__always)
    static func skipPlainASCII(_ input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = input.baseAddress else { return start }
        let raw = UnsafeRawPointer(base)
        var i = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= input.count {
            // Little-endian, so the lowest bits are the first byte on every platform.
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // A byte is flagged when it is zero in `quote`/`backslash`, below 0x20, or >= 0x80.
            let special = (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                | (word &- ones &* 0x20) | word) & highs
            if special != 0 { return i + special.trailingZeroBitCount / 8 }
            i += 8
        }
        return i
    }

    /// Whether `byte` stands for itself inside a string: not a quote, a backslash, a control
    /// character or part of a multi-byte UTF-8 sequence.
    @inline(__always) static func isPlainASCII(_ byte: UInt8) -> Bool {
        byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte >= 0x20 && byte < 0x80
    }

    @inline(__always) private mutating func flush(from runStart: Int) {
        if pos > runStart {
            strings.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<pos]))
        }
    }

    private func stringTooLong(_ start: Int) -> WireError {
        .tooLarge("string-too-long", "a string is longer than \(limits.maxStringBytes) bytes", offset: start)
    }

    /// Parses one escape at `pos` (on the backslash) and appends what it stands for.
    private mutating func parseEscape() throws(WireError) {
        let at = pos
        do {
            pos = try JSONEscape.decode(input, at: at, appendingTo: &strings)
        } catch {
            switch error {
            case .unterminated: throw .syntax("unterminated string", at: at)
            case .truncatedUnicode(let escape): throw .syntax("truncated \\u escape", at: escape)
            case .invalidHexDigit(let digit): throw .syntax("invalid hex digit in a \\u escape", at: digit)
            case .unpairedSurrogate: throw .syntax("unpaired surrogate in a \\u escape", at: at)
            case .invalid(let c): throw .syntax("invalid escape '\\\(describe(c))' in a string", at: at)
            }
        }
    }

    // MARK: Keys

    /// Refuses an object that names a member twice (422, pointer of the second one). Small
    /// objects compare pairwise; large ones go through a hash table.
    // `mutating` only so `close()` passes `self` by address: as a plain method it was handed a
    // copy of the whole parser per object (~4 % of a request in memcpy).
    private mutating func checkDuplicateKeys(_ frame: Frame) throws(WireError) {
        @inline(__always) func following(_ key: Int) -> Int {
            let value = tokens[key + 1]
            return (value.kind == .array || value.kind == .object) ? Int(value.payload) : key + 2
        }
        if frame.count <= 16 {
            // Pairwise, walking the tape: no allocation for the common small object.
            var a = following(Int(frame.token) + 1)
            for _ in 1..<frame.count {
                var b = Int(frame.token) + 1
                while b != a {
                    if keyBytesEqual(a, b) { throw duplicate(a) }
                    b = following(b)
                }
                a = following(a)
            }
            return
        }
        var seen: [UInt64: [Int]] = [:]
        seen.reserveCapacity(Int(frame.count))
        var key = Int(frame.token) + 1
        for _ in 0..<frame.count {
            let hash = withKeyBytes(key) { fnv1a($0) }
            if let earlier = seen[hash], earlier.contains(where: { keyBytesEqual($0, key) }) { throw duplicate(key) }
            seen[hash, default: []].append(key)
            key = following(key)
        }
    }

    private func withKeyBytes<R>(_ token: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let t = tokens[token]
        return body(stringBytes(t))
    }

    /// A string token's bytes (see `JSONDocument.bytes(at:)`).
    @inline(__always) private func stringBytes(_ t: JSONToken) -> UnsafeBufferPointer<UInt8> {
        let offset = Int(t.payload)
        if borrowsInput && offset < sideOffset {
            return UnsafeBufferPointer(rebasing: input[offset..<(offset + Int(t.aux))])
        }
        return UnsafeBufferPointer(start: strings.base + (offset - sideOffset), count: Int(t.aux))
    }

    private func keyBytesEqual(_ a: Int, _ b: Int) -> Bool {
        let ta = tokens[a], tb = tokens[b]
        guard ta.aux == tb.aux else { return false }
        let sa = stringBytes(ta), sb = stringBytes(tb)
        for i in 0..<sa.count where sa[i] != sb[i] { return false }
        return true
    }

    private func keyString(_ token: Int) -> String {
        withKeyBytes(token) { String(decoding: $0, as: UTF8.self) }
    }

    private func duplicate(_ key: Int) -> WireError {
        let name = keyString(key)
        let pointer = containerPointer(upTo: stack.count - 1) + "/" + JSONPointer.escape(name)
        return .invalid("duplicate-key", "the member \"\(name)\" appears more than once in one object", pointer: pointer)
    }

    /// The pointer of the open container at stack position `depth` (0 is the outermost).
    private func containerPointer(upTo depth: Int) -> String {
        var parts: [String] = []
        for frame in UnsafeBufferPointer(rebasing: stack.buffer[..<depth]) {
            parts.append(frame.isObject ? (frame.key >= 0 ? keyString(Int(frame.key)) : "") : String(frame.count))
        }
        return JSONPointer.make(parts)
    }

    /// The pointer of the value being parsed.
    private func currentPointer() -> String { containerPointer(upTo: stack.count) }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count < 2 ? "0" + hex : hex)"
    }
}

/// UTF-8 well-formedness (Unicode table 3-7): no overlong forms, no surrogates, nothing above
/// U+10FFFF.
enum UTF8Validation {
    /// The length of the valid multi-byte sequence starting at `i`, or 0 when invalid.
    @inline(__always)
    static func sequenceLength(_ s: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let b0 = s[i]
        @inline(__always) func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
            i + k < s.count && s[i + k] >= lo && s[i + k] <= hi
        }
        switch b0 {
        case 0xC2...0xDF: return cont(1) ? 2 : 0
        case 0xE0: return cont(1, 0xA0) && cont(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return cont(1) && cont(2) ? 3 : 0
        case 0xED: return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0
        case 0xF0: return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0
        case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : 0
        case 0xF4: return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0
        default: return 0
        }
    }
}
