import LayoutEngine

/// A JSON value that can be edited in place: the document a JSON Patch (RFC 6902) applies to.
///
/// A value type whose containers are arrays, so a copy shares all storage and an edit copies
/// only the containers on the edited path (copy-on-write): a service can keep an earlier
/// document and patch a copy of it for the price of that path. Objects keep their members in
/// document order; keys are unique.
///
/// A value may stay unparsed (`raw`): an edit or a read that reaches into it parses the
/// levels on its way (`expanded`), so a patch of a large document parses what it touches.
/// Whatever reads a value's case reads `expanded`, which is never `raw`.
public enum JSONTree: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([JSONMember])
    /// A value still in its document's bytes (see `RawJSON`). Boxed: stored inline, its four
    /// words made every value four times larger to copy, in every array of values.
    indirect case raw(RawJSON)
}

/// One member of a `JSONTree` object.
public struct JSONMember: Sendable {
    public var key: String
    public var value: JSONTree

    public init(key: String, value: JSONTree) {
        self.key = key
        self.value = value
    }
}

extension JSONTree {
    /// The value with its own level parsed: itself unless it is `raw`, whose object members or
    /// array elements it then reads (containers among them stay raw). A raw value that is not
    /// JSON, which a document checked before never holds, reads as `null`.
    public var expanded: JSONTree {
        guard case .raw(let raw) = self else { return self }
        return raw.expanded() ?? .null
    }

    /// Whether the value is an array with elements (false: an empty one), read without parsing
    /// the elements of a raw one; nil when it is no array.
    public var hasElements: Bool? {
        switch self {
        case .array(let elements): return !elements.isEmpty
        case .raw(let raw): return raw.arrayHasElements
        default: return nil
        }
    }

    /// The document in `bytes`, unparsed until read or edited (see `raw`); nil when `bytes`
    /// hold only whitespace. `bytes` must be one JSON value, as a request body already decoded
    /// is: what is not JSON reads as `null` where it is reached.
    public init?(unparsed bytes: [UInt8]) {
        guard let raw = RawJSON(document: bytes) else { return nil }
        self = .raw(raw)
    }

    /// The parsed value `value`, converted without recursion (documents nest up to the parser's
    /// limit, deeper than a thread's stack allows for recursion).
    public init(_ value: JSONValue) {
        let doc = value.document
        // One entry per container whose contents are being read.
        struct Open {
            var isObject: Bool
            var elements: [JSONTree] = []
            var members: [JSONMember] = []
            var key = ""
            var remaining: Int
        }
        var stack: [Open] = []
        var i = value.index
        while true {
            let token = doc.tokens[i]
            var finished: JSONTree
            switch token.kind {
            case .null: finished = .null; i += 1
            case .false: finished = .bool(false); i += 1
            case .true: finished = .bool(true); i += 1
            case .number: finished = .number(Double(bitPattern: token.payload)); i += 1
            case .string: finished = .string(doc.string(at: i)); i += 1
            case .array, .object:
                let isObject = token.kind == .object
                i += 1
                guard token.aux > 0 else {
                    finished = isObject ? .object([]) : .array([])
                    break
                }
                var open = Open(isObject: isObject, remaining: Int(token.aux))
                if isObject {
                    open.members.reserveCapacity(open.remaining)
                    open.key = doc.string(at: i)
                    i += 1
                } else {
                    open.elements.reserveCapacity(open.remaining)
                }
                stack.append(open)
                continue
            }
            // Hand the finished value to its container, closing every container it completes.
            while true {
                guard !stack.isEmpty else { self = finished; return }
                let top = stack.count - 1
                if stack[top].isObject {
                    stack[top].members.append(JSONMember(key: stack[top].key, value: finished))
                } else {
                    stack[top].elements.append(finished)
                }
                stack[top].remaining -= 1
                if stack[top].remaining > 0 {
                    if stack[top].isObject {
                        stack[top].key = doc.string(at: i)
                        i += 1
                    }
                    break
                }
                let closed = stack.removeLast()
                finished = closed.isObject ? .object(closed.members) : .array(closed.elements)
            }
        }
    }

