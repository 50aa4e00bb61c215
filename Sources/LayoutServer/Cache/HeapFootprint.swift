/// What values really occupy on the heap, for caches that charge entries against a byte budget:
/// an entry's cost must be the memory it holds, not its element count, or a "64 MiB" cache
/// grows well past 64 MiB of resident memory.
enum HeapFootprint {
    /// glibc malloc: 8 bytes of chunk header per allocation, sizes rounded up to 16.
    static func mallocChunk(_ requested: Int) -> Int {
        (requested + 8 + 15) & ~15
    }

    /// A Swift array's storage: its allocated capacity (not its count) plus the 32-byte heap
    /// object header (isa, refcount, count, capacity), as one malloc chunk. 0 for an empty
    /// array, which shares the static empty storage.
    static func array<Element>(_ array: [Element]) -> Int {
        array.capacity == 0 ? 0 : mallocChunk(32 + array.capacity * MemoryLayout<Element>.stride)
    }

    /// A `ByteBoundedLRU` slot and dictionary bucket for `Key` and `Value`, counted at twice
    /// their size: both tables grow by doubling, so up to half of their room is empty, and the
    /// dictionary keeps at most 3/4 of its buckets full (one Int32 slot index per bucket).
    static func lruBookkeeping<Key, Value>(key: Key.Type, value: Value.Type) -> Int {
        let slot = MemoryLayout<Key>.stride + MemoryLayout<Value?>.stride + MemoryLayout<Int>.stride + 8
        let bucket = (MemoryLayout<Key>.stride + MemoryLayout<Int32>.stride) * 4 / 3 + 1
        return 2 * (slot + bucket)
    }
}
