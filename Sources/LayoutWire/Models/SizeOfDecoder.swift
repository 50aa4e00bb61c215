import LayoutEngine

// FlexLayout's and StackViewLayout's `width(of:)` / `height(of:)` on the wire:
//
//   "width": {"of": "<id of another node>", "multiplier"?: m}   (likewise "height")
//
// in a flexbox node's `style` or among a stack item's members. The node gets the same
// dimension of the node with that id, times `multiplier` (default 1), read from that node's
// frame after it is laid out (see `LayoutTree.setSizeReferences`). Ids are resolved once the
// whole tree is read, so a reference may point forward.

/// The `{"of": id}` sizes met while a tree is decoded: recorded by the member decoders, which
/// do not know their node's `NodeID` yet, and bound to it by the tree walk as it adds the node.
/// A class so the (non-mutating) decoders can record into it; one per `RequestDecoder`, used
/// on one thread.
final class SizeOfCollector {
    struct Reference {
        var node = NodeID.none
        var dimension: SizeReference.Dimension
        /// Token of the `of` string.
        var of: Int
        var multiplier: Float
        /// Pointer to the `of` member: relative to the node until bound, then absolute.
        var pointer: String
    }

    /// Recorded for the node being decoded.
    var pending: [Reference] = []
    /// Bound to their nodes.
    var bound: [Reference] = []

    /// Binds the pending references to `node`, whose pointer is `pointer`.
    func bind(to node: NodeID, pointer: String) {
        for var reference in pending {
            reference.node = node
            reference.pointer = pointer + reference.pointer
            bound.append(reference)
        }
        pending.removeAll(keepingCapacity: true)
    }
}

extension RequestDecoder {
    /// Reads `{"of": id, "multiplier"?}` at `index` as the node's `dimension`; `path` is the
    /// member's pointer from the node (`/style/width`, `/width`). Error pointers are relative
    /// to the object.
    func recordSizeOf(_ index: Int, _ dimension: SizeReference.Dimension, path: String) throws(WireError) {
        var of = -1
        var multiplier: Float = 1
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "of") {
                guard doc.tokens[value].kind == .string else {
                    throw wrongType(value, "of must be the id of another node", pointer: "/of")
                }
                of = value
            } else if doc.equals(key, "multiplier") {
                multiplier = try float(value, "multiplier", allowNegative: false, pointer: "/multiplier")
            } else {
                throw unknownKey(key, in: "a size of another node", accepted: "of, multiplier", pointer: "")
            }
        }
        guard of >= 0 else {
            throw .invalid("missing-key", "a size of another node needs \"of\", the other node's id", pointer: "")
        }
        sizeOf.pending.append(.init(dimension: dimension, of: of, multiplier: multiplier, pointer: path + "/of"))
    }

    /// Hands the tree the references bound while it was decoded, their ids resolved. Throws
    /// 422 `unknown-value` for an id no node has, `invalid-value` for an id several nodes have
    /// or a cycle, 413 `reference-chain-too-long` past `limits.maxSizeReferenceChain`.
    func resolveSizeOf(in tree: inout LayoutTree, ids: NodeIdentifiers) throws(WireError) {
        let references = sizeOf.bound
        guard !references.isEmpty else { return }
        var wanted: [String: NodeID] = [:]
        for reference in references { wanted[doc.string(at: reference.of)] = NodeID.none }
        var shared: Set<String> = []
        for (index, id) in ids.enumerated() {
            guard let id, let found = wanted[id] else { continue }
            if found != .none { shared.insert(id) }
            wanted[id] = NodeID(index)
        }
        var list: [SizeReference] = []
        list.reserveCapacity(references.count)
        for reference in references {
            let id = doc.string(at: reference.of)
            guard let source = wanted[id], source != .none else {
                throw .invalid("unknown-value", "no node has the id \"\(id)\"", pointer: reference.pointer)
            }
            guard !shared.contains(id) else {
                throw .invalid("invalid-value", "several nodes have the id \"\(id)\"; a size of another node needs a unique id",
                               pointer: reference.pointer)
            }
            list.append(SizeReference(node: reference.node, dimension: reference.dimension, source: source,
                                      multiplier: reference.multiplier))
        }
        do {
            try tree.setSizeReferences(list, maxChain: limits.maxSizeReferenceChain)
        } catch {
            let reference = references[error.index]
            let dimension = reference.dimension == .width ? "width" : "height"
            switch error.reason {
            case .cycle:
                throw .invalid("invalid-value", "the \(dimension) of \"\(doc.string(at: reference.of))\" leads back to this node: "
                               + "sizes of other nodes must not form a cycle", pointer: reference.pointer)
            case .chainTooLong:
                throw .tooLarge("reference-chain-too-long",
                                "more than \(limits.maxSizeReferenceChain) sizes of other nodes in a chain",
                                pointer: reference.pointer)
            case .unknownNode, .invalidMultiplier, .duplicate:
                throw .invalid("invalid-value", "this size of another node is refused (\(error.reason))", pointer: reference.pointer)
            }
        }
    }
}
