/// What storage costs on the heap, as the stores that keep trees, answers and snapshots charge
/// it against their byte budgets: one definition for every module's `heapBytes`.
public enum HeapCharge {
    /// A glibc malloc allocation of `requested` bytes: 8 bytes of chunk header, rounded up to 16.
    @inlinable public static func mallocChunk(_ requested: Int) -> Int {
        (requested + 8 + 15) & ~15
    }

    /// A Swift heap object (an array's or a string's storage) with `payload` bytes after its
    /// 32-byte header (isa, reference count, count, capacity), as one malloc chunk.
    @inlinable public static func object(payload: Int) -> Int {
        mallocChunk(32 + payload)
    }

    /// A Swift array's storage: its allocated capacity (not its count) of elements. 0 for an
    /// empty array, which shares the static empty storage.
    @inlinable public static func array<Element>(_ array: [Element]) -> Int {
        array.capacity == 0 ? 0 : object(payload: array.capacity * MemoryLayout<Element>.stride)
    }
}
