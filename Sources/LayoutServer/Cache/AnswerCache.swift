#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LayoutEngine

/// Complete `/compute` answers keyed by the exact request body, looked up before decoding: an
/// exact repeat skips decode, structural hash, ETag and encode. Bounded in bytes, least
/// recently used first out, split into independently locked shards like `FrameCache`.
///
/// Keys are a 64-bit `BodyHash` of the body (a fast multiply-mix, seeded at random per process,
/// so a client cannot precompute colliding bodies); and a hit always compares the stored body
/// byte for byte, so even a collision can never serve another body's answer. Only 200 answers are
/// stored.
public final class AnswerCache: Sendable {
    /// Counters and gauges across all shards.
    public typealias Statistics = CacheStatistics

    /// A stored 200 answer: its bytes and tags. A class, so a hit hands out one reference
    /// instead of retaining each of its arrays and strings; subclassed only in this module,
    /// so the HTTP edge can keep beside it what it derives from the answer once (the compute
    /// route's prebuilt response headers, `ServedAnswer`) without the cache knowing of HTTP.
    public class Entry: @unchecked Sendable {
        // @unchecked: every stored property is a `let` of a Sendable type; subclasses keep to that.
        /// The answer body (the frames JSON).
        public let body: [UInt8]
        /// The quoted ETag sent with the answer.
        public let entityTag: String

        init(body: [UInt8], entityTag: String) {
            self.body = body
            self.entityTag = entityTag
        }
    }

    /// A body's hash, computed once per request and used for both lookup and insertion.
    public struct Key: Sendable, Hashable, ShardSelectingKey {
        let hash: UInt64

        // Bits above the low ones, which the shard's dictionary leans on.
        var shardSelector: Int { Int(truncatingIfNeeded: hash >> 7) }
    }

    /// What a slot holds: the request body, compared on every hit, and its answer. A class:
    /// the LRU copies a slot's value out on lookup, which is then a single retain.
    private final class Stored: Sendable {
        let request: [UInt8]
        let entry: Entry

        init(request: [UInt8], entry: Entry) {
            self.request = request
            self.entry = entry
        }
    }

    /// Bytes an entry costs beyond its request and answer arrays' storage: the quoted ETag
    /// (a 53-byte native string, 96 with its header), what the edge keeps beside it (the compute
    /// route's two prebuilt header lists: four fields, 192; one field, 80), the `Entry` and
    /// `Stored` objects (16-byte object header plus their
    /// fields), and the LRU's slot and dictionary bucket at twice their size for the tables'
    /// spare room (`HeapFootprint`).
    public static let entryOverhead = 96 + 192 + 80
        + HeapCharge.mallocChunk(16 + 8 + 16 + 8 + 8) + HeapCharge.mallocChunk(16 + 8 + 8)
        + HeapFootprint.lruBookkeeping(key: Key.self, value: Stored.self)

    /// What an entry for `request` and `answer` bytes, both stored without spare capacity, is
    /// charged against the budget.
    public static func cost(requestBytes: Int, answerBytes: Int) -> Int {
        HeapCharge.mallocChunk(32 + requestBytes) + HeapCharge.mallocChunk(32 + answerBytes) + entryOverhead
    }

    /// What storing `request` and `answer` is charged: the arrays' real storage (capacity,
    /// not count: an encoder's answer is written into a buffer reserved ahead) and bookkeeping.
    static func cost(request: [UInt8], answer: [UInt8]) -> Int {
        HeapCharge.array(request) + HeapCharge.array(answer) + entryOverhead
    }

    /// The byte budget across all shards.
    public var capacityBytes: Int { entries.capacityBytes }
    // One slot per hash: a colliding body replaces the entry rather than sharing it.
    private let entries: ShardedCache<Key, Stored>

    /// A cache of at most `capacityBytes`, split in `shardCount` shards (rounded up to a power
    /// of two). A capacity of 0 turns it off (`isEnabled` is false).
    public init(capacityBytes: Int, shardCount: Int = 8) {
        entries = ShardedCache(capacityBytes: capacityBytes, shardCount: shardCount)
    }

    /// Whether anything can be stored at all.
    public var isEnabled: Bool { capacityBytes > 0 }

    /// The per-process-seeded hash of `body`.
    public func key(for body: [UInt8]) -> Key {
        Key(hash: body.withUnsafeBytes { BodyHash.process.hash($0) })
    }

    /// The answer stored for exactly these body bytes, marking it most recently used; counts a
    /// hit or a miss.
    public func lookup(_ body: [UInt8], key: Key) -> Entry? {
        entries.lookup(key) { Self.equal($0.request, body) ? $0.entry : nil }
    }

    /// Stores the 200 answer to `body`, evicting least recently used entries to make room.
    /// Entries larger than a shard's share are not stored.
    public func insert(_ body: [UInt8], key: Key, answer: [UInt8], entityTag: String) {
        insert(body, key: key, entry: Entry(body: answer, entityTag: entityTag))
    }

    /// Stores `entry` (of any subclass) as the answer to `body`.
    func insert(_ body: [UInt8], key: Key, entry: Entry) {
        let cost = Self.cost(request: body, answer: entry.body)
        let stored = Stored(request: body, entry: entry)
        // The same body already stored means a racing request stored the same answer first;
        // another body under the same hash (a collision) is replaced by this one.
        entries.insert(stored, for: key, cost: cost) { Self.equal($0.request, body) }
    }

    /// Drops every entry (statistics other than entries and bytes are kept).
    public func removeAll() {
        entries.removeAll()
    }

    /// A consistent-enough snapshot: each shard is read under its own lock.
    public var statistics: Statistics {
        entries.statistics
    }

    /// Byte-for-byte equality (memcmp), so a hash collision is never a hit.
    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                pa.count == 0 || memcmp(pa.baseAddress!, pb.baseAddress!, pa.count) == 0
            }
        }
    }
}
