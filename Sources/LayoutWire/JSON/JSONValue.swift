/// A parsed JSON document, or a value inside one. Cheap to copy (a reference to the shared,
/// immutable storage and a position in it). Object members keep their document order; keys
/// are unique (the parser refuses duplicates).
///
///     let doc = try JSONValue.parse(bytes: data)
///     for testCase in doc.elements { let width = testCase["expected"]?["width"]?.doubleValue }
public struct JSONValue: Sendable, CustomStringConvertible {
    @usableFromInline let document: JSONDocument
    @usableFromInline let index: Int

    @usableFromInline init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    public enum Kind: Sendable, Hashable {
        case null, bool, number, string, array, object
    }

    public var kind: Kind {
        switch document.tokens[index].kind {
        case .null: return .null
        case .false, .true: return .bool
        case .number: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    public var isNull: Bool { document.tokens[index].kind == .null }

    public var boolValue: Bool? {
        switch document.tokens[index].kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    /// The number, as the nearest Double (an out-of-range literal like `1e400` is ±infinity).
    public var doubleValue: Double? {
        let token = document.tokens[index]
        return token.kind == .number ? Double(bitPattern: token.payload) : nil
    }

    public var stringValue: String? {
        document.tokens[index].kind == .string ? document.string(at: index) : nil
    }

    /// Elements of an array or members of an object; 0 for anything else.
    public var count: Int {
        let token = document.tokens[index]
        return token.kind == .array || token.kind == .object ? Int(token.aux) : 0
    }

    /// An array's elements in order; empty for anything else.
    public var elements: [JSONValue] {
        guard document.tokens[index].kind == .array else { return [] }
        var out: [JSONValue] = []
        out.reserveCapacity(count)
        var i = index + 1
        for _ in 0..<count {
            out.append(JSONValue(document: document, index: i))
            i = document.next(after: i)
        }
        return out
    }

    /// An object's members in document order; empty for anything else.
    public var members: [(key: String, value: JSONValue)] {
        guard document.tokens[index].kind == .object else { return [] }
        var out: [(key: String, value: JSONValue)] = []
        out.reserveCapacity(count)
        var i = index + 1
        for _ in 0..<count {
            out.append((document.string(at: i), JSONValue(document: document, index: i + 1)))
            i = document.next(after: i + 1)
        }
        return out
    }

    /// The member named `key` of an object; nil when absent or not an object.
    public subscript(key: String) -> JSONValue? {
        guard document.tokens[index].kind == .object else { return nil }
        let wanted = Array(key.utf8)
        var i = index + 1
        for _ in 0..<count {
            if document.equals(i, wanted) { return JSONValue(document: document, index: i + 1) }
            i = document.next(after: i + 1)
        }
        return nil
    }

    /// The element at `position` of an array; nil when out of range or not an array.
    public subscript(position: Int) -> JSONValue? {
        guard document.tokens[index].kind == .array, position >= 0, position < count else { return nil }
        var i = index + 1
        for _ in 0..<position { i = document.next(after: i) }
        return JSONValue(document: document, index: i)
    }

    /// The value as compact JSON (members in their original order).
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        return writer.bytes
    }

    public var description: String { String(decoding: jsonBytes(), as: UTF8.self) }
}

extension JSONValue: Equatable {
    /// Structural equality: same kinds, numbers, strings, elements, and members in the same order.
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        a.jsonBytes() == b.jsonBytes()
    }
}

extension JSONValue {
    /// Parses one JSON document (RFC 8259, UTF-8). Throws 400 for malformed JSON (with the byte
    /// offset), 413 when a `limits` bound is exceeded, 422 `duplicate-key` for an object that
    /// repeats a key (with the pointer of the repeat).
    public static func parse(bytes: UnsafeRawBufferPointer, limits: WireLimits = .default) throws(WireError) -> JSONValue {
        JSONValue(document: try parseDocument(bytes: bytes, limits: limits, borrowingInput: false), index: 0)
    }

    /// The document of `bytes`; with `borrowingInput` it reads strings from `bytes` and must
    /// not outlive them (see `JSONParser`).
    static func parseDocument(bytes: UnsafeRawBufferPointer, limits: WireLimits,
                              borrowingInput: Bool) throws(WireError) -> JSONDocument {
        guard bytes.count <= limits.maxDocumentBytes else {
            throw .tooLarge("document-too-large",
                            "the document is \(bytes.count) bytes; the limit is \(limits.maxDocumentBytes)")
        }
        var parser = JSONParser(bytes: bytes.bindMemory(to: UInt8.self), limits: limits, borrowingInput: borrowingInput)
        return try parser.parse()
    }

    /// Parses one JSON document from contiguous bytes, or copies them first when they are not.
    public static func parse<Bytes: Collection<UInt8>>(bytes: Bytes, limits: WireLimits = .default) throws(WireError) -> JSONValue {
        let result: Result<JSONValue, WireError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(WireError) in try parse(bytes: UnsafeRawBufferPointer(buffer), limits: limits) }
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBytes { raw in
            Result { () throws(WireError) in try parse(bytes: raw, limits: limits) }
        }.get()
    }

    /// Parses a document held in a String.
    public static func parse(_ text: String, limits: WireLimits = .default) throws(WireError) -> JSONValue {
        try parse(bytes: Array(text.utf8), limits: limits)
    }
}
