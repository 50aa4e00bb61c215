#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The whole-tree hash of a tree with copied subtrees (a feed of a few cell shapes). A chunk's
// hash depends only on its nodes' words, and a copied node's words are its source's: a chunk
// whose nodes are, one for one, the nodes of an earlier chunk or copies of them has that chunk's
// hash. Such chunks are found without hashing their nodes, so a feed's repeated cells cost a
// few comparisons per node instead of the keyed hash of their words.

extension LayoutTree {
    /// A chunk hashed so far, for later chunks of the same nodes: where its nodes' canonical
    /// indices start in the walk's list, and its hash.
    struct HashedChunk {
        var canonicalStart: Int
        var length: Int
        var hash: StructuralHash
    }

    /// The hash of the chunk of the `count` nodes walked from `start` on (`nodes`, their
    /// canonical nodes in `canonical`), whose fingerprint is `fingerprint`: an earlier chunk's
    /// of the same canonical nodes in the same order when every node of it repeats an earlier
    /// one (`repeatsOnly`: none of their words is in `chunkHasher` yet), else the chunk's own,
    /// its words streamed first where they are not. The first chunk of each fingerprint is
    /// kept in `earlier`.
    @inline(__always)
    static func chunkHash(repeatsOnly: Bool, fingerprint: UInt64, start: Int, count: Int,
                          nodes: UnsafeMutableBufferPointer<Int32>, canonical: UnsafeMutableBufferPointer<Int32>,
                          rows: NodeRows, chunkHasher: inout StructuralHasher,
                          earlier: inout [Int: HashedChunk], reused: inout Int) -> StructuralHash {
        let slot = Int(truncatingIfNeeded: fingerprint &+ UInt64(count))
        var hash: StructuralHash
        if repeatsOnly, let match = earlier[slot], match.length == count,
           memcmp(canonical.baseAddress! + match.canonicalStart, canonical.baseAddress! + start,
                  count * MemoryLayout<Int32>.stride) == 0 {
            hash = match.hash
            reused += 1
        } else {
            if repeatsOnly {
                for p in start..<(start + count) { rows.combineNode(Int(nodes[p]), into: &chunkHasher) }
            }
            hash = chunkHasher.finalize()
        }
        if earlier[slot] == nil { earlier[slot] = HashedChunk(canonicalStart: start, length: count, hash: hash) }
        return hash
    }

    /// `hashChunks(root:available:direction:key:recording:)` for a tree with `copies`: the same
    /// hash and chunks. Each node gets a canonical node, the node it is a checked copy of
    /// (through copies of copies) or itself; a chunk all of whose nodes are copies takes the
    /// hash of an earlier chunk with the same canonical nodes in the same order. A copy is
    /// checked against its source node by node (style, content and child count, which make its
    /// words), so a hint that no longer holds only costs time. `reused` counts the chunks that
    /// took an earlier chunk's hash.
    func hashChunks(root r: Int, available: AvailableSize, direction: Direction, key: StructuralHashKey,
                    copies: [CopiedSubtree], recording parts: inout StructuralHashParts?,
                    reused: inout Int) -> StructuralHash {
        if hasInstances {
            let hash = hashChunksExpanded(root: r, available: available, direction: direction, key: key, reused: &reused)
            if parts != nil { parts!.hash = hash }
            return hash
        }
        guard !copies.isEmpty else {
            return hashChunks(root: r, available: available, direction: direction, key: key, recording: &parts)
        }
        var hasher = header(available: available, direction: direction, key: key)
        let records = parts != nil
        // Per node (by index): its mix (see `StructuralHasher`) and canonical node, once walked;
        // the nodes walked so far and their canonical nodes, in walk order. Raw buffers: arrays
        // captured by the walk's closure would pay exclusivity and uniqueness checks per access.
        let mixes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: nodeCount)
        let canonical = UnsafeMutableBufferPointer<Int32>.allocate(capacity: nodeCount)
        let walkedNodes = UnsafeMutableBufferPointer<Int32>.allocate(capacity: nodeCount)
        let walkedCanonical = UnsafeMutableBufferPointer<Int32>.allocate(capacity: nodeCount)
        canonical.initialize(repeating: -1)
        defer {
            mixes.deallocate()
            canonical.deallocate()
            walkedNodes.deallocate()
            walkedCanonical.deallocate()
        }
        // The chunks so far by the fingerprint and length of their canonical nodes.
        var earlier: [Int: HashedChunk] = [:]
        withNodeRows { rows in
            // The copy the walk is in: nodes `copyStart..<copyEnd` are copies of the nodes
            // `sourceOffset` away; the next copy to meet.
            var nextCopy = 0, copyStart = 0, copyEnd = 0, sourceOffset = 0
            var walked = 0
            var window: UInt64 = 0
            var n = r
            while n >= 0 {
                let first = n, entry = window
                let walkStart = walked
                var count = 0, last = n
                var fingerprint: UInt64 = 0
                // Whether every node so far is a checked copy (whose words are not hashed yet).
                var copiesOnly = true
                var chunkHasher = Self.chunkHasher(key)
                repeat {
                    while nextCopy < copies.count && Int(copies[nextCopy].copy.index) < n { nextCopy += 1 }
                    if nextCopy < copies.count && Int(copies[nextCopy].copy.index) == n {
                        let copy = copies[nextCopy]
                        (copyStart, copyEnd) = (n, n + Int(copy.nodeCount))
                        sourceOffset = Int(copy.source.index) - n
                        nextCopy += 1
                    }
                    let mix: UInt64
                    let m = n + sourceOffset
                    if n >= copyStart && n < copyEnd && m >= 0 && m < nodeCount && canonical[m] >= 0 && rows.sameWords(n, m) {
                        mix = mixes[m]
                        canonical[n] = canonical[m]
                        if !copiesOnly { rows.combineNode(n, into: &chunkHasher) }
                    } else {
                        if copiesOnly {
                            // The copies before it in this chunk are hashed after all.
                            for p in walkStart..<walked { rows.combineNode(Int(walkedNodes[p]), into: &chunkHasher) }
                            copiesOnly = false
                        }
                        mix = rows.combineNode(n, into: &chunkHasher)
                        canonical[n] = Int32(n)
                    }
                    mixes[n] = mix
                    walkedNodes[walked] = Int32(n)
                    walkedCanonical[walked] = canonical[n]
                    walked += 1
                    fingerprint = (fingerprint ^ UInt64(UInt32(bitPattern: canonical[n]))) &* 0x9E37_79B9_7F4A_7C15
                    window = Self.hashWindow(window, after: mix)
                    count += 1
                    last = n
                    n = preorderSuccessor(of: n, root: r)
                    if Self.endsHashChunk(window: window, count: count) { break }
                } while n >= 0
                let hash = Self.chunkHash(repeatsOnly: copiesOnly, fingerprint: fingerprint, start: walkStart, count: count,
                                          nodes: walkedNodes, canonical: walkedCanonical, rows: rows,
                                          chunkHasher: &chunkHasher, earlier: &earlier, reused: &reused)
                if records {
                    parts!.chunks.append(StructuralHashParts.Chunk(first: Int32(first), last: Int32(last), length: Int32(count),
                                                                   window: entry, hash: hash))
                }
                hasher.combine(hash.high)
                hasher.combine(hash.low)
            }
        }
        if !references.list.isEmpty { combineReferences(into: &hasher, root: NodeID(r)) }
        let hash = hasher.finalize()
        if records { parts!.hash = hash }
        return hash
    }
}
