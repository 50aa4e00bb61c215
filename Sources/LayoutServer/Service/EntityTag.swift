import LayoutEngine
import LayoutWire

/// The ETag of a layout answer: the structural hash of the input and a hash of the ids (and
/// whether the answer carries Core Layout's printed tree), so two answers share an ETag
/// exactly when their bodies are equal (the same layout with other ids is a different body).
struct EntityTag: Equatable {
    /// The quoted form sent in `ETag`: `"<32 hex digits>-<16 hex digits>"`.
    let quoted: String

    init(structure: StructuralHash, ids: NodeIdentifiers, printsTree: Bool = false) {
        self.init(structure: structure, idsHash: printsTree ? ~Self.idsHash(ids) : Self.idsHash(ids))
    }

    /// The tag of a tree whose node indices are not its pre-order (a patch added or removed
    /// nodes): the ids hashed in `order`, the tree's pre-order, which a whole decode numbers
    /// them in.
    init(structure: StructuralHash, ids: NodeIdentifiers, order: [NodeID]) {
        var hasher = IdsHasher()
        ids.forEachUTF8(in: order) { hasher.add($0) }
        self.init(structure: structure, idsHash: hasher.finalized)
    }

    /// The tag of a tree with instances (`LayoutTree.instances`, their descendants' ids in
    /// `instanceIDs`): that of the tree they stand for, its ids hashed in its pre-order (each
    /// instance's descendants' after the instance's own; a decoder stores in pre-order).
    init(structure: StructuralHash, ids: NodeIdentifiers, instanceIDs: NodeIdentifiers, instances: SubtreeInstances) {
        var hasher = IdsHasher()
        ids.forEachUTF8(expandedBy: instances, instanceIDs: instanceIDs) { hasher.add($0) }
        self.init(structure: structure, idsHash: hasher.finalized)
    }

    /// The tag of `structure` with an ids part known already (that of an earlier tag whose
    /// answer had the same ids and printed tree or none).
    init(structure: StructuralHash, idsHash: UInt64) {
        // Written into one string buffer: no intermediate strings per digit group.
        quoted = String(unsafeUninitializedCapacity: Self.quotedLength) { buffer in
            buffer[0] = UInt8(ascii: "\"")
            Self.writeHex(structure.high, into: buffer, at: 1)
            Self.writeHex(structure.low, into: buffer, at: 17)
            buffer[33] = UInt8(ascii: "-")
            Self.writeHex(idsHash, into: buffer, at: 34)
            buffer[50] = UInt8(ascii: "\"")
            return Self.quotedLength
        }
    }

    /// `"` + 32 hex digits + `-` + 16 hex digits + `"`.
    static let quotedLength = 51

    /// Sixteen lowercase hex digits of `value`, most significant first, zero-padded.
    private static func writeHex(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        for k in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * k)) & 0xF
            buffer[start + k] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
    }

    /// The hash of the ids (see `IdsHasher`).
    static func idsHash(_ ids: NodeIdentifiers) -> UInt64 {
        var hasher = IdsHasher()
        ids.forEachUTF8 { hasher.add($0) }
        return hasher.finalized
    }

    /// The ids' hash state, one id at a time: per slot a word with its length (or a nil
    /// marker), then its bytes eight at a time, each word folded in by a multiply and a shift.
    /// Unkeyed, as FNV-1a was here before: the half of the tag that is not the cache's key.
    /// Words, not bytes: FNV-1a's chain of one multiply per byte was 3 % of a 1,000-cell feed's
    /// uncached request. A value the id walks write in place: a local `var` captured by their
    /// closures was checked for exclusive access at every byte.
    private struct IdsHasher {
        private var hash: UInt64 = 0xCBF2_9CE4_8422_2325

        @inline(__always) mutating func add(_ id: UnsafeBufferPointer<UInt8>?) {
            guard let id else { return mix(~0) }
            let count = id.count
            mix(UInt64(count) << 8 | 0xFE)
            guard count > 0, let base = id.baseAddress else { return }
            let raw = UnsafeRawPointer(base)
            var at = 0
            while at + 8 <= count {
                mix(raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                at += 8
            }
            guard at < count else { return }
            if count >= 8 {
                // The last eight bytes, overlapping the word before: the length is mixed in
                // already, so the overlap is unambiguous.
                mix(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            } else {
                var word: UInt64 = 0
                for k in 0..<count { word |= UInt64(base[k]) << (8 * UInt64(k)) }
                mix(word)
            }
        }

        @inline(__always) private mutating func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
        }

        /// The hash, its high bits folded into the low ones.
        var finalized: UInt64 {
            var h = hash &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 32
            return h
        }
    }

    /// Whether an `If-None-Match` field value names this tag: `*`, or a comma-separated list
    /// of tags compared weakly (a `W/` prefix is ignored), as RFC 9110 says for this header.
    func matches(ifNoneMatch field: String) -> Bool {
        Self.matches(ifNoneMatch: field, quoted: quoted)
    }

    /// `matches(ifNoneMatch:)` for a tag known only by its quoted form.
    static func matches(ifNoneMatch field: String, quoted: String) -> Bool {
        for candidate in field.split(separator: ",") {
            var tag = candidate.trimmingSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == quoted[...] { return true }
        }
        return false
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
