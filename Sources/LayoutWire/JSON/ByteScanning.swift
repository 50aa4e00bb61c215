/// Byte-level helpers shared by the parser and the one-pass decoder.

extension LayoutWire {
    /// The `{` bytes in `bytes`: an upper bound of a document's objects, read before it is
    /// parsed (the compute queue's memory estimate, the one-pass decoder's reservation).
    /// Sixteen bytes per step, counted in byte lanes: a byte-wise loop was not vectorised and
    /// cost ~2.5 % of an uncached 1,000-node request (~1 cycle per byte), eight bytes per step
    /// (bit tricks in a word) still ~1 % of the server's time.
    public static func openBraceCount(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let brace = SIMD16<UInt8>(repeating: UInt8(ascii: "{"))
        let vectors = bytes.count / 16
        var count = 0
        var v = 0
        while v < vectors {
            // Each lane counts its matches; a lane holds at most 255, so sum every 255 steps.
            let stop = min(vectors, v &+ 255)
            var lanes = SIMD16<UInt8>()
            while v < stop {
                let block = raw.loadUnaligned(fromByteOffset: v &* 16, as: SIMD16<UInt8>.self)
                // A matching lane's mask is all ones (-1): subtracting it adds one.
                lanes &-= unsafeBitCast(block .== brace, to: SIMD16<UInt8>.self)
                v &+= 1
            }
            count &+= Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
        }
        for i in (vectors &* 16)..<bytes.count where base[i] == UInt8(ascii: "{") { count &+= 1 }
        return count
    }
}

/// The first position at or after `pos` that is not JSON whitespace (or the end).
@inline(__always) func skippingWhitespace(_ input: UnsafeBufferPointer<UInt8>, from pos: Int) -> Int {
    var pos = pos
    // Most requests are compact: one test answers (every whitespace byte is <= 0x20).
    guard pos < input.count, input[pos] <= 0x20 else { return pos }
    while pos < input.count {
        switch input[pos] {
        case 0x20, 0x0A, 0x0D, 0x09: pos += 1
        default: return pos
        }
    }
    return pos
}

/// Whether `bytes` spell `literal` exactly.
@inline(__always) func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
    guard bytes.count == literal.utf8CodeUnitCount else { return false }
    let l = literal.utf8Start
    for i in 0..<bytes.count where bytes[i] != l[i] { return false }
    return true
}