    /// The value as compact JSON, written without recursion. Numbers too large for a Double
    /// (parsed as infinities) are written as `1e400`, which parses back to the same value.
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.bytes
    }

    /// Writes the value to `writer`.
    public func write(to writer: inout JSONWriter) {
        // The containers being written, innermost last, each with the position of its next
        // element: elements are read where they are, not each copied onto a stack of steps and
        // off it again (5 % of a rebuilt patch's instructions on the 1,000-node tree).
        struct Open {
            let isObject: Bool
            let members: [JSONMember]
            let elements: [JSONTree]
            var next = 0
        }
        var open: [Open] = []
        var value = self
        while true {
            switch value {
            case .null: writer.null()
            case .bool(let flag): writer.bool(flag)
            case .number(let number):
                if number.isFinite {
                    writer.number(number)
                } else {
                    writer.literal(number < 0 ? "-1e400" : "1e400")
                }
            case .string(let text): writer.string(text)
            case .raw(let raw):
                raw.document.withUnsafeBufferPointer { writer.rawValue(UnsafeBufferPointer(rebasing: $0[raw.start..<raw.end])) }
            case .array(let elements):
                writer.beginArray()
                open.append(Open(isObject: false, members: [], elements: elements))
            case .object(let members):
                writer.beginObject()
                open.append(Open(isObject: true, members: members, elements: []))
            }
            // The next value to write, closing the containers it leaves.
            while let top = open.indices.last {
                let next = open[top].next
                if next < open[top].members.count {
                    open[top].next = next + 1
                    writer.key(open[top].members[next].key)
                    value = open[top].members[next].value
                    break
                }
                if next < open[top].elements.count {
                    open[top].next = next + 1
                    value = open[top].elements[next]
                    break
                }
                if open[top].isObject { writer.endObject() } else { writer.endArray() }
                open.removeLast()
            }
            if open.isEmpty { return }
        }
    }

    /// The member `key` of an object, `expanded`; nil when absent or not an object.
    public subscript(key: String) -> JSONTree? {
        guard case .object(let members) = expanded else { return nil }
        return members.first(where: { $0.key.hasSameUTF8(as: key) })?.value.expanded
    }

    /// Values in this one (itself included) and the depth of its deepest value (1 for a
    /// scalar), or nil as soon as the count passes `budget`. Walks without recursion.
    public func measure(budget: Int) -> (count: Int, depth: Int)? {
        var count = 0, depth = 0
        var pending: [(JSONTree, Int)] = [(self, 1)]
        while let (value, level) = pending.popLast() {
            if case .raw(let raw) = value {
                // Counted over its bytes, not parsed.
                guard let (rawCount, rawDepth) = raw.measure(budget: budget - count) else { return nil }
                count += rawCount
                depth = max(depth, level - 1 + rawDepth)
                continue
            }
            count += 1
            if count > budget { return nil }
            depth = max(depth, level)
            switch value {
            case .array(let elements): for element in elements { pending.append((element, level + 1)) }
            case .object(let members): for member in members { pending.append((member.value, level + 1)) }
            default: break
            }
        }
        return (count, depth)
    }

    /// Bytes the value holds on the heap, estimated from its containers' storage and its
    /// strings too long to be stored inline, for caches that charge what they keep. The
    /// document of raw values is counted once, however many of them it holds.
    public var heapBytes: Int {
        func string(_ text: String) -> Int { text.utf8.count > 15 ? HeapCharge.object(payload: text.utf8.count) : 0 }
        var total = 0
        var pending: [JSONTree] = [self]
        var documents: [UnsafePointer<UInt8>] = []
        while let value = pending.popLast() {
            switch value {
            case .raw(let raw):
                let address = raw.document.withUnsafeBufferPointer { $0.baseAddress }
                if let address, !documents.contains(address) {
                    documents.append(address)
                    total += HeapCharge.array(raw.document) + raw.spansHeapBytes
                }
            case .string(let text): total += string(text)
            case .array(let elements):
                total += HeapCharge.array(elements)
                pending.append(contentsOf: elements)
            case .object(let members):
                total += HeapCharge.array(members)
                for member in members {
                    total += string(member.key)
                    pending.append(member.value)
                }
            default: break
            }
        }
        return total
    }
}

extension JSONTree: Equatable {
    /// JSON equality as RFC 6902's `test` defines it: numbers by value, strings by their
    /// characters, arrays element by element, objects by their members in any order.
    /// Compares without recursion.
    public static func == (a: JSONTree, b: JSONTree) -> Bool {
        var pending: [(JSONTree, JSONTree)] = [(a, b)]
        while let (x, y) = pending.popLast() {
            if case .raw(let p) = x, case .raw(let q) = y, p.isSameSpan(as: q) { continue }
            switch (x.expanded, y.expanded) {
            case (.null, .null): continue
            case (.bool(let p), .bool(let q)): if p != q { return false }
            case (.number(let p), .number(let q)): if p != q { return false }
            case (.string(let p), .string(let q)): if p.hasSameUTF8(as: q) == false { return false }
            case (.array(let p), .array(let q)):
                guard p.count == q.count else { return false }
                for k in p.indices { pending.append((p[k], q[k])) }
            case (.object(let p), .object(let q)):
                guard p.count == q.count else { return false }
                // Keys are unique, so equal counts and every key of p found in q is a match.
                if p.count <= 16 {
                    for member in p {
                        guard let other = q.first(where: { $0.key.hasSameUTF8(as: member.key) }) else { return false }
                        pending.append((member.value, other.value))
                    }
                } else {
                    var byKey: [String: JSONTree] = [:]
                    for member in q { byKey[member.key] = member.value }
                    for member in p {
                        guard let other = byKey[member.key] else { return false }
                        pending.append((member.value, other))
                    }
                }
            default: return false
            }
        }
        return true
    }
}

extension JSONWriter {
    /// A value spelled by `text`, written as it is (a number literal the writer cannot make).
    mutating func literal(_ text: StaticString) {
        separator()
        let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        for b in bytes { byte(b) }
    }
}
