/// A 128-bit keyed digest of layout input: equal for equal input under the same
/// `StructuralHashKey`, on any run, process or machine. `high` is the first 64-bit word of the
/// SipHash-2-4-128 output, `low` the second.
public struct StructuralHash: Hashable, Sendable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 32 lowercase hex digits, high word first.
    public var hexString: String {
        func hex(_ word: UInt64) -> String {
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }

    public var description: String { hexString }
}

/// Streams 64-bit words through SipHash-2-4 with a 128-bit output (Aumasson and Bernstein;
/// the reference `siphash.c` with `outlen` 16), keyed by a `StructuralHashKey`. Each word is one
/// little-endian 8-byte block of the message, so a stream of n words hashes exactly like the
/// reference on those 8n bytes (the tests hold it to the reference vectors).
/// SipHash-2-4 rather than 1-3: the hash decides whose frames a cache serves, so the margin of
/// the conservative variant is worth its cost (measured on the 1,000-node tree in
/// Benchmarks/load/RESULTS.md).
/// Public so that content measured outside the engine (text leaves) is digested under the same
/// key before it becomes a node's `.custom` tag.
public struct StructuralHasher {
    private var v0: UInt64
    private var v1: UInt64
    private var v2: UInt64
    private var v3: UInt64
    /// Words streamed so far (the message length is 8 × this).
    private var wordCount: UInt64 = 0
    /// A cheap mix of the words streamed since the last `takeWordMix`: what the whole-tree
    /// hash cuts its chunks by (`LayoutTree.endsHashChunk`), a function of one node's words
    /// alone. Not part of the digest.
    private var wordMix: UInt64 = 0

    public init(key: StructuralHashKey) {
        v0 = 0x736F_6D65_7073_6575 ^ key.k0
        v1 = 0x646F_7261_6E64_6F6D ^ key.k1 ^ 0xEE // 0xEE: the 128-bit output variant
        v2 = 0x6C79_6765_6E65_7261 ^ key.k0
        v3 = 0x7465_6462_7974_6573 ^ key.k1
    }

    @inline(__always)
    public mutating func combine(_ word: UInt64) {
        v3 ^= word
        sipRound()
        sipRound()
        v0 ^= word
        wordCount &+= 1
        // Independent of the rounds above, so it runs beside them.
        wordMix = (wordMix ^ word) &* 0x9E37_79B9_7F4A_7C15
    }

    /// The mix of the words streamed since the last call (see `wordMix`), and a fresh start.
    @inline(__always)
    mutating func takeWordMix() -> UInt64 {
        defer { wordMix = 0 }
        return wordMix
    }

    @inline(__always)
    mutating func combine(_ value: Float) {
        combine(Self.word(value))
    }

    /// A number's word: -0 and 0 lay out the same; NaN never reaches here (styles are validated).
    @inline(__always)
    static func word(_ value: Float) -> UInt64 {
        UInt64(value == 0 ? 0 : value.bitPattern)
    }

    @inline(__always)
    static func word(_ value: StyleValue) -> UInt64 {
        UInt64(value.unit.rawValue) << 32 | word(value.value)
    }

    @inline(__always)
    mutating func combine(_ value: Float?) {
        if let value {
            combine(UInt64(1))
            combine(value)
        } else {
            combine(UInt64(0))
        }
    }

    @inline(__always)
    mutating func combine(_ value: StyleValue) {
        combine(Self.word(value))
    }

    mutating func combine(_ string: String) {
        var utf8 = string.utf8.makeIterator()
        var count: UInt64 = 0
        var word: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = utf8.next() {
            word |= UInt64(byte) << shift
            shift += 8
            count += 1
            if shift == 64 {
                combine(word)
                word = 0
                shift = 0
            }
        }
        if shift > 0 { combine(word) }
        combine(count)
    }

    @inline(__always)
    private mutating func sipRound() {
        v0 &+= v1; v1 = v1.rotatedLeft(13); v1 ^= v0; v0 = v0.rotatedLeft(32)
        v2 &+= v3; v3 = v3.rotatedLeft(16); v3 ^= v2
        v0 &+= v3; v3 = v3.rotatedLeft(21); v3 ^= v0
        v2 &+= v1; v1 = v1.rotatedLeft(17); v1 ^= v2; v2 = v2.rotatedLeft(32)
    }

    /// The last block holds only the length byte (the stream is whole words), then four
    /// finalisation rounds per output word.
    public consuming func finalize() -> StructuralHash {
        let last = (wordCount &* 8) << 56
        v3 ^= last
        sipRound()
        sipRound()
        v0 ^= last
        v2 ^= 0xEE
        for _ in 0..<4 { sipRound() }
        let first = v0 ^ v1 ^ v2 ^ v3
        v1 ^= 0xDD
        for _ in 0..<4 { sipRound() }
        return StructuralHash(high: first, low: v0 ^ v1 ^ v2 ^ v3)
    }
}

extension UInt64 {
    @inline(__always) fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
