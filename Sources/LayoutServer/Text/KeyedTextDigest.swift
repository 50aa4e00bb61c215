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

    /// Eight bytes at a time: whole words where the stream is at a word's start, else each
    /// eight split over the pending word and the next (the same words as byte by byte: the
    /// style's fields follow names of any length).
    mutating func add(bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let raw = UnsafeRawBufferPointer(bytes)
        let offset = UInt64(self.bytes & 7) * 8
        while bytes.count - i >= 8 {
            let chunk = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            if offset == 0 {
                hasher.combine(chunk)
            } else {
                hasher.combine(word | chunk << offset)
                word = chunk >> (64 - offset)
            }
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
