/// A JSON Patch (RFC 6902): operations applied in order to a `JSONTree`, all or nothing.
public struct JSONPatch: Sendable {
    /// One operation. Paths are JSON pointers (RFC 6901), kept as their unescaped tokens.
    public struct Operation: Sendable {
        public enum Kind: String, Sendable, CaseIterable {
            case add, remove, replace, move, copy, test
        }
        public var kind: Kind
        public var path: [String]
        /// `move` and `copy`: where the value comes from.
        public var from: [String]?
        /// `add`, `replace` and `test`: the value.
        public var value: JSONTree?

        public init(kind: Kind, path: [String], from: [String]? = nil, value: JSONTree? = nil) {
            self.kind = kind
            self.path = path
            self.from = from
            self.value = value
        }
    }

    public var operations: [Operation]

    public init(operations: [Operation]) {
        self.operations = operations
    }

    /// Decodes the patch array `value`: at most `maxOperations` operations (413
    /// `too-many-operations` beyond), each an object with `op`, `path`, and `from` or `value`
    /// as its kind needs (422 with the pointer of the member, relative to the array: `/3/op`).
    /// Other members of an operation are ignored, as RFC 6902 says.
    public init(_ value: JSONValue, maxOperations: Int) throws(WireError) {
        guard value.kind == .array else {
            throw .invalid("wrong-type", "the patch must be an array of operations (RFC 6902)", pointer: "")
        }
        guard value.count <= maxOperations else {
            throw .tooLarge("too-many-operations",
                            "the patch has \(value.count) operations; the limit is \(maxOperations)", pointer: "")
        }
        operations = []
        operations.reserveCapacity(value.count)
        for (position, element) in value.elements.enumerated() {
            operations.append(try Self.operation(element, pointer: "/\(position)"))
        }
    }

    /// The operation names as an error lists them (`"add", "remove", …`): made only for an
    /// error (joined for every operation, it was 3 % of a one-operation patch's CPU).
    private static var kinds: String { Operation.Kind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") }

    private static func operation(_ value: JSONValue, pointer: String) throws(WireError) -> Operation {
        guard value.kind == .object else {
            throw .invalid("wrong-type", "a patch operation must be an object with \"op\" and \"path\"", pointer: pointer)
        }
        guard let opValue = value["op"] else {
            throw .invalid("missing-key", "a patch operation needs \"op\": one of \(kinds)", pointer: pointer)
        }
        guard let name = opValue.stringValue, let kind = Operation.Kind(rawValue: name) else {
            throw .invalid("unknown-value", "\"op\" must be one of \(kinds)", pointer: pointer + "/op")
        }
        let path = try self.pointer(value, "path", in: pointer)
        // RFC 6902 ignores members an operation does not use, but a "from" that is present is
        // held to its type on every operation, so a malformed one is never silently dropped.
        if let from = value["from"], from.stringValue == nil {
            throw .invalid("wrong-type", "\"from\" must be a JSON pointer string", pointer: pointer + "/from")
        }
        var operation = Operation(kind: kind, path: path)
        switch kind {
        case .move, .copy:
            operation.from = try self.pointer(value, "from", in: pointer)
        case .add, .replace, .test:
            guard let member = value["value"] else {
                throw .invalid("missing-key", "a \"\(name)\" operation needs \"value\"", pointer: pointer)
            }
            operation.value = JSONTree(member)
        case .remove:
            break
        }
        return operation
    }

    private static func pointer(_ operation: JSONValue, _ key: String, in pointer: String) throws(WireError) -> [String] {
        guard let member = operation[key] else {
            throw .invalid("missing-key", "this patch operation needs \"\(key)\" (a JSON pointer)", pointer: pointer)
        }
        guard let text = member.stringValue else {
            throw .invalid("wrong-type", "\"\(key)\" must be a JSON pointer string", pointer: pointer + "/" + key)
        }
        guard let tokens = JSONPointer.tokens(of: text) else {
            throw .invalid("invalid-pointer", "\"\(key)\" is not a JSON pointer (RFC 6901): it must be empty or start "
                            + "with \"/\", and \"~\" must be followed by 0 or 1", pointer: pointer + "/" + key)
        }
        return tokens
    }

    /// Applies every operation to `document` in order. On an error the document may be
    /// half-patched (apply to a copy); the error's pointer names the operation (`/3`,
    /// relative to the patch array): 422 `patch-failed` for an operation that does not apply,
    /// 422 `test-failed` for a `test` that does not hold, 413 `patched-document-too-large`
    /// when the values the patch adds (counted into `valueCount`, the document's value count)
    /// pass `maxValues`, or it would nest deeper than `maxNesting`.
    public func apply(to document: inout JSONTree, valueCount: inout Int, maxValues: Int,
                      maxNesting: Int) throws(WireError) {
        for (position, operation) in operations.enumerated() {
            do {
                try apply(operation, to: &document, valueCount: &valueCount, maxValues: maxValues, maxNesting: maxNesting)
            } catch let failure {
                throw failure.error(operation: position, operation)
            }
        }
    }

    private func apply(_ operation: Operation, to document: inout JSONTree, valueCount: inout Int,
                       maxValues: Int, maxNesting: Int) throws(PatchFailure) {
        // Every value walked is charged to the budget (never given back), so the work of a
        // whole patch stays within the budget too.
        func charge(_ value: JSONTree) throws(PatchFailure) {
            guard let (count, depth) = value.measure(budget: maxValues - valueCount) else {
                throw .tooLarge("the patched document would hold more than \(maxValues) values")
            }
            valueCount += count
            guard operation.path.count + depth <= maxNesting else {
                throw .tooLarge("the patched document would nest deeper than \(maxNesting) levels")
            }
        }
        let path = operation.path
        switch operation.kind {
        case .add:
            try charge(operation.value!)
            try document.add(operation.value!, at: path)
        case .remove:
            _ = try document.remove(at: path)
        case .replace:
            try charge(operation.value!)
            try document.modify(path) { (target: inout JSONTree) throws(PatchFailure) in target = operation.value! }
        case .move:
            let from = operation.from!
            if from == path {
                guard document.value(at: from) != nil else { throw .missing(from) }
                return
            }
            guard !(from.count < path.count && Array(path.prefix(from.count)) == from) else {
                throw .failed("a value cannot be moved into itself (\"from\" is a prefix of \"path\")")
            }
            let moved = try document.remove(at: from)
            try charge(moved)
            try document.add(moved, at: path)
        case .copy:
            guard let copied = document.value(at: operation.from!) else { throw .missing(operation.from!) }
            try charge(copied)
            try document.add(copied, at: path)
        case .test:
            guard let found = document.value(at: path) else { throw .missing(path) }
            guard found == operation.value! else {
                throw .testFailed("the value at \(JSONPointer.make(path)) is not the one tested")
            }
        }
    }
}

/// Why an operation did not apply, before it is given its position in the patch.
enum PatchFailure: Error {
    case missing([String])
    case failed(String)
    case testFailed(String)
    case tooLarge(String)

