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

    /// Whole words at once where the stream is at a word's start (most of a text).
    mutating func add(bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        while i < bytes.count && self.bytes & 7 != 0 {
            add(byte: bytes[i])
            i += 1
        }
        let raw = UnsafeRawBufferPointer(bytes)
        while bytes.count - i >= 8 {
            hasher.combine(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            self.bytes += 8
            i += 8
        }
        while i < bytes.count {
            add(byte: bytes[i])
            i += 1
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
