/// Counters and gauges of a byte-bounded cache (`FrameCache.Statistics`,
/// `AnswerCache.Statistics`); for a sharded cache, the sum over its shards.
public struct CacheStatistics: Sendable, Equatable {
    public var hits = 0
    public var misses = 0
    public var insertions = 0
    public var evictions = 0
    /// Entries too large for a shard's share of the budget, never stored.
    public var rejected = 0
    public var entries = 0
    public var bytes = 0

    public init() {}

    /// Adds `other`'s counters and gauges to these.
    mutating func add(_ other: CacheStatistics) {
        hits += other.hits
        misses += other.misses
        insertions += other.insertions
        evictions += other.evictions
        rejected += other.rejected
        entries += other.entries
        bytes += other.bytes
    }
}
