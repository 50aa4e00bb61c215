/// A 128-bit digest of layout input, stable across runs, processes and machines.
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

/// Streams 64-bit words through MurmurHash3's x64 128-bit block function: a fixed, seedless
/// algorithm, unlike Swift's `Hasher`, which is seeded per process.
struct StructuralHasher {
    private var h1: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var h2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private var pending: UInt64 = 0
    /// Words streamed so far; odd means `pending` holds the first word of a block.
    private var wordCount: UInt64 = 0

    private static let c1: UInt64 = 0x87C3_7B91_1142_53D5
    private static let c2: UInt64 = 0x4CF5_AD43_2745_937F

    @inline(__always)
    mutating func combine(_ word: UInt64) {
        if wordCount & 1 != 0 {
            mixBlock(pending, word)
        } else {
            pending = word
        }
        wordCount &+= 1
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
    private mutating func mixBlock(_ a: UInt64, _ b: UInt64) {
        var k1 = a &* Self.c1
        k1 = k1.rotatedLeft(31) &* Self.c2
        h1 ^= k1
        h1 = h1.rotatedLeft(27) &+ h2
        h1 = h1 &* 5 &+ 0x52DC_E729
        var k2 = b &* Self.c2
        k2 = k2.rotatedLeft(33) &* Self.c1
        h2 ^= k2
        h2 = h2.rotatedLeft(31) &+ h1
        h2 = h2 &* 5 &+ 0x3849_5AB5
    }

    consuming func finalize() -> StructuralHash {
        if wordCount & 1 != 0 { mixBlock(pending, 0x5555_5555_5555_5555) }
        h1 ^= wordCount
        h2 ^= wordCount
        h1 &+= h2
        h2 &+= h1
        h1 = Self.fmix(h1)
        h2 = Self.fmix(h2)
        h1 &+= h2
        h2 &+= h1
        return StructuralHash(high: h1, low: h2)
    }

    private static func fmix(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k &*= 0xFF51_AFD7_ED55_8CCD
        k ^= k >> 33
        k &*= 0xC4CE_B9FE_1A85_EC53
        k ^= k >> 33
        return k
    }
}

extension UInt64 {
    @inline(__always) fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
