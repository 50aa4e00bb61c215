import SyncSupport

/// Shaped words by (face, direction, features, text), as browsers cache word shapes: a feed
/// that repeats words shapes each once per process. Advances are kept in font units, so one
/// entry serves every font size. Bounded: when the newer of two generations fills half the
/// capacity, the older one is dropped (a word used since moves to the newer one).
final class ShapeCache: Sendable {
    struct Key: Hashable, Sendable {
        /// A digest of the other fields, compared first and all that is hashed: `Hasher`
        /// takes a word's units one call each, this one loop.
        let digest: UInt64
        let face: Int32
        let rightToLeft: Bool
        /// Optional ligatures off (letter-spaced text).
        let noLigatures: Bool
        let count: Int32
        /// A word of at most 16 units, packed (four to a word), so that looking it up
        /// allocates nothing; a longer one is in `long`.
        let packed: (UInt64, UInt64, UInt64, UInt64)
        let long: [UInt16]

        init(face: Int, rightToLeft: Bool, noLigatures: Bool, text: UnsafeBufferPointer<UInt16>) {
            var h = UInt64(truncatingIfNeeded: face) &* 0x9E37_79B9_7F4A_7C15 ^ (rightToLeft ? 1 : 0) ^ (noLigatures ? 2 : 0)
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            let short = text.count <= 16
            for (k, unit) in text.enumerated() {
                h = (h ^ UInt64(unit)) &* 0x100_0000_01B3
                guard short else { continue }
                let bits = UInt64(unit) << UInt64(16 * (k & 3))
                switch k >> 2 {
                case 0: words.0 |= bits
                case 1: words.1 |= bits
                case 2: words.2 |= bits
                default: words.3 |= bits
                }
            }
            digest = h
            self.face = Int32(truncatingIfNeeded: face)
            self.rightToLeft = rightToLeft
            self.noLigatures = noLigatures
            count = Int32(text.count)
            packed = words
            long = short ? [] : Array(text)
        }

        static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.face == b.face && a.rightToLeft == b.rightToLeft && a.noLigatures == b.noLigatures
                && a.count == b.count && a.packed == b.packed && a.long == b.long
        }

        func hash(into hasher: inout Hasher) { hasher.combine(digest) }

        /// What `Dictionary` buckets by, from the digest alone (as `hash(into:)`), mixed with
        /// the table's seed by a multiply-xorshift instead of a `Hasher`: seeding and
        /// finalizing SipHash for each word was a good part of a lookup.
        func _rawHashValue(seed: Int) -> Int {
            var x = digest ^ UInt64(UInt(bitPattern: seed)) &* 0x9E37_79B9_7F4A_7C15
            x ^= x >> 32
            x &*= 0xD6E8_FEB8_6659_FD93
            x ^= x >> 32
            return Int(truncatingIfNeeded: x)
        }
    }

    private struct State {
        var current: [Key: [Float]] = [:]
        var previous: [Key: [Float]] = [:]
        var hits = 0
        var misses = 0
    }

    /// Longest word cached, in UTF-16 units: an entry holds at most ~64 × 6 bytes of text and
    /// advances plus ~100 bytes of keys and table, so 50,000 entries stay under ~25 MB.
    static let longestWord = 64

    private let state = Locked(State())
    private let capacity: Int

    init(capacity: Int) { self.capacity = max(2, capacity) }

    /// Calls `body` with the advances cached for `key` (under the lock, so it must be short)
    /// and returns true, or returns false on a miss.
    func lookup(_ key: Key, _ body: (UnsafeBufferPointer<Float>) -> Void) -> Bool {
        state.withLock { lookup(key, in: &$0, body) }
    }

    /// A lookup as `lookup(_:_:)` does it, for `lookingUp`.
    typealias Lookup = (Key, (UnsafeBufferPointer<Float>) -> Void) -> Bool

    /// Calls `body` under the lock with a lookup that does what `lookup(_:_:)` does: the words
    /// of a paragraph take the lock once, not once each. `body` must be short and must return
    /// (releasing the lock) before it shapes a word the cache misses.
    func lookingUp(_ body: (Lookup) -> Void) {
        state.withLock { s in body { key, found in lookup(key, in: &s, found) } }
    }

    private func lookup(_ key: Key, in s: inout State, _ body: (UnsafeBufferPointer<Float>) -> Void) -> Bool {
        if let found = s.current[key] { s.hits += 1; found.withUnsafeBufferPointer(body); return true }
        if let found = s.previous[key] {
            s.hits += 1
            insert(key, found, into: &s)
            found.withUnsafeBufferPointer(body)
            return true
        }
        s.misses += 1
        return false
    }

    func insert(_ key: Key, _ advances: [Float]) {
        state.withLock { insert(key, advances, into: &$0) }
    }

    private func insert(_ key: Key, _ advances: [Float], into s: inout State) {
        if s.current.count >= capacity / 2 {
            s.previous = s.current
            s.current = [:]
        }
        s.current[key] = advances
    }

    /// Lookups answered from the cache, and those that had to shape.
    var statistics: (hits: Int, misses: Int) {
        state.withLock { ($0.hits, $0.misses) }
    }
}
