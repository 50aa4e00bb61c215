import LayoutEngine
import LayoutTextModel

/// A text leaf's content (`TextContent.stream(into:)`) through the keyed structural hash, for
/// the leaf's `.custom` tag: the unkeyed `stableDigest` could be collided by a client with
/// crafted text, and the tag is all the cache key sees of the text.
struct KeyedTextDigest: TextDigestSink {
    private var hasher: StructuralHasher
    private var word: UInt64 = 0
    private var bytes: UInt64 = 0

    init(key: StructuralHashKey, seed: UInt64) {
        hasher = StructuralHasher(key: key)
        hasher.combine(seed)
    }

    mutating func add(byte: UInt8) {
        word |= UInt64(byte) << (8 * (bytes & 7))
        bytes += 1
        if bytes & 7 == 0 {
            hasher.combine(word)
            word = 0
        }
    }

    consuming func finish() -> UInt64 {
        if bytes & 7 != 0 { hasher.combine(word) }
        hasher.combine(bytes)
        let hash = hasher.finalize()
        return hash.high ^ hash.low
    }

    static func digest(_ content: TextContent, key: StructuralHashKey, seed: UInt64) -> UInt64 {
        var digest = KeyedTextDigest(key: key, seed: seed)
        content.stream(into: &digest)
        return digest.finish()
    }
}
