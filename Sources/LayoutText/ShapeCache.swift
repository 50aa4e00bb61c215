import Foundation

/// Shaped words by (face, direction, text), as browsers cache word shapes: a feed that
/// repeats words shapes each once per process. Advances are kept in font units, so one entry
/// serves every font size. Bounded: when full, the older half-generation is dropped.
final class ShapeCache: @unchecked Sendable {
    // @unchecked: every access to the mutable state below holds `lock`.
    struct Key: Hashable {
        var face: Int
        var rightToLeft: Bool
        var text: [UInt16]
    }

    private let lock = NSLock()
    private var current: [Key: [Float]] = [:]
    private var previous: [Key: [Float]] = [:]
    private let capacity: Int
    private var hits = 0
    private var misses = 0

    init(capacity: Int) { self.capacity = max(2, capacity) }

    func lookup(_ key: Key) -> [Float]? {
        lock.lock(); defer { lock.unlock() }
        if let found = current[key] { hits += 1; return found }
        if let found = previous[key] {
            hits += 1
            insertLocked(key, found)
            return found
        }
        misses += 1
        return nil
    }

    func insert(_ key: Key, _ advances: [Float]) {
        lock.lock(); defer { lock.unlock() }
        insertLocked(key, advances)
    }

    private func insertLocked(_ key: Key, _ advances: [Float]) {
        if current.count >= capacity / 2 {
            previous = current
            current = [:]
        }
        current[key] = advances
    }

    /// Lookups answered from the cache, and those that had to shape.
    var statistics: (hits: Int, misses: Int) {
        lock.lock(); defer { lock.unlock() }
        return (hits, misses)
    }
}
