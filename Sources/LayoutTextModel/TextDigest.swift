/// A 64-bit digest of a text leaf's content, stable across processes and machines (unlike
/// Swift's seeded `Hasher`): FNV-1a over a canonical stream of the text and every resolved
/// style field, finished with MurmurHash3's mixer.
extension TextContent {
    public func stableDigest(seed: UInt64 = 0) -> UInt64 {
        var d = TextDigest(seed: seed)
        stream(into: &d)
        return d.finish()
    }

    /// The canonical byte stream of the text and every resolved style field, the one
    /// `stableDigest` hashes: for a keyed hash where clients must not craft collisions (the
    /// structural cache key). Inlinable, so a sink of another module is specialized (no call
    /// through the protocol per byte).
    @inlinable
    public func stream<Sink: TextDigestSink>(into sink: inout Sink) {
        sink.add(style)
        sink.add(UInt64(spans.count))
        for span in spans {
            sink.add(span.text)
            sink.add(span.style)
        }
    }
}

/// Takes a text leaf's canonical byte stream (`TextContent.stream(into:)`).
public protocol TextDigestSink {
    mutating func add(byte: UInt8)
    /// The same as adding each byte in turn (the default), for a sink that can do better.
    mutating func add(bytes: UnsafeBufferPointer<UInt8>)
}

extension TextDigestSink {
    @inlinable
    public mutating func add(bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { add(byte: byte) }
    }
}

struct TextDigest: TextDigestSink {
    private var state: UInt64

    init(seed: UInt64) { state = 0xCBF2_9CE4_8422_2325 ^ seed }

    mutating func add(byte: UInt8) { state = (state ^ UInt64(byte)) &* 0x100_0000_01B3 }

    func finish() -> UInt64 {
        var h = state
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }
}

extension TextDigestSink {
    @inlinable
    mutating func add(_ word: UInt64) {
        // Its 8 bytes, low first, in one call (a sink that takes words does it at once).
        withUnsafeBytes(of: word.littleEndian) { add(bytes: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    @inlinable
    mutating func add(_ text: String) {
        add(UInt64(text.utf8.count))
        var text = text
        text.withUTF8 { add(bytes: $0) }
    }

    @inlinable
    mutating func add(_ value: Float) { add(UInt64(value == 0 ? 0 : value.bitPattern)) }

    @inlinable
    mutating func add(_ style: TextStyle) {
        add(UInt64(style.fontFamilies.count))
        for family in style.fontFamilies { add(family) }
        add(style.fontSize)
        add(UInt64(style.fontWeight))
        add(UInt64(style.fontStyle.rawValue))
        switch style.lineHeight {
        case .normal: add(UInt64(0))
        case .pixels(let px): add(UInt64(1)); add(px)
        case .percent(let p): add(UInt64(2)); add(p)
        }
        add(style.letterSpacing)
        add(UInt64(style.textAlign.rawValue) | UInt64(style.whiteSpace.rawValue) << 8
            | UInt64(style.overflowWrap.rawValue) << 16 | UInt64(style.textOverflow.rawValue) << 24
            | UInt64(style.rightToLeft ? 1 : 0) << 32)
        add(UInt64(style.maxLines))
    }
}
