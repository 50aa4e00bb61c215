@_spi(Decoding) import LayoutEngine

// Repeated siblings: a child that repeats an earlier sibling but for its ids becomes a copy of
// that sibling's nodes, or an instance of it (`RepeatedSiblings`).
extension OnePassDecoder {
    /// When the child at `pos` repeats an earlier sibling but for its ids, adds a copy of that
    /// sibling's nodes under `parent` (with the child's own ids, and its text filed as the
    /// sibling's was), notes it in `copied`, moves past it and returns true. The child is at
    /// `positions`.
    mutating func cloneEarlierSibling(into tree: inout LayoutTree, ids: inout NodeIdentifiers,
                                      under parent: NodeID, positions: [Int],
                                      siblings: inout RepeatedSiblings,
                                      filed: inout (declarations: Int, leaves: Int),
                                      copied: inout [CopiedSubtree]) throws(GaveUp) -> Bool {
        guard let (source, end) = siblings.findRepeat(at: pos, in: input) else { return false }
        let count = source.nodeEnd - source.start.node
        guard tree.nodeCount + virtualNodes + count <= limits.maxNodes else { throw GaveUp() }
        // Its text is its source's: nothing of it is filed (the source's leaves are measured
        // for it, and their styles inherit alike).
        if foldsRepeats {
            try addInstance(of: source, into: &tree, ids: &ids, under: parent, siblings: &siblings, count: count)
            pos = end
            return true
        }
        let offset = tree.nodeCount - source.start.node
        let copy = tree.addNodes(copying: source.start.node..<source.nodeEnd, under: parent)
        copied.append(CopiedSubtree(copy: copy, source: NodeID(source.start.node), nodeCount: Int32(count)))
        var nextID = 0
        for from in source.start.node..<source.nodeEnd {
            if siblings.hasID(from) {
                let clone = siblings.cloneIDs[nextID]
                nextID += 1
                ids.append(utf8: try repeatID(clone))
                siblings.noteID(Int(clone.start)..<pos)
            } else {
                ids.append(utf8: nil)
                siblings.noteID(nil)
            }
        }
        if source.leafEnd > source.start.leaves || source.declarationEnd > source.start.declarations {
            let own = Self.pointer(positions)
            text.fileCopies(declarations: source.start.declarations..<source.declarationEnd,
                            leaves: source.start.leaves..<source.leafEnd, offset: Int32(offset)) { pointer in
                // Cut by bytes (a pointer of child positions is ASCII): dropping characters
                // walks grapheme breaks, which cost a tenth of decoding a feed of text cells.
                var copied = own
                copied.append(contentsOf: Substring(pointer.utf8.dropFirst(source.pointerLength)))
                return copied
            }
            filed.declarations += source.declarationEnd - source.start.declarations
            filed.leaves += source.leafEnd - source.start.leaves
        }
        pos = end
        return true
    }

    /// Adds an instance of `source` (of `count` nodes) under `parent` for the
    /// repeat at `pos`, whose ids `siblings` found: the root's go to `ids`, the others to
    /// `instanceIDs`.
    mutating func addInstance(of source: RepeatedSiblings.Source, into tree: inout LayoutTree,
                              ids: inout NodeIdentifiers, under parent: NodeID,
                              siblings: inout RepeatedSiblings, count: Int) throws(GaveUp) {
        _ = tree.addInstance(of: NodeID(source.start.node), size: count, under: parent)
        if instanceIDs.isEmpty {
            // Room as for the tree's ids: grown from empty, the runs were copied at every
            // doubling, a tenth of the decode of a feed.
            instanceIDs.reserveCapacity(reservedNodes, bytes: (input.count - pos) / 6)
        }
        virtualNodes += count - 1
        var nextID = 0
        for from in source.start.node..<source.nodeEnd {
            let isRoot = from == source.start.node
            var id: UnsafeBufferPointer<UInt8>?
            var span: Range<Int>?
            if siblings.hasID(from) {
                let clone = siblings.cloneIDs[nextID]
                nextID += 1
                id = try repeatID(clone)
                span = Int(clone.start)..<pos
            }
            if isRoot {
                ids.append(utf8: id)
                siblings.noteID(span)
            } else {
                instanceIDs.append(utf8: id, in: input)
            }
        }
    }

    /// The id string of a repeat that `findRepeat` found at `clone`, as `string()` reads it;
    /// `pos` is then past it. A plain one was read by `findRepeat`: only its length is left to
    /// check.
    mutating func repeatID(_ clone: RepeatedSiblings.CloneID) throws(GaveUp) -> UnsafeBufferPointer<UInt8> {
        let (start, end) = (Int(clone.start), Int(clone.end))
        guard end >= 0 else {
            pos = start
            return try string()
        }
        guard end - start - 2 <= limits.maxStringBytes else { throw GaveUp() }
        pos = end
        return UnsafeBufferPointer(rebasing: input[start + 1..<end - 1])
    }

    /// The UTF-8 length of `pointer(positions)`, without making it.
    static func pointerLength(_ positions: [Int]) -> Int {
        var length = 5  // "/root"
        for position in positions {
            var digits = 1, rest = position / 10
            while rest > 0 { digits += 1; rest /= 10 }
            length += 10 + digits  // "/children/" and the position
        }
        return length
    }

    /// The JSON pointer of the node at `positions` (child positions from the root's children down).
    static func pointer(_ positions: [Int]) -> String {
        JSONPointer.node(positions) { (false, $0, false) }
    }
}