    func error(operation position: Int, _ operation: JSONPatch.Operation) -> WireError {
        let pointer = "/\(position)"
        let what = "operation \(position) (\(operation.kind.rawValue) at \(JSONPointer.make(operation.path)))"
        switch self {
        case .missing(let path):
            return .invalid("patch-failed", "\(what) does not apply: there is no value at \(JSONPointer.make(path))",
                            pointer: pointer)
        case .failed(let reason): return .invalid("patch-failed", "\(what) does not apply: \(reason)", pointer: pointer)
        case .testFailed(let reason): return .invalid("test-failed", "\(what) failed: \(reason)", pointer: pointer)
        case .tooLarge(let reason): return .tooLarge("patched-document-too-large", "\(what): \(reason)", pointer: pointer)
        }
    }
}

extension JSONTree {
    /// The value at the pointer `path`, or nil when there is none.
    public func value(at path: [String]) -> JSONTree? {
        var current = self
        for token in path {
            guard let next = Self.child(token, of: current.expanded) else { return nil }
            current = next
        }
        return current
    }

    /// The member `token` of an object, or element `token` of an array; nil when there is
    /// none or `container` is neither (a raw one included).
    private static func child(_ token: String, of container: JSONTree) -> JSONTree? {
        switch container {
        case .object(let members):
            return members.first(where: { $0.key.hasSameUTF8(as: token) })?.value
        case .array(let elements):
            guard let k = JSONPointer.arrayIndex(token), k < elements.count else { return nil }
            return elements[k]
        default:
            return nil
        }
    }

    /// Runs `body` on the value at the first `end` tokens of `path` (all of them by default),
    /// in place: each container on the way is taken out of its parent while it is edited, so
    /// it stays uniquely referenced (no copy beyond the copy-on-write of storage shared with
    /// another document). Walks without recursion: paths are as deep as documents. The value
    /// is whole again afterwards, also when the path does not exist or `body` throws.
    mutating func modify<R>(_ path: [String], upTo end: Int? = nil,
                            _ body: (inout JSONTree) throws(PatchFailure) -> R) throws(PatchFailure) -> R {
        let end = end ?? path.count
        // The containers above the current value, each with the current value's place in it.
        var above: [(container: JSONTree, index: Int)] = []
        var current = self
        self = .null
        var outcome: Result<R, PatchFailure>?
        for depth in 0..<end {
            let token = path[depth]
            var place: Int?
            // A raw container on the path is parsed a level, and kept so in the document.
            if case .raw = current { current = current.expanded }
            switch current {
            case .object(var members):
                if let k = members.firstIndex(where: { $0.key.hasSameUTF8(as: token) }) {
                    current = .null
                    let child = members[k].value
                    members[k].value = .null
                    above.append((.object(members), k))
                    current = child
                    place = k
                }
            case .array(var elements):
                if let k = JSONPointer.arrayIndex(token), k < elements.count {
                    current = .null
                    let child = elements[k]
                    elements[k] = .null
                    above.append((.array(elements), k))
                    current = child
                    place = k
                }
            default:
                break
            }
            if place == nil {
                outcome = .failure(.missing(Array(path[...depth])))
                break
            }
        }
        if outcome == nil {
            do { outcome = .success(try body(&current)) } catch { outcome = .failure(error) }
        }
        while !above.isEmpty {
            var (parent, k) = above.removeLast()
            // Let go of the taken-out reference before editing, as on the way down.
            switch parent {
            case .object(var members):
                parent = .null
                members[k].value = current
                current = .object(members)
            case .array(var elements):
                parent = .null
                elements[k] = current
                current = .array(elements)
            default:
                break
            }
        }
        self = current
        return try outcome!.get()
    }

