/// The contents of an array or object on a document's tape, in order: each element's (or
/// member's key's) position and token. Reads the tape in place: no copy and no reference
/// counting per value. Decoders read through `doc.elements(of:)` and `doc.members(of:)`.
struct ContainerContents {
    private let tokens: UnsafeMutableBufferPointer<JSONToken>
    private let count: Int
    /// Tokens each entry starts with before its value: 1 in an object (the key), 0 in an array.
    private let keyTokens: Int
    private var position = 0
    private var entry: Int

    @inline(__always) init(_ document: JSONDocument, container: Int) {
        tokens = document.tokens
        count = Int(document.tokens[container].aux)
        keyTokens = document.tokens[container].kind == .object ? 1 : 0
        entry = container + 1
    }

    @inline(__always) mutating func next() -> (position: Int, token: Int)? {
        guard position < count else { return nil }
        let current = (position: position, token: entry)
        position += 1
        // Over the value: a container records where its contents end.
        let value = tokens[entry + keyTokens]
        entry = value.kind == .array || value.kind == .object ? Int(value.payload) : entry + keyTokens + 1
        return current
    }
}

/// The members of an object: each key's token and its value's token. Keys are unique (the
/// parser refuses a duplicate with its offset); each decoder names what it does not accept with
/// `RequestDecoder.unknownKey`, which points at the key.
struct ObjectMembers: Sequence, IteratorProtocol {
    fileprivate var contents: ContainerContents

    @inline(__always) mutating func next() -> (key: Int, value: Int)? {
        contents.next().map { (key: $0.token, value: $0.token + 1) }
    }
}

/// The elements of an array: each one's position (for its pointer, `/<position>`) and token.
struct ArrayElements: Sequence, IteratorProtocol {
    fileprivate var contents: ContainerContents

    @inline(__always) mutating func next() -> (position: Int, element: Int)? {
        contents.next().map { (position: $0.position, element: $0.token) }
    }
}

extension JSONDocument {
    /// The members of the object token at `object`, in order.
    @inline(__always) func members(of object: Int) -> ObjectMembers {
        ObjectMembers(contents: ContainerContents(self, container: object))
    }

    /// The elements of the array token at `array`, in order.
    @inline(__always) func elements(of array: Int) -> ArrayElements {
        ArrayElements(contents: ContainerContents(self, container: array))
    }
}
