/// A manually managed array of trivial values, so the parser can hand its storage to a
/// `JSONDocument` without copying it. The owner calls `free()` or transfers `base`.
struct GrowableBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
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

    @inline(__always) subscript(index: Int) -> Element {
        get { base[index] }
        set { base[index] = newValue }
    }

    private mutating func grow(to minimum: Int) {
        let newCapacity = max(capacity * 2, minimum)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// The filled part, whose memory the caller now owns.
    var buffer: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }

    func free() { base.deallocate() }
}