    /// Whether a container on `path` (above its last token, as far as the path exists) is raw:
    /// whether `expandContainers(along:)` would parse anything.
    public func meetsRawContainer(along path: [String]) -> Bool {
        var current = self
        for token in path {
            if case .raw = current { return true }
            guard let next = Self.child(token, of: current) else { return false }
            current = next
        }
        return false
    }

    /// Parses the raw containers on `path` in place, as far as the path exists (see `raw`):
    /// what a later edit or read along it would parse, parsed once for every copy made after.
    public mutating func expandContainers(along path: [String]) {
        _ = try? modify(path) { (_: inout JSONTree) throws(PatchFailure) in }
    }

    /// RFC 6902 `add`: sets an object member (replacing one of that name), or inserts into an
    /// array before the index (`-`: at the end); the empty path replaces the whole document.
    mutating func add(_ value: JSONTree, at path: [String]) throws(PatchFailure) {
        guard let last = path.last else { self = value; return }
        try modify(path, upTo: path.count - 1) { (container: inout JSONTree) throws(PatchFailure) in
            if case .raw = container { container = container.expanded }
            switch container {
            case .object(var members):
                container = .null
                if let k = members.firstIndex(where: { $0.key.hasSameUTF8(as: last) }) {
                    members[k].value = value
                } else {
                    members.append(JSONMember(key: last, value: value))
                }
                container = .object(members)
            case .array(var elements):
                let k = last == "-" ? elements.count : JSONPointer.arrayIndex(last) ?? -1
                guard k >= 0 && k <= elements.count else {
                    throw .failed("\"\(last)\" is not an index from 0 to \(elements.count) (or \"-\") of the array")
                }
                container = .null
                elements.insert(value, at: k)
                container = .array(elements)
            default:
                throw .failed("the parent of \(JSONPointer.make(path)) is neither an object nor an array")
            }
        }
    }

    /// RFC 6902 `remove`: takes out the value at `path` (which must exist) and returns it.
    mutating func remove(at path: [String]) throws(PatchFailure) -> JSONTree {
        guard let last = path.last else { throw .failed("the whole document cannot be removed") }
        return try modify(path, upTo: path.count - 1) { (container: inout JSONTree) throws(PatchFailure) -> JSONTree in
            if case .raw = container { container = container.expanded }
            switch container {
            case .object(var members):
                guard let k = members.firstIndex(where: { $0.key.hasSameUTF8(as: last) }) else { throw .missing(path) }
                container = .null
                let removed = members.remove(at: k).value
                container = .object(members)
                return removed
            case .array(var elements):
                guard let k = JSONPointer.arrayIndex(last), k < elements.count else { throw .missing(path) }
                container = .null
                let removed = elements.remove(at: k)
                container = .array(elements)
                return removed
            default:
                throw .missing(path)
            }
        }
    }
}

extension JSONPointer {
    /// The unescaped tokens of a pointer (`""` is the whole document: no tokens), or nil when
    /// `text` is not a pointer.
    public static func tokens(of text: String) -> [String]? {
        var text = text
        return text.withUTF8 { tokens(of: $0) }
    }

    private static func tokens(of bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        guard !bytes.isEmpty else { return [] }
        guard bytes[0] == UInt8(ascii: "/") else { return nil }
        var tokens: [String] = []
        var start = 1
        for end in 1...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
            let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
            start = end + 1
            guard part.contains(UInt8(ascii: "~")) else {
                tokens.append(String(decoding: part, as: UTF8.self))
                continue
            }
            var unescaped: [UInt8] = []
            var iterator = part.makeIterator()
            while let byte = iterator.next() {
                guard byte == UInt8(ascii: "~") else { unescaped.append(byte); continue }
                switch iterator.next() {
                case UInt8(ascii: "0"): unescaped.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): unescaped.append(UInt8(ascii: "/"))
                default: return nil
                }
            }
            tokens.append(String(decoding: unescaped, as: UTF8.self))
        }
        return tokens
    }

    /// An array index token: `0`, or digits without a leading zero; nil for anything else
    /// (including `-`).
    public static func arrayIndex(_ token: String) -> Int? {
        let bytes = token.utf8
        guard let first = bytes.first, bytes.count <= 18, first != UInt8(ascii: "0") || bytes.count == 1 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
