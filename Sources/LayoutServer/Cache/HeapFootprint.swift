/// What values really occupy on the heap, for caches that charge entries against a byte budget:
/// an entry's cost must be the memory it holds, not its element count, or a "64 MiB" cache
/// grows well past 64 MiB of resident memory.
enum HeapFootprint {
    /// A `ByteBoundedLRU` slot and dictionary bucket for `Key` and `Value`, counted at twice
    /// their size: both tables grow by doubling, so up to half of their room is empty, and the
    /// dictionary keeps at most 3/4 of its buckets full (one Int32 slot index per bucket).
    static func lruBookkeeping<Key, Value>(key: Key.Type, value: Value.Type) -> Int {
        let slot = MemoryLayout<Key>.stride + MemoryLayout<Value?>.stride + MemoryLayout<Int>.stride + 8
        let bucket = (MemoryLayout<Key>.stride + MemoryLayout<Int32>.stride) * 4 / 3 + 1
        return 2 * (slot + bucket)
    }
}
