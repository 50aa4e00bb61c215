/// The members of an object on a document's tape, in order: each member's key token and value
/// token. The one loop every decoder reads objects with; keys are unique (the parser refuses a
/// duplicate with its offset) and each decoder names what it does not accept with
/// `RequestDecoder.unknownKey`, which points at the key.
///
/// Reads the tape in place: no copy and no reference counting per member.
struct ObjectMembers: Sequence, IteratorProtocol {
    private let tokens: UnsafeMutableBufferPointer<JSONToken>
    private var remaining: Int
    private var key: Int

    /// The members of the object token at `object`.
    @inline(__always) init(_ document: JSONDocument, object: Int) {
        tokens = document.tokens
        remaining = Int(document.tokens[object].aux)
        key = object + 1
    }

    @inline(__always) mutating func next() -> (key: Int, value: Int)? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        let value = key + 1
        let member = (key: key, value: value)
        // Over the value: a container records where its contents end.
        let token = tokens[value]
        key = token.kind == .array || token.kind == .object ? Int(token.payload) : value + 1
        return member
    }
}

extension JSONDocument {
    /// The members of the object token at `object` (see `ObjectMembers`).
    @inline(__always) func members(of object: Int) -> ObjectMembers { ObjectMembers(self, object: object) }
}
