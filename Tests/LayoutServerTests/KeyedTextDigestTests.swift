import LayoutEngine
import LayoutTextModel
import Testing
@testable import LayoutServer

/// A text leaf reaches the cache key only as its `.custom` tag: the tag is keyed like the
/// structural hash, so crafted text cannot collide with another client's.
@Suite struct KeyedTextDigestTests {
    static let key = StructuralHashKey(hex: "000102030405060708090a0b0c0d0e0f")!

    @Test func theTagDependsOnTheKeyTheTextAndTheStyle() {
        let text = TextContent("Hello, world")
        let tag = KeyedTextDigest.digest(text, key: Self.key, seed: 7)
        #expect(KeyedTextDigest.digest(text, key: Self.key, seed: 7) == tag)
        #expect(KeyedTextDigest.digest(text, key: StructuralHashKey(k0: Self.key.k0, k1: Self.key.k1 ^ 1), seed: 7) != tag)
        #expect(KeyedTextDigest.digest(text, key: Self.key, seed: 8) != tag)
        #expect(KeyedTextDigest.digest(TextContent("Hello, world!"), key: Self.key, seed: 7) != tag)
        var style = TextStyle()
        style.fontSize += 1
        #expect(KeyedTextDigest.digest(TextContent("Hello, world", style: style), key: Self.key, seed: 7) != tag)
        // Lengths that end inside a word, or on a word boundary with zero bytes, stay apart.
        #expect(KeyedTextDigest.digest(TextContent("abcdefg"), key: Self.key, seed: 7)
                != KeyedTextDigest.digest(TextContent("abcdefg\u{0}"), key: Self.key, seed: 7))
    }

    /// Adding a text's bytes a word at a time digests what adding them one by one does,
    /// wherever in a word the text starts and however long it is.
    @Test func wholeWordsDigestAsSingleBytes() {
        for prefix in 0..<9 {
            for length in [0, 1, 7, 8, 9, 15, 16, 17, 40] {
                let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ prefix) }
                var fast = KeyedTextDigest(key: Self.key, seed: 3)
                var slow = KeyedTextDigest(key: Self.key, seed: 3)
                for k in 0..<prefix { fast.add(byte: UInt8(k)); slow.add(byte: UInt8(k)) }
                bytes.withUnsafeBufferPointer { fast.add(bytes: $0) }
                for byte in bytes { slow.add(byte: byte) }
                #expect(fast.finish() == slow.finish(), "prefix \(prefix), length \(length)")
            }
        }
    }

    /// The canonical stream is the one the unkeyed `stableDigest` reads (its value is
    /// unchanged by the refactor that made the stream shared).
    @Test func theStreamIsTheStableDigestsStream() {
        struct Bytes: TextDigestSink {
            var bytes: [UInt8] = []
            mutating func add(byte: UInt8) { bytes.append(byte) }
        }
        var sink = Bytes()
        TextContent("ab").stream(into: &sink)
        // FNV-1a over the same bytes, finished with the same mixer, gives `stableDigest`.
        var state: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in sink.bytes { state = (state ^ UInt64(byte)) &* 0x100_0000_01B3 }
        var h = state
        h ^= h >> 33; h = h &* 0xFF51_AFD7_ED55_8CCD; h ^= h >> 33; h = h &* 0xC4CE_B9FE_1A85_EC53; h ^= h >> 33
        #expect(TextContent("ab").stableDigest() == h)
        #expect(sink.bytes.count > 16)
    }
}
