/// Byte-level helpers shared by the parser and the one-pass decoder.

extension LayoutWire {
    /// The `{` bytes in `bytes`: an upper bound of a document's objects, read before it is
    /// parsed (the compute queue's memory estimate, the one-pass decoder's reservation).
    /// Eight bytes per step: a byte-wise loop was not vectorised and cost ~2.5 % of an
    /// uncached 1,000-node request (~1 cycle per byte).
    public static func openBraceCount(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let words = bytes.count / 8
        let raw = UnsafeRawPointer(base)
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var count = 0
        for w in 0..<words {
            // Bytes equal to `{` become zero; a zero byte is the one whose high bit stays
            // clear after adding 0x7F to its low bits and or-ing in the byte itself (exact:
            // no carry crosses bytes).
            let x = raw.loadUnaligned(fromByteOffset: w &* 8, as: UInt64.self) ^ 0x7B7B_7B7B_7B7B_7B7B
            let zeros = ~(((x & low7) &+ low7) | x | low7)
            count &+= zeros.nonzeroBitCount
        }
        for i in (words * 8)..<bytes.count where base[i] == UInt8(ascii: "{") { count &+= 1 }
        return count
    }
}

/// Whether `bytes` spell `literal` exactly.
@inline(__always) func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
    guard bytes.count == literal.utf8CodeUnitCount else { return false }
    let l = literal.utf8Start
    for i in 0..<bytes.count where bytes[i] != l[i] { return false }
    return true
}
