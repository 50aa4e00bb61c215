/// The members of an object on a document's tape, in order: each member's key token and value
/// token. The one loop every decoder reads objects with (`doc.members(of:)`); keys are unique
/// (the parser refuses a duplicate with its offset) and each decoder names what it does not
/// accept with `RequestDecoder.unknownKey`, which points at the key.
///
/// Reads the tape in place: no copy and no reference counting per member. (One walker for both
/// objects and arrays, with a key-token stride, measured ~3 % slower on decode: hence two.)
struct ObjectMembers: Sequence, IteratorProtocol {
    private let tokens: UnsafeMutableBufferPointer<JSONToken>
    private var remaining: Int
    private var key: Int

    @inline(__always) init(_ document: JSONDocument, object: Int) {
        tokens = document.tokens
        remaining = Int(document.tokens[object].aux)
        key = object + 1
    }

    @inline(__always) mutating func next() -> (key: Int, value: Int)? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        let member = (key: key, value: key + 1)
        key = tokens.indexPastValue(at: member.value)
        return member
    }
}

/// The elements of an array on a document's tape, in order: each one's position (for its
/// pointer, `/<position>`) and token (`doc.elements(of:)`). Reads the tape in place.
struct ArrayElements: Sequence, IteratorProtocol {
    private let tokens: UnsafeMutableBufferPointer<JSONToken>
    private let count: Int
    private var position = 0
    private var element: Int

    @inline(__always) init(_ document: JSONDocument, array: Int) {
        tokens = document.tokens
        count = Int(document.tokens[array].aux)
        element = array + 1
    }

    @inline(__always) mutating func next() -> (position: Int, element: Int)? {
        guard position < count else { return nil }
        let current = (position: position, element: element)
        position += 1
        element = tokens.indexPastValue(at: element)
        return current
    }
}

extension JSONDocument {
    /// The members of the object token at `object`, in order.
    @inline(__always) func members(of object: Int) -> ObjectMembers { ObjectMembers(self, object: object) }

    /// The elements of the array token at `array`, in order.
    @inline(__always) func elements(of array: Int) -> ArrayElements { ArrayElements(self, array: array) }
}

private extension UnsafeMutableBufferPointer<JSONToken> {
    /// The token after the value at `index` and everything in it: a container records where
    /// its contents end.
    @inline(__always) func indexPastValue(at index: Int) -> Int {
        let token = self[index]
        return token.kind == .array || token.kind == .object ? Int(token.payload) : index + 1
    }
}
