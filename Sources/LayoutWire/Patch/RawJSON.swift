import LayoutEngine

/// A JSON value not parsed yet: its bytes in a document already known to be JSON (a request
/// body the service decoded), read one level at a time when a patch or a reader reaches into
/// it (`JSONTree.raw`, `JSONTree.expanded`). A patch of one leaf of a 1,000-node request then
/// parses the containers on its path, not the whole document: parsing it whole into a
/// `JSONTree` cost more than decoding and laying the request out.
public struct RawJSON: Sendable {
    /// The document the value is in (shared, never copied).
    let document: [UInt8]
    /// Where the value's bytes start (no whitespace) and end in `document`.
    let start: Int
    let end: Int
    /// Where each container of the document ends, found in one pass when it was first read:
    /// reading a level then finds where each container in it ends without scanning it.
    let spans: ContainerSpans?

    /// The whole of `document`, which must be one JSON value (surrounding whitespace allowed);
    /// nil when it is empty or only whitespace.
    public init?(document: [UInt8]) {
        var end = document.count
        let start = document.withUnsafeBufferPointer { skippingWhitespace($0, from: 0) }
        while end > start, Self.isWhitespace(document[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        let spans = document.withUnsafeBufferPointer { ContainerSpans($0, from: start, to: end) }
        self.init(document: document, start: start, end: end, spans: spans)
    }

    init(document: [UInt8], start: Int, end: Int, spans: ContainerSpans?) {
        self.document = document
        self.start = start
        self.end = end
        self.spans = spans
    }

    /// Bytes the value keeps on the heap beyond its document: its table of spans.
    var spansHeapBytes: Int { spans?.heapBytes ?? 0 }

    /// Whether `other` is the same bytes of the same document (so the same value).
    func isSameSpan(as other: RawJSON) -> Bool {
        start == other.start && end == other.end && document.withUnsafeBufferPointer { a in
            other.document.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
    }

    /// Whether the value is an array with elements; nil when it is no array.
    var arrayHasElements: Bool? {
        document.withUnsafeBufferPointer { bytes in
            bytes[start] == UInt8(ascii: "[") ? !Self.closesNext(bytes, after: start, end: end) : nil
        }
    }

    /// The value with its own level parsed: an object's keys and an array's elements, each
    /// scalar member or element parsed and each container left raw; a scalar parsed. Nil when
    /// the bytes are not JSON, which a document known to be JSON never is.
    func expanded() -> JSONTree? {
        document.withUnsafeBufferPointer { bytes -> JSONTree? in
            var reader = Reader(bytes: bytes, pos: start, end: end, spans: spans)
            switch bytes[start] {
            case UInt8(ascii: "{"):
                var members: [JSONMember] = []
                reader.pos += 1
                if reader.expect(UInt8(ascii: "}")) { return .object([]) }
                repeat {
                    guard let key = reader.string(), reader.expect(UInt8(ascii: ":")),
                          let value = reader.value(in: document) else { return nil }
                    members.append(JSONMember(key: key, value: value))
                } while reader.expect(UInt8(ascii: ","))
                guard reader.expect(UInt8(ascii: "}")) else { return nil }
                return .object(members)
            case UInt8(ascii: "["):
                var elements: [JSONTree] = []
                reader.pos += 1
                if reader.expect(UInt8(ascii: "]")) { return .array([]) }
                repeat {
                    guard let value = reader.value(in: document) else { return nil }
                    elements.append(value)
                } while reader.expect(UInt8(ascii: ","))
                guard reader.expect(UInt8(ascii: "]")) else { return nil }
                return .array(elements)
            default:
                return reader.value(in: document)
            }
        }
    }

    /// The values in this one (itself included) and the depth of its deepest value (1 for a
    /// scalar), counted over its bytes without parsing them; nil when the count passes `budget`.
    func measure(budget: Int) -> (count: Int, depth: Int)? {
        document.withUnsafeBufferPointer { bytes -> (count: Int, depth: Int)? in
            // A value starts at the first byte, after `[`, after `:` and after a comma in an
            // array: `arrays` holds, per open container, whether it is an array.
            var arrays: [Bool] = []
            var count = 1, depth = 1
            guard count <= budget else { return nil }
            var i = start
            while i < end {
                let b = bytes[i]
                var startsValue = false
                switch b {
                case UInt8(ascii: "\""):
                    i = Self.stringEnd(bytes, from: i) - 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    arrays.append(b == UInt8(ascii: "["))
                    startsValue = b == UInt8(ascii: "[") && !Self.closesNext(bytes, after: i, end: end)
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if !arrays.isEmpty { arrays.removeLast() }
                case UInt8(ascii: ":"):
                    startsValue = true
                case UInt8(ascii: ","):
                    startsValue = arrays.last == true
                default:
                    break
                }
                if startsValue {
                    // A value inside every open container: one level below them.
                    count += 1
                    depth = max(depth, arrays.count + 1)
                    if count > budget { return nil }
                }
                i += 1
            }
            return (count, depth)
        }
    }

    private static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    /// Where the string whose opening quote is at `quote` ends (after its closing quote), or
    /// the end of `bytes` when it does not close.
    static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from quote: Int) -> Int {
        var i = quote + 1
        while i < bytes.count {
            i = JSONParser.skipPlainASCII(bytes, from: i)
            guard i < bytes.count else { break }
            switch bytes[i] {
            case UInt8(ascii: "\""): return i + 1
            case UInt8(ascii: "\\"): i += 2
            default: i += 1
            }
        }
        return bytes.count
    }

    /// Whether the next byte after `i` that is not whitespace closes the container opened there.
    private static func closesNext(_ bytes: UnsafeBufferPointer<UInt8>, after i: Int, end: Int) -> Bool {
        let k = skippingWhitespace(bytes, from: i + 1)
        return k < end && (bytes[k] == UInt8(ascii: "]") || bytes[k] == UInt8(ascii: "}"))
    }

    /// Reads the members or elements of one container, each value parsed when a scalar and
    /// spanned (its end found) when a container.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var pos: Int
        let end: Int
        let spans: ContainerSpans?

        // Whitespace stops at the container's closing bracket: it never passes `end`.
        mutating func skipWhitespace() { pos = skippingWhitespace(bytes, from: pos) }

        /// Consumes `byte` after whitespace when it is next.
        mutating func expect(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard pos < end, bytes[pos] == byte else { return false }
            pos += 1
            return true
        }

        /// The value at `pos`: a scalar parsed, a container as a raw span of `document`.
        mutating func value(in document: [UInt8]) -> JSONTree? {
            skipWhitespace()
            guard pos < end else { return nil }
            switch bytes[pos] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let start = pos
                guard let stop = spans?.end(ofContainerAt: pos) ?? containerEnd(from: pos), stop <= end else { return nil }
                pos = stop
                return .raw(RawJSON(document: document, start: start, end: stop, spans: spans))
            case UInt8(ascii: "\""):
                return string().map { .string($0) }
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default:
                guard let (number, stop) = JSONNumber.parse(UnsafeBufferPointer(rebasing: bytes[..<end]), from: pos) else {
                    return nil
                }
                pos = stop
                return .number(number)
            }
        }

        /// The string at `pos` (after whitespace), unescaped.
        mutating func string() -> String? {
            skipWhitespace()
            guard pos < end, bytes[pos] == UInt8(ascii: "\"") else { return nil }
            let stop = RawJSON.stringEnd(bytes, from: pos)
            guard stop <= end, stop - pos >= 2 else { return nil }
            let body = UnsafeBufferPointer(rebasing: bytes[(pos + 1)..<(stop - 1)])
            pos = stop
            guard body.contains(UInt8(ascii: "\\")) else { return String(decoding: body, as: UTF8.self) }
            var out = GrowableBuffer<UInt8>(capacity: body.count)
            defer { out.free() }
            var i = 0
            while i < body.count {
                if body[i] == UInt8(ascii: "\\") {
                    guard let next = try? JSONEscape.decode(body, at: i, appendingTo: &out) else { return nil }
                    i = next
                } else {
                    out.append(body[i])
                    i += 1
                }
            }
            return String(decoding: UnsafeBufferPointer(out.buffer), as: UTF8.self)
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard pos + n <= end, spells(UnsafeBufferPointer(rebasing: bytes[pos..<(pos + n)]), word) else { return false }
            pos += n
            return true
        }

        /// Where the container opened at `open` ends (after its closing bracket), scanned for
        /// a document without spans.
        func containerEnd(from open: Int) -> Int? {
            var depth = 0
            var i = open
            while true {
                i = RawJSON.nextStructural(bytes, from: i, end: end)
                guard i < end else { return nil }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    i = RawJSON.stringEnd(bytes, from: i)
                    continue
                }
                if b | 0x20 == UInt8(ascii: "{") { depth += 1 } else { depth -= 1 }
                i += 1
                if depth == 0 { return i }
            }
        }
    }

    /// The first position at or after `start` (before `end`) holding a quote or a bracket, found
    /// eight bytes at a time (as `JSONParser.skipPlainASCII`: the lowest flagged byte of each
    /// test is a real match, so the lowest of all three is); `end` when there is none.
    @inline(__always)
    static func nextStructural(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int {
        guard let base = bytes.baseAddress else { return end }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        var i = start
        while i + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            // `[` and `{` (0x5B, 0x7B) are 0x7B with the 0x20 bit set, `]` and `}` 0x7D.
            let folded = word | (ones &* 0x20)
            let quote = word ^ (ones &* 0x22)
            let opening = folded ^ (ones &* 0x7B)
            let closing = folded ^ (ones &* 0x7D)
            let zero = ((quote &- ones) & ~quote) | ((opening &- ones) & ~opening) | ((closing &- ones) & ~closing)
            let found = zero & (ones &* 0x80)
            if found != 0 { return i + found.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < end {
            let folded = bytes[i] | 0x20
            if bytes[i] == UInt8(ascii: "\"") || folded == UInt8(ascii: "{") || folded == UInt8(ascii: "}") { return i }
            i += 1
        }
        return end
    }
}

/// Where each container (object or array) of a JSON document ends, by where it starts: found
/// in one pass over the document, so that reading its levels one at a time (`RawJSON`) scans
/// each byte once, not once per level above it. Immutable once made.
final class ContainerSpans: Sendable {
    /// The containers' first bytes in document order, and where each ends (after its bracket).
    private let starts: [Int32]
    private let ends: [Int32]

    /// Whether lane k of a vector is byte k of its words, as `bits` reads them (every platform
    /// Swift builds this service for); elsewhere the pass goes byte by byte.
    #if _endian(little)
    private static var lanesAreLittleEndian: Bool { true }
    #else
    private static var lanesAreLittleEndian: Bool { false }
    #endif

    /// The spans of the containers in `bytes[start..<end]`, one JSON value; nil when its
    /// brackets do not balance or it is too large for 32-bit offsets.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        guard end <= Int(Int32.max), let base = bytes.baseAddress else { return nil }
        // A container per 32 bytes to begin with (requests hold one per 35–40).
        var spans = Builder(capacity: (end - start) / 32 + 16)
        defer { spans.free() }
        // Whether the byte before `i` left a string open, and an escape pending in it.
        var inString = false, escaped = false
        let raw = UnsafeRawPointer(base)
        // A lane mask as 16 bits, one per lane: each half's top bits gathered into its top byte
        // by one multiply (Swift has no portable movemask).
        @inline(__always) func bits(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt16 {
            let halves = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
            @inline(__always) func gathered(_ x: UInt64) -> UInt16 {
                UInt16(truncatingIfNeeded: ((x & 0x8080_8080_8080_8080) &* 0x0002_0408_1020_4081) >> 56)
            }
            return gathered(halves[0]) | gathered(halves[1]) << 8
        }
        var i = start
        while i < end {
            // Sixteen bytes at a time without a backslash: the quotes' running parity marks
            // which bytes are inside strings, and the brackets outside them are handled in order.
            if Self.lanesAreLittleEndian && i + 16 <= end && !escaped {
                let block = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                if bits(block .== SIMD16(repeating: UInt8(ascii: "\\"))) == 0 {
                    let quotes = bits(block .== SIMD16(repeating: UInt8(ascii: "\"")))
                    let folded = block | SIMD16(repeating: 0x20)
                    var brackets = bits((folded .== SIMD16(repeating: UInt8(ascii: "{")))
                                        .| (folded .== SIMD16(repeating: UInt8(ascii: "}"))))
                    // Bit k of `inside`: an odd number of quotes at or before byte k, after `inString`.
                    var inside = quotes
                    inside ^= inside << 1
                    inside ^= inside << 2
                    inside ^= inside << 4
                    inside ^= inside << 8
                    if inString { inside = ~inside }
                    brackets &= ~inside
                    while brackets != 0 {
                        let k = brackets.trailingZeroBitCount
                        guard spans.bracket(bytes[i + k], at: i + k) else { return nil }
                        brackets &= brackets - 1
                    }
                    inString = inside & 0x8000 != 0
                    i += 16
                    continue
                }
            }
            // Byte by byte where there are backslashes, and at the end.
            let stop = min(i + 16, end)
            while i < stop {
                let b = bytes[i]
                if inString {
                    if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true }
                    else if b == UInt8(ascii: "\"") { inString = false }
                } else if b == UInt8(ascii: "\"") {
                    inString = true
                } else if b | 0x20 == UInt8(ascii: "{") || b | 0x20 == UInt8(ascii: "}") {
                    guard spans.bracket(b, at: i) else { return nil }
                }
                i += 1
            }
        }
        guard spans.depth == 0, !inString else { return nil }
        starts = Array(UnsafeBufferPointer(start: spans.starts, count: spans.count))
        ends = Array(UnsafeBufferPointer(start: spans.ends, count: spans.count))
    }

    /// The spans found so far, and the containers still open (innermost last), in buffers
    /// that double when full: written without the uniqueness and capacity checks of appends.
    private struct Builder {
        var starts: UnsafeMutablePointer<Int32>
        var ends: UnsafeMutablePointer<Int32>
        var open: UnsafeMutablePointer<Int32>
        var capacity: Int
        var count = 0
        var depth = 0

        init(capacity: Int) {
            self.capacity = capacity
            starts = .allocate(capacity: capacity)
            ends = .allocate(capacity: capacity)
            open = .allocate(capacity: capacity)
        }

        func free() {
            starts.deallocate()
            ends.deallocate()
            open.deallocate()
        }

        @inline(never) mutating func grow() {
            func doubled(_ old: UnsafeMutablePointer<Int32>, _ count: Int, _ capacity: Int) -> UnsafeMutablePointer<Int32> {
                let new = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * capacity)
                new.initialize(from: old, count: count)
                old.deallocate()
                return new
            }
            starts = doubled(starts, count, capacity)
            ends = doubled(ends, count, capacity)
            open = doubled(open, depth, capacity)
            capacity *= 2
        }

        /// Notes the bracket `b` at `i`; false for a closing one with nothing open.
        @inline(__always) mutating func bracket(_ b: UInt8, at i: Int) -> Bool {
            if b | 0x20 == UInt8(ascii: "{") {
                if count == capacity { grow() }
                starts[count] = Int32(i)
                ends[count] = -1
                open[depth] = Int32(count)
                depth += 1
                count += 1
            } else {
                guard depth > 0 else { return false }
                depth -= 1
                ends[Int(open[depth])] = Int32(i + 1)
            }
            return true
        }
    }

    /// Where the container that starts at `start` ends; nil when none starts there.
    func end(ofContainerAt start: Int) -> Int? {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if Int(starts[middle]) < start { low = middle + 1 } else { high = middle }
        }
        guard low < starts.count, Int(starts[low]) == start else { return nil }
        return Int(ends[low])
    }

    /// Bytes the table holds on the heap.
    var heapBytes: Int { HeapCharge.array(starts) + HeapCharge.array(ends) }
}
