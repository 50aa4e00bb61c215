// The whole-tree hash of a tree with instances (see SubtreeInstances.swift): the hash of the
// tree they stand for. Its expanded pre-order streams, for each instance, its source's
// subtree's words (an instance's own row is its source root's, and the descendants are the
// source's); so the chunks and the hash are those of hashing the expanded tree node by node.
// A chunk whose nodes all occurred earlier in the walk (an instance's descendants, after its
// source's) takes the hash of an earlier chunk of the same nodes in the same order when there
// is one, without hashing a word.

extension LayoutTree {
    /// `hashChunks(root:available:direction:key:recording:)` of the tree the instances stand
    /// for. Chunks are not recorded (a tree with instances is not edited, so never rehashed).
    func hashChunksExpanded(root r: Int, available: AvailableSize, direction: Direction,
                            key: StructuralHashKey, reused: inout Int) -> StructuralHash {
        assert(references.list.isEmpty, "a tree with instances and size references")
        var hasher = header(available: available, direction: direction, key: key)
        // The rows to stream, in expanded pre-order: an instance streams its source's subtree.
        let walk = UnsafeMutableBufferPointer<Int32>.allocate(capacity: expandedNodeCount)
        var length = 0
        var next = 0
        Self.walkSubtree(from: r, firstChildren, nextSiblings, parents) { n, _ in
            let k = instancePosition(of: n, next: &next)
            if k < 0 {
                walk[length] = Int32(n)
                length += 1
            } else {
                Self.walkSubtree(from: Int(instances.sources[k]), firstChildren, nextSiblings, parents) { d, _ in
                    walk[length] = Int32(d)
                    length += 1
                }
            }
        }
        // Per node (by index): its mix (see `StructuralHasher`), once streamed.
        let mixes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: nodeCount)
        let streamed = UnsafeMutableBufferPointer<Bool>.allocate(capacity: nodeCount)
        streamed.initialize(repeating: false)
        defer {
            walk.deallocate()
            mixes.deallocate()
            streamed.deallocate()
        }
        // The chunks so far by the fingerprint and length of their nodes.
        var earlier: [Int: HashedChunk] = [:]
        withNodeRows { rows in
            var window: UInt64 = 0
            var e = 0
            while e < length {
                let start = e
                var count = 0
                var fingerprint: UInt64 = 0
                // Whether every node so far was streamed earlier (and is not hashed yet).
                var repeatsOnly = true
                var chunkHasher = Self.chunkHasher(key)
                repeat {
                    let n = Int(walk[e])
                    let mix: UInt64
                    if streamed[n] {
                        mix = mixes[n]
                        if !repeatsOnly { rows.combineNode(n, into: &chunkHasher) }
                    } else {
                        if repeatsOnly {
                            for p in start..<e { rows.combineNode(Int(walk[p]), into: &chunkHasher) }
                            repeatsOnly = false
                        }
                        mix = rows.combineNode(n, into: &chunkHasher)
                        mixes[n] = mix
                        streamed[n] = true
                    }
                    fingerprint = (fingerprint ^ UInt64(UInt32(bitPattern: walk[e]))) &* 0x9E37_79B9_7F4A_7C15
                    window = Self.hashWindow(window, after: mix)
                    count += 1
                    e += 1
                    if Self.endsHashChunk(window: window, count: count) { break }
                } while e < length
                // A node's canonical node is itself: the walk lists nodes, repeats included.
                let hash = Self.chunkHash(repeatsOnly: repeatsOnly, fingerprint: fingerprint, start: start, count: count,
                                          nodes: walk, canonical: walk, rows: rows,
                                          chunkHasher: &chunkHasher, earlier: &earlier, reused: &reused)
                hasher.combine(hash.high)
                hasher.combine(hash.low)
            }
        }
        return hasher.finalize()
    }
}
