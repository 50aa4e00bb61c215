/// One entry of a parsed document's tape. Values are laid out in document order; a container
/// is followed by its contents (an object's as key, value, key, value, ...) and records where
/// its contents end, so a reader can step over it in O(1).
@usableFromInline
struct JSONToken: Sendable, BitwiseCopyable {
    @usableFromInline enum Kind: UInt8, Sendable, BitwiseCopyable {
        case null, `false`, `true`, number, string, array, object
    }
    @usableFromInline var kind: Kind
    /// Strings: byte length. Containers: number of elements or members.
    @usableFromInline var aux: UInt32
    /// Numbers: the Double's bit pattern. Strings: offset into the string storage.
    /// Containers: index of the first token after the container.
    @usableFromInline var payload: UInt64

    @inlinable init(kind: Kind, aux: UInt32, payload: UInt64) {
        self.kind = kind
        self.aux = aux
        self.payload = payload
    }
}

/// The immutable storage of a parsed document: the token tape and the unescaped bytes of all
/// strings, in buffers whose addresses stay fixed for the document's life, so decoders can
/// walk them without copies or reference counting per value.
///
/// A string token's payload below `borrowedCount` is an offset into the borrowed input (a
/// string without escapes, read where it stands); at or above it, `payload - borrowedCount`
/// is an offset into the string storage. An owning document has no borrowed input: its
/// storage starts with a copy of the input instead.
// @unchecked: its buffers are written only before init and then only read, from any thread;
// the borrowed input outlives the document (the borrowing parser's contract).
@usableFromInline
final class JSONDocument: @unchecked Sendable {
    let tokens: UnsafeMutableBufferPointer<JSONToken>
    /// The input bytes the document reads strings from without owning them (see
    /// `JSONParser.init(bytes:limits:borrowingInput:)`), or nil.
    private let borrowedBase: UnsafePointer<UInt8>?
    private let borrowedCount: Int

    /// Takes ownership of both buffers' memory.
    init(tokens: GrowableBuffer<JSONToken>, strings: GrowableBuffer<UInt8>, borrowing input: UnsafeBufferPointer<UInt8>?) {
        self.tokens = tokens.buffer
        tokenBase = tokens.base
        tokenBytes = tokens.byteCapacity
        stringBase = strings.base
        stringBytes = strings.byteCapacity
        borrowedBase = input?.baseAddress
        borrowedCount = input?.baseAddress == nil ? 0 : input!.count
    }

    /// The buffers' pool blocks (kept apart: an empty buffer view has no base address).
    private let tokenBase: UnsafeMutablePointer<JSONToken>
    private let tokenBytes: Int
    private let stringBase: UnsafeMutablePointer<UInt8>
    private let stringBytes: Int

    deinit {
        ScratchPool.release(UnsafeMutableRawPointer(tokenBase), bytes: tokenBytes)
        ScratchPool.release(UnsafeMutableRawPointer(stringBase), bytes: stringBytes)
    }

    /// The index just after the value at `index` (its whole subtree for a container).
    @inline(__always) func next(after index: Int) -> Int {
        let token = tokens[index]
        switch token.kind {
        case .array, .object: return Int(token.payload)
        default: return index + 1
        }
    }

    /// The bytes of the string token at `index`.
    @inline(__always) func bytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let token = tokens[index]
        let offset = Int(token.payload)
        if offset < borrowedCount, let borrowedBase {
            return UnsafeBufferPointer(start: borrowedBase + offset, count: Int(token.aux))
        }
        return UnsafeBufferPointer(start: stringBase + (offset - borrowedCount), count: Int(token.aux))
    }

    @inline(__always) func string(at index: Int) -> String {
        String(decoding: bytes(at: index), as: UTF8.self)
    }

    /// Whether the string token at `index` spells `literal`.
    @inline(__always) func equals(_ index: Int, _ literal: StaticString) -> Bool {
        spells(bytes(at: index), literal)
    }

    @inline(__always) func equals(_ index: Int, _ other: [UInt8]) -> Bool {
        let b = bytes(at: index)
        guard b.count == other.count else { return false }
        return other.withUnsafeBufferPointer { o in
            for i in 0..<o.count where b[i] != o[i] { return false }
            return true
        }
    }
}

/// FNV-1a, for looking up keys and keywords by their bytes without making Strings.
@inline(__always) func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
    return hash
}

func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBufferPointer { fnv1a($0) }
}
