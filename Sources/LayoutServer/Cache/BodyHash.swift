/// A fast 64-bit hash of a byte buffer for `AnswerCache` keys: a word-at-a-time multiply-mix
/// (in the spirit of wyhash/rapidhash), several times faster than SipHash on kilobyte bodies.
///
/// Not a MAC: it only has to spread bodies over the cache, because a hit is always confirmed
/// byte for byte. The seed and the mixing constants are drawn at random once per process, so a
/// client cannot precompute bodies that collide (which could only thrash the cache anyway).
struct BodyHash {
    private let seed: UInt64
    private let secret0: UInt64
    private let secret1: UInt64
    private let secret2: UInt64

    /// The process-wide hasher, seeded from the system's random source.
    static let process: BodyHash = {
        var random = SystemRandomNumberGenerator()
        return BodyHash(seed: random.next(), secrets: (random.next(), random.next(), random.next()))
    }()

    /// A hasher with a given seed and secrets (tests); secrets are forced odd and non-zero.
    init(seed: UInt64, secrets: (UInt64, UInt64, UInt64)) {
        self.seed = seed
        secret0 = secrets.0 | 1
        secret1 = secrets.1 | 1
        secret2 = secrets.2 | 1
    }

    /// Multiplies to 128 bits and folds the halves: the mixing step.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    @inline(__always)
    private static func read64(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func read32(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// The hash of `bytes`.
    func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let length = bytes.count
        var state = seed ^ Self.mix(seed ^ secret0, secret1) ^ UInt64(length)
        var a: UInt64 = 0
        var b: UInt64 = 0
        if let base = bytes.baseAddress, length > 0 {
            if length <= 16 {
                if length >= 4 {
                    // Two overlapping 4-byte reads from each end cover every byte of 4...16.
                    let step = (length >> 3) << 2
                    a = (Self.read32(base, 0) << 32) | Self.read32(base, step)
                    b = (Self.read32(base, length - 4) << 32) | Self.read32(base, length - 4 - step)
                } else {
                    a = (UInt64(bytes[0]) << 56) | (UInt64(bytes[length >> 1]) << 32) | UInt64(bytes[length - 1])
                }
            } else {
                var offset = 0
                var remaining = length
                if remaining > 48 {
                    // Three independent lanes keep the multiplier busy.
                    var lane1 = state
                    var lane2 = state
                    repeat {
                        state = Self.mix(Self.read64(base, offset) ^ secret0, Self.read64(base, offset + 8) ^ state)
                        lane1 = Self.mix(Self.read64(base, offset + 16) ^ secret1, Self.read64(base, offset + 24) ^ lane1)
                        lane2 = Self.mix(Self.read64(base, offset + 32) ^ secret2, Self.read64(base, offset + 40) ^ lane2)
                        offset += 48
                        remaining -= 48
                    } while remaining > 48
                    state ^= lane1 ^ lane2
                }
                while remaining > 16 {
                    state = Self.mix(Self.read64(base, offset) ^ secret1, Self.read64(base, offset + 8) ^ state)
                    offset += 16
                    remaining -= 16
                }
                // The last 16 bytes, overlapping what came before when the tail is shorter.
                a = Self.read64(base, length - 16)
                b = Self.read64(base, length - 8)
            }
        }
        a ^= secret1
        b ^= state
        let product = a.multipliedFullWidth(by: b)
        return Self.mix(product.low ^ secret0 ^ UInt64(length), product.high ^ secret1)
    }
}
