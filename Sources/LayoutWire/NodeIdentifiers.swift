import LayoutEngine

/// The client's `id` of every node of a request, by `NodeID.index`; nil where none was given.
///
/// Kept as one run of UTF-8 bytes with each id's span, not as a `String` per node: the
/// decoder appends the bytes it read, and the ETag's hash and the answer's encoder read them in
/// place. A request of 1,000 nodes holds two arrays instead of 1,000 strings (each one validated
/// again when made, heap-allocated past 15 bytes, as UUIDs are, and released one by one).
public struct NodeIdentifiers: Sendable, Equatable, RandomAccessCollection, MutableCollection,
    ExpressibleByArrayLiteral {
    /// Every id's bytes back to back. A replaced id's old bytes stay until `compactIfSparse`.
    @usableFromInline var bytes: [UInt8] = []
    /// Per node: where its id starts in `bytes` and its length in bytes, or -1 for nil.
    @usableFromInline var spans: [Span] = []
    /// The bytes of `bytes` no span points to any more (replaced ids'), so that deciding to
    /// compact costs no walk of the spans.
    private var deadBytes = 0
    /// Whether no id holds a byte that a JSON string escapes (`"`, `\`, a control character),
    /// so that an encoder copies ids without looking. True only when known: ids set as strings
    /// are checked, and ids appended as bytes make it false until their decoder vouches for
    /// them (`vouchEscapeFree`).
    public private(set) var escapeFree = true
    /// How many bytes at the start of `bytes` are a decoder's input, which ids may point into
    /// instead of being copied (`init(referencing:)`); 0 once the run was compacted.
    private var referencedCount = 0

    @usableFromInline struct Span: Sendable {
        @usableFromInline var start: Int32
        @usableFromInline var length: Int32
        static var none: Span { Span(start: 0, length: -1) }
    }

    public init() {}

    public init(arrayLiteral elements: String?...) {
        self.init(elements)
    }

    public init<Identifiers: Sequence<String?>>(_ ids: Identifiers) {
        for id in ids { append(id) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { spans.count }

    public subscript(index: Int) -> String? {
        get {
            withUTF8(at: index) { utf8 in utf8.map { String(decoding: $0, as: UTF8.self) } }
        }
        set {
            // A patch that edits a node's other members sets its id again, unchanged.
            let unchanged = withUTF8(at: index) { old in
                switch (old, newValue) {
                case (nil, nil): true
                case let (old?, new?): old.elementsEqual(new.utf8)
                default: false
                }
            }
            guard !unchanged else { return }
            deadBytes += Swift.max(0, Int(spans[index].length))
            spans[index] = store(newValue)
            compactIfSparse()
        }
    }

    /// Ids that point into `input` where they can (`append(utf8:in:)`): the array is shared,
    /// not copied, and is held as long as these ids are; the bytes no id points to count as
    /// dead, so the first edit that makes them most of the run compacts it.
    init(referencing input: [UInt8]) {
        bytes = input
        referencedCount = input.count
        deadBytes = input.count
    }

    /// Room for `count` ids of `bytes` bytes in all (for ids of their own; ids pointing into a
    /// referenced input need no room).
    public mutating func reserveCapacity(_ count: Int, bytes byteCount: Int) {
        spans.reserveCapacity(count)
        if referencedCount == 0 { bytes.reserveCapacity(byteCount) }
    }

    public mutating func append(_ id: String?) {
        spans.append(store(id))
    }

    /// Appends an id given as its UTF-8 bytes, which must be valid UTF-8 (a decoder's checked
    /// input), or nil. The ids are no longer known to be `escapeFree`.
    @inline(__always)
    public mutating func append(utf8 id: UnsafeBufferPointer<UInt8>?) {
        guard let id else { spans.append(.none); return }
        escapeFree = false
        spans.append(Span(start: Int32(bytes.count), length: Int32(id.count)))
        bytes.append(contentsOf: id)
    }

    /// `append(utf8:)` for an id read from `input`, the bytes of `init(referencing:)`: when
    /// `id` lies in them, only its span is kept (no copy); otherwise (an unescaped id) it is
    /// copied, which copies the shared input once.
    @inline(__always)
    mutating func append(utf8 id: UnsafeBufferPointer<UInt8>?, in input: UnsafeBufferPointer<UInt8>) {
        if let id, let start = id.baseAddress, let base = input.baseAddress,
           start >= base, start - base + id.count <= referencedCount {
            escapeFree = false
            spans.append(Span(start: Int32(start - base), length: Int32(id.count)))
            deadBytes -= id.count
            return
        }
        append(utf8: id)
    }

    /// Marks every id as holding no byte a JSON string escapes: for a decoder that read each
    /// one from a JSON string without escapes (where none of those bytes can stand unescaped).
    mutating func vouchEscapeFree() {
        escapeFree = true
    }

    /// Calls `body` with the UTF-8 bytes of the id at `index` (nil for a node without one),
    /// valid only inside the call.
    public func withUTF8<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        try withView { try body($0[index]) }
    }

    /// Calls `body` with each id's UTF-8 bytes in index order (nil for a node without one).
    // Inlinable: a hash over every id (the ETag's) runs `body` inlined, not called per id.
    @inlinable
    public func forEachUTF8(_ body: (UnsafeBufferPointer<UInt8>?) throws -> Void) rethrows {
        try withView { view in
            for index in 0..<view.count { try body(view[index]) }
        }
    }

    /// Calls `body` with the UTF-8 bytes of the ids of a tree with instances in the pre-order
    /// of the tree they stand for (`LayoutTree.instances`; these ids by node index, stored in
    /// pre-order as a decoder stores them): each instance's descendants' ids from
    /// `instanceIDs` (`LayoutRequest.instanceIDs`) right after the instance's own.
    @inlinable
    public func forEachUTF8(expandedBy instances: SubtreeInstances, instanceIDs: NodeIdentifiers,
                            _ body: (UnsafeBufferPointer<UInt8>?) throws -> Void) rethrows {
        try withView { view in
            try instanceIDs.withView { virtual in
                var next = 0, v = 0
                for index in 0..<view.count {
                    try body(view[index])
                    while next < instances.nodes.count && Int(instances.nodes[next]) == index {
                        for _ in 1..<Int(instances.sizes[next]) where v < virtual.count {
                            try body(virtual[v])
                            v += 1
                        }
                        next += 1
                    }
                }
            }
        }
    }

    /// Calls `body` with the UTF-8 bytes of the ids of `nodes`, in that order.
    @inlinable
    public func forEachUTF8(in nodes: [NodeID], _ body: (UnsafeBufferPointer<UInt8>?) throws -> Void) rethrows {
        try withView { view in
            for node in nodes { try body(view[Int(node.index)]) }
        }
    }

    /// The ids borrowed for a walk that reads many of them (an encoder): valid inside
    /// `withView`.
    @usableFromInline struct View {
        @usableFromInline let spans: UnsafeBufferPointer<Span>
        @usableFromInline let bytes: UnsafePointer<UInt8>?
        /// `NodeIdentifiers.escapeFree`.
        @usableFromInline let escapeFree: Bool
        @inlinable var count: Int { spans.count }

        @inlinable init(spans: UnsafeBufferPointer<Span>, bytes: UnsafePointer<UInt8>?, escapeFree: Bool) {
            self.spans = spans
            self.bytes = bytes
            self.escapeFree = escapeFree
        }

        /// The UTF-8 bytes of the id at `index`, or nil for a node without one.
        @inlinable @inline(__always)
        subscript(index: Int) -> UnsafeBufferPointer<UInt8>? {
            let span = spans[index]
            guard span.length >= 0 else { return nil }
            return UnsafeBufferPointer(start: bytes.map { $0 + Int(span.start) }, count: Int(span.length))
        }
    }

    @inlinable
    func withView<R>(_ body: (View) throws -> R) rethrows -> R {
        try spans.withUnsafeBufferPointer { spans in
            try bytes.withUnsafeBufferPointer { bytes in
                try body(View(spans: spans, bytes: bytes.baseAddress, escapeFree: escapeFree))
            }
        }
    }

    /// What the ids hold on the heap, for caches that charge it.
    public var heapBytes: Int {
        HeapCharge.array(bytes) + HeapCharge.array(spans)
    }

    public static func == (a: NodeIdentifiers, b: NodeIdentifiers) -> Bool {
        guard a.count == b.count else { return false }
        return a.withView { a in
            b.withView { b in
                (0..<a.count).allSatisfy { index in
                    switch (a[index], b[index]) {
                    case (nil, nil): return true
                    case let (x?, y?): return x.elementsEqual(y)
                    default: return false
                    }
                }
            }
        }
    }

    private mutating func store(_ id: String?) -> Span {
        guard var id else { return .none }
        let start = Int32(bytes.count)
        id.withUTF8 { utf8 in
            if escapeFree { escapeFree = JSONWriter.firstEscape(utf8) == utf8.count }
            bytes.append(contentsOf: utf8)
        }
        return Span(start: start, length: Int32(bytes.count) - start)
    }

    /// Drops the bytes no span points to once they are most of the run (after many ids were
    /// replaced, as patches do).
    private mutating func compactIfSparse() {
        guard bytes.count > 4096, 2 * deadBytes > bytes.count else { return }
        var packed: [UInt8] = []
        packed.reserveCapacity(bytes.count - deadBytes)
        for index in spans.indices where spans[index].length >= 0 {
            let span = spans[index]
            let start = Int32(packed.count)
            packed.append(contentsOf: bytes[Int(span.start)..<Int(span.start + span.length)])
            spans[index].start = start
        }
        bytes = packed
        deadBytes = 0
        referencedCount = 0
    }
}
