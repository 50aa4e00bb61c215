/// The 128-bit secret of the structural hash. A cache keyed by `StructuralHash` trusts that
/// different inputs never share a hash; keyed, the hash is a pseudo-random function of the
/// input to anyone without the key, so a client cannot craft a tree that collides with
/// another client's to be served its frames.
public struct StructuralHashKey: Hashable, Sendable {
    /// The key's first 8 bytes, read little-endian (SipHash's `k0`).
    public var k0: UInt64
    /// The key's last 8 bytes, read little-endian (SipHash's `k1`).
    public var k1: UInt64

    public init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
    }

    /// 32 hex digits: the key's 16 bytes in order (SipHash's byte order, so the reference
    /// key `000102…0f` is k0 = 0x0706050403020100). Nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 32 else { return nil }
        var words: [UInt64] = [0, 0]
        for (i, digit) in digits.enumerated() {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            let byte = i / 2 % 8
            // High nibble first within a byte; bytes little-endian within a word.
            words[i / 16] |= UInt64(nibble) << UInt64(byte * 8 + (i % 2 == 0 ? 4 : 0))
        }
        self.init(k0: words[0], k1: words[1])
    }

    /// The key as `init(hex:)` reads it.
    public var hexString: String {
        var text = ""
        for word in [k0, k1] {
            for byte in 0..<8 {
                let value = UInt8(truncatingIfNeeded: word >> UInt64(byte * 8))
                text += String(value >> 4, radix: 16) + String(value & 0xF, radix: 16)
            }
        }
        return text
    }

    /// A fresh key from the system's secure random source.
    public static func random() -> StructuralHashKey {
        var generator = SystemRandomNumberGenerator()
        return StructuralHashKey(k0: generator.next(), k1: generator.next())
    }

    /// Drawn once per process: the key when none is configured. Hashes (and what is derived
    /// from them, such as ETags) then differ between processes.
    public static let processRandom = StructuralHashKey.random()
}
