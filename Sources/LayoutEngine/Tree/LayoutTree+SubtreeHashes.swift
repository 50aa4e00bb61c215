// Per-node subtree hashes (a Merkle tree over the layout tree): each node's hash covers its
// own style and content words, its child count and its children's hashes in order, so two
// nodes share a hash exactly when their subtrees would lay out alike under the same
// constraints. Keyed (SipHash-2-4-128 under a `StructuralHashKey`), so a client cannot craft
// two different subtrees with one hash.

extension LayoutTree {
    /// The subtree hash of every node under `root` (including it), by `NodeID.index`; nodes
    /// outside the subtree get zero. Computed bottom-up in one pass, one SipHash per node.
    /// The config is not part of it (it is the same for every node of a tree).
    public func subtreeHashes(root: NodeID, key: StructuralHashKey) -> [StructuralHash] {
        var hashes = [StructuralHash](repeating: StructuralHash(high: 0, low: 0), count: nodeCount)
        let order = preorder(from: Int(root.index))
        hashes.withUnsafeMutableBufferPointer { out in
            for i in order.reversed() {
                out[Int(i)] = subtreeHash(of: Int(i), key: key, childHashes: UnsafePointer(out.baseAddress!))
            }
        }
        return hashes
    }

    /// The nodes of the subtree at `root` in pre-order (a node before its descendants, so the
    /// reverse order visits children before parents).
    func preorder(from root: Int) -> [Int32] {
        var order: [Int32] = []
        order.reserveCapacity(nodeCount)
        Self.walkSubtree(from: root, firstChildren, nextSiblings, parents) { n, _ in order.append(Int32(n)) }
        return order
    }

    /// One node's hash from its own words and its children's hashes (already in `childHashes`).
    @inline(__always)
    func subtreeHash(of i: Int, key: StructuralHashKey, childHashes: UnsafePointer<StructuralHash>) -> StructuralHash {
        var hasher = StructuralHasher(key: key)
        // Domain and format: distinct from the whole-tree structural hash's stream.
        hasher.combine(UInt64(0x5355_4254_5245_0001))
        withNodeRows { _ = $0.combineNode(i, into: &hasher) }
        var c = Int(firstChildren[i].index)
        while c >= 0 {
            hasher.combine(childHashes[c].high)
            hasher.combine(childHashes[c].low)
            c = Int(nextSiblings[c].index)
        }
        return hasher.finalize()
    }
}
