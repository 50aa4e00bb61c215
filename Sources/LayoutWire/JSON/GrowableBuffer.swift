/// A manually managed array of trivial values, so the parser can hand its storage to a
/// `JSONDocument` without copying it. Memory comes from `ScratchPool`; the owner calls
/// `free()` or takes `base` and `byteCapacity` and gives them back to the pool itself.
struct GrowableBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int
    /// The size of the pool block behind `base`.
    private(set) var byteCapacity: Int

    init(capacity: Int) {
        (base, self.capacity, byteCapacity) = Self.block(for: max(capacity, 16))
    }

    private static func block(for elements: Int) -> (UnsafeMutablePointer<Element>, Int, Int) {
        let (raw, bytes) = ScratchPool.take(bytes: elements * MemoryLayout<Element>.stride)
        return (raw.bindMemory(to: Element.self, capacity: bytes / MemoryLayout<Element>.stride),
                bytes / MemoryLayout<Element>.stride, bytes)
    }

    @inline(__always) mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(__always) mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress else { return }
        if count + elements.count > capacity { grow(to: count + elements.count) }
        if elements.count < 32 {
            // Keys and short strings: a loop beats a call to memmove.
            for i in 0..<elements.count { (base + count + i).initialize(to: source[i]) }
        } else {
            (base + count).initialize(from: source, count: elements.count)
        }
        count += elements.count
    }

    @inline(__always) mutating func removeLast() { count -= 1 }

    /// Empties the buffer, keeping its memory.
    @inline(__always) mutating func removeAll() { count = 0 }

    @inline(__always) subscript(index: Int) -> Element {
        get { base[index] }
        set { base[index] = newValue }
    }

    private mutating func grow(to minimum: Int) {
        let (newBase, newCapacity, newBytes) = Self.block(for: max(capacity * 2, minimum))
        newBase.initialize(from: base, count: count)
        ScratchPool.release(UnsafeMutableRawPointer(base), bytes: byteCapacity)
        base = newBase
        capacity = newCapacity
        byteCapacity = newBytes
    }

    /// The filled part, whose memory the caller now owns.
    var buffer: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }

    func free() { ScratchPool.release(UnsafeMutableRawPointer(base), bytes: byteCapacity) }
}
