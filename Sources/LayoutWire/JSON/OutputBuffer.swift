/// The byte storage behind `JSONWriter`: a block from `ScratchPool` written through a pointer,
/// so each write checks capacity once instead of per byte as `Array.append` does (with a
/// uniqueness check each time), and a response's working memory is reused across requests.
///
/// The hot fields live in the struct: stored properties of a class pay a dynamic exclusivity
/// check per access. The class only owns the block, to give it back when the last copy goes.
@usableFromInline
struct OutputBuffer {
    @usableFromInline final class Owner {
        @usableFromInline var base: UnsafeMutablePointer<UInt8>
        @usableFromInline var capacity: Int
        @usableFromInline init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
            self.base = base
            self.capacity = capacity
        }
        deinit { ScratchPool.release(UnsafeMutableRawPointer(base), bytes: capacity) }
    }

    @usableFromInline var owner: Owner
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// Bytes written.
    @usableFromInline var count = 0

    init(capacity: Int) {
        let (raw, bytes) = ScratchPool.take(bytes: max(capacity, 64))
        base = raw.bindMemory(to: UInt8.self, capacity: bytes)
        self.capacity = bytes
        owner = Owner(base: base, capacity: bytes)
    }

    /// Room for `extra` more bytes in a block this buffer alone holds: where they go.
    @inlinable @inline(__always) mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if count + extra > capacity || !isKnownUniquelyReferenced(&owner) { move(toHold: count + extra) }
        return base + count
    }

    /// Copies the bytes into a new block of at least `minimum` bytes (grown, or unshared
    /// after this buffer was copied).
    @usableFromInline mutating func move(toHold minimum: Int) {
        let (raw, bytes) = ScratchPool.take(bytes: max(minimum > capacity ? capacity * 2 : capacity, minimum))
        let newBase = raw.bindMemory(to: UInt8.self, capacity: bytes)
        newBase.initialize(from: base, count: count)
        base = newBase
        capacity = bytes
        owner = Owner(base: newBase, capacity: bytes)  // releases the old block if unshared
    }

    /// The written bytes as an array (one copy).
    func array() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { buffer.baseAddress!.initialize(from: base, count: count) }
            initialized = count
        }
    }
}
