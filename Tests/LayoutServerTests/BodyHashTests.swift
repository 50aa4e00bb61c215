@testable import LayoutServer
import Testing

/// The answer cache's body hash: distinct bodies get distinct keys, a body always the same key.
@Suite struct BodyHashTests {
    private static func hash(_ bytes: [UInt8], _ hasher: BodyHash = .process) -> UInt64 {
        bytes.withUnsafeBytes { hasher.hash($0) }
    }

    /// Pseudo-random but fixed bytes, so a failure is reproducible.
    private static func bytes(_ count: Int, salt: UInt64 = 0) -> [UInt8] {
        var state = 0x9E37_79B9_7F4A_7C15 &+ salt
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test func keysAreStableWithinAProcess() {
        let cache = AnswerCache(capacityBytes: 1 << 20)
        for length in [0, 1, 7, 16, 17, 48, 49, 2048] {
            let body = Self.bytes(length)
            #expect(cache.key(for: body) == cache.key(for: Array(body)))
            #expect(Self.hash(body) == Self.hash(body))
        }
    }

    @Test func everyShortLengthAndEveryBytePositionMatters() {
        // Lengths 0...17 exercise each tail branch; flipping any one byte must change the key.
        var seen = Set<UInt64>()
        for length in 0...17 {
            let body = Self.bytes(length)
            let base = Self.hash(body)
            #expect(seen.insert(base).inserted, "length \(length) collides with a shorter body")
            for position in 0..<length {
                for flip: UInt8 in [0x01, 0x80, 0xFF] {
                    var changed = body
                    changed[position] ^= flip
                    #expect(Self.hash(changed) != base, "length \(length), byte \(position) ^ \(flip)")
                }
            }
        }
        // Same bytes, zero-padded: the length is part of the hash.
        #expect(Self.hash([]) != Self.hash([0]))
        #expect(Self.hash([0]) != Self.hash([0, 0]))
        #expect(Self.hash([UInt8](repeating: 0, count: 16)) != Self.hash([UInt8](repeating: 0, count: 17)))
    }

    @Test func oneByteChangesInLongBodiesChangeTheKey() {
        for length in [18, 32, 47, 48, 49, 64, 97, 2048, 2053] {
            let body = Self.bytes(length, salt: UInt64(length))
            let base = Self.hash(body)
            for position in 0..<length {
                var changed = body
                changed[position] &+= 1
                #expect(Self.hash(changed) != base, "length \(length), byte \(position)")
            }
        }
    }

    @Test func manyDistinctBodiesGetDistinctKeys() {
        var seen = Set<UInt64>()
        for salt in 0..<5000 {
            let body = Self.bytes(64 + salt % 200, salt: UInt64(salt))
            seen.insert(Self.hash(body))
        }
        #expect(seen.count == 5000)
    }

    @Test func theSeedChangesTheKey() {
        let body = Self.bytes(100)
        let one = BodyHash(seed: 1, secrets: (3, 5, 7))
        let two = BodyHash(seed: 2, secrets: (3, 5, 7))
        #expect(Self.hash(body, one) != Self.hash(body, two))
        #expect(Self.hash(body, one) == Self.hash(body, BodyHash(seed: 1, secrets: (3, 5, 7))))
    }
}
