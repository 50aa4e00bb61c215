#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LayoutTree {
    /// A chunk of the whole-tree hash (see `structuralHash`) is cut after one node in 2^5 = 32
    /// on average: an edit rehashes about one chunk and the chunk list, so some 32 + 2n/32
    /// words for n nodes (~100 for 1,000 nodes) where a flat stream would rehash all n nodes,
    /// at the price of one more finalisation per 32 nodes on a whole hash.
    static let structuralHashCutBits: UInt64 = 5
    /// The longest chunk: one is cut there when no node's words cut it sooner.
    static let structuralHashMaxChunkNodes = 128

    /// The cutting window after a node whose words mixed to `mix` (`StructuralHasher`'s word
    /// mix) follows `window`: a byte of each of the last eight nodes' mixes. Eight nodes, not
    /// one: a tree of repeated cells has few distinct nodes, which one node's words alone
    /// would cut seldom or never.
    @inline(__always)
    static func hashWindow(_ window: UInt64, after mix: UInt64) -> UInt64 {
        window << 8 | mix >> 56
    }

    /// Whether a chunk ends at `window` (see `hashWindow`) after its `count`th node: when the
    /// window's mix has its top `structuralHashCutBits` bits set (one node in 32), or at
    /// `structuralHashMaxChunkNodes`. Content-defined (as rsync's rolling checksum cuts files):
    /// a chunk's end depends on the nodes before it, not on its position, so after children are
    /// added or removed the chunks fall back into step with the old ones at the next cut, and
    /// the chunks from there on are the old ones (`rehash(_:changed:placed:)`).
    @inline(__always)
    static func endsHashChunk(window: UInt64, count: Int) -> Bool {
        let cutMask: UInt64 = 1 << structuralHashCutBits - 1
        return (window &* 0x9E37_79B9_7F4A_7C15) >> (64 - structuralHashCutBits) == cutMask
            || count >= structuralHashMaxChunkNodes
    }

    /// A 128-bit hash of everything that decides the layout of the subtree at `root`: the
    /// config, the available size, the owner direction, and each node's style, content and
    /// children in order. Caller-side identity (node ids, `NodeID` numbering) is not part of
    /// it, so two requests that differ only in ids share a hash. Keyed (SipHash-2-4-128): the
    /// same under the same `key` in any process; the default key is random per process, so
    /// pass a configured one where hashes must agree across processes (a shared cache).
    ///
    /// Two levels (a hash list): the nodes in pre-order, cut into chunks where
    /// `endsHashChunk` says, are each hashed as one stream; the result hashes the header
    /// (config, available size, direction), the chunks' hashes in order and the size
    /// references. So an edit rehashes only the chunks it touches (`rehash`), and gives the
    /// same hash as hashing the edited tree whole.
    ///
    /// `copies` (a decoder's copied subtrees, see `CopiedSubtree`) lets a run of copied nodes
    /// take the hash of an earlier chunk of the same nodes instead of being hashed again; the
    /// hash is the same with or without it.
    public func structuralHash(root: NodeID, available: AvailableSize = AvailableSize(),
                               direction: Direction = .ltr,
                               key: StructuralHashKey = .processRandom, copies: [CopiedSubtree] = []) -> StructuralHash {
        var ignored = StructuralHashParts?.none, reused = 0
        return hashChunks(root: Int(root.index), available: available, direction: direction, key: key,
                          copies: copies, recording: &ignored, reused: &reused)
    }

    /// The structural hash of the subtree at `root` (as `structuralHash`) with its chunks kept,
    /// for `rehash` after edits.
    public func structuralHashParts(root: NodeID, available: AvailableSize = AvailableSize(),
                                    direction: Direction = .ltr,
                                    key: StructuralHashKey = .processRandom,
                                    copies: [CopiedSubtree] = []) -> StructuralHashParts {
        var parts: StructuralHashParts? = StructuralHashParts(root: root.index, structureVersion: structureVersion,
                                                             nodeCount: nodeCount)
        var reused = 0
        _ = hashChunks(root: Int(root.index), available: available, direction: direction, key: key,
                       copies: copies, recording: &parts, reused: &reused)
        return parts!
    }

    /// The structural hash after `changed` nodes' style or content were replaced (`setStyle`,
    /// `setContent`) since `parts` were made: only those nodes' chunks are hashed again (and
    /// their neighbours, when an edit moves a chunk's end), and `parts` are brought up to
    /// date. When the tree's structure, root or node count changed since (parts that no longer
    /// describe it), everything is hashed again. `available`, `direction` and `key` must be
    /// those `parts` were made with.
    public func rehash(_ parts: inout StructuralHashParts, changed: [NodeID], available: AvailableSize = AvailableSize(),
                       direction: Direction = .ltr, key: StructuralHashKey = .processRandom) -> StructuralHash {
        guard parts.structureVersion == structureVersion, parts.nodeCount == nodeCount else {
            parts = structuralHashParts(root: NodeID(parts.root), available: available, direction: direction, key: key)
            return parts.hash
        }
        // Made at the first rehash, not with the parts: most kept trees are never patched.
        if parts.positions.isEmpty && !changed.isEmpty { parts.positions = preorderPositions(root: NodeID(parts.root)) }
        let edited = changed.map { parts.positions[Int($0.index)] }.filter { $0 >= 0 } // outside the hashed subtree: none
        guard let lastEdited = edited.max() else {
            return combineChunks(of: &parts, available: available, direction: direction, key: key)
        }
        let firstPositions = parts.chunkFirstPositions()
        var chunks: [Int] = []
        for position in edited {
            // The last chunk that starts at or before `position`.
            var low = 0, high = firstPositions.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if firstPositions[middle] <= position { low = middle } else { high = middle - 1 }
            }
            if !chunks.contains(low) { chunks.append(low) }
        }
        for chunk in chunks.sorted() where !rehashChunksInPlace(from: chunk, of: &parts, key: key) {
            // The edit moved a chunk's end: the chunks are cut again from there, until they fall
            // back into step with the old ones past the last edit.
            recut(&parts, from: chunk, firstPosition: firstPositions[chunk], until: lastEdited, key: key)
            break
        }
        return combineChunks(of: &parts, available: available, direction: direction, key: key)
    }

    /// Cuts and hashes the chunks of `parts` again from chunk `first` (at pre-order position
    /// `firstPosition`), over an unchanged structure, until a chunk starts past position
    /// `lastEdited` where an old one started after the same window: the old ones hold from there.
    private func recut(_ parts: inout StructuralHashParts, from first: Int, firstPosition: Int, until lastEdited: Int,
                       key: StructuralHashKey) {
        let root = Int(parts.root)
        let chunks = parts.chunks
        var oldChunks: [Int32: Int] = [:]
        oldChunks.reserveCapacity(chunks.count - first)
        for chunk in (first + 1)..<chunks.count { oldChunks[chunks[chunk].first] = chunk }
        var cut: [StructuralHashParts.Chunk] = []
        var n = Int(chunks[first].first)
        var window = chunks[first].window
        var position = firstPosition
        var resume = chunks.count
        withNodeRows { rows in
            while n >= 0 {
                if position > lastEdited, let old = oldChunks[Int32(n)], chunks[old].window == window {
                    resume = old
                    return
                }
                cut.append(hashChunk(from: &n, window: &window, rows: rows, root: root, key: key))
                position += Int(cut.last!.length)
            }
        }
        parts.chunks.replaceSubrange(first..<resume, with: cut)
    }

    /// Hashes one chunk from node `n` after `window`, cut where `endsHashChunk` says or where
    /// the tree ends, and moves `n` and `window` past it.
    @inline(__always)
    private func hashChunk(from n: inout Int, window: inout UInt64, rows: NodeRows, root: Int,
                           key: StructuralHashKey) -> StructuralHashParts.Chunk {
        var hasher = Self.chunkHasher(key)
        let first = n, entry = window
        var count = 0
        var last = n
        repeat {
            window = Self.hashWindow(window, after: rows.combineNode(n, into: &hasher))
            count += 1
            last = n
            n = preorderSuccessor(of: n, root: root)
            if Self.endsHashChunk(window: window, count: count) { break }
        } while n >= 0
        return StructuralHashParts.Chunk(first: Int32(first), last: Int32(last), length: Int32(count), window: entry,
                                         hash: hasher.finalize())
    }

    /// Hashes chunk `chunk` of `parts` again over the same nodes, and the chunks after it while
    /// the window they start with changed; false (and `parts` unchanged) when the nodes' words
    /// now cut one of them elsewhere.
    private func rehashChunksInPlace(from chunk: Int, of parts: inout StructuralHashParts, key: StructuralHashKey) -> Bool {
        let root = Int(parts.root)
        let chunks = parts.chunks.count
        var rehashed: [(chunk: Int, hash: StructuralHash, window: UInt64)] = []
        var c = chunk
        var window = parts.chunks[c].window
        let sameCuts = withNodeRows { rows -> Bool in
            while true {
                var hasher = Self.chunkHasher(key)
                var n = Int(parts.chunks[c].first)
                let entry = window
                let length = Int(parts.chunks[c].length)
                for count in 1...length {
                    window = Self.hashWindow(window, after: rows.combineNode(n, into: &hasher))
                    let ends = Self.endsHashChunk(window: window, count: count)
                    // The last chunk ends with the tree, cut or not.
                    if count == length { if !ends && c != chunks - 1 { return false } } else if ends { return false }
                    n = preorderSuccessor(of: n, root: root)
                }
                rehashed.append((c, hasher.finalize(), entry))
                c += 1
                if c == chunks || parts.chunks[c].window == window { return true }
            }
        }
        guard sameCuts else { return false }
        for (chunk, hash, entry) in rehashed {
            parts.chunks[chunk].hash = hash
            parts.chunks[chunk].window = entry
        }
        return true
    }

    /// The whole-tree hash of `parts`' chunks (kept there too).
    private func combineChunks(of parts: inout StructuralHashParts, available: AvailableSize, direction: Direction,
                               key: StructuralHashKey) -> StructuralHash {
        var hasher = header(available: available, direction: direction, key: key)
        for chunk in parts.chunks {
            hasher.combine(chunk.hash.high)
            hasher.combine(chunk.hash.low)
        }
        if !references.list.isEmpty { combineReferences(into: &hasher, root: NodeID(parts.root)) }
        parts.hash = hasher.finalize()
        return parts.hash
    }

    /// The structural hash after children were added, removed or moved under the hashed root
    /// since `parts` were made, `changed` nodes' own records may differ (members edited, or
    /// children added or removed: a node's record holds its child count), and the subtrees at
    /// `placed` were inserted (added or moved there): the same hash as hashing the edited tree
    /// whole. Every node is walked, but only the chunks that hold an edit are hashed again: an
    /// old chunk is taken as it was where the walk starts a chunk at its first node and
    /// finds its nodes in order, none changed or placed. A chat that gets a message at its end
    /// and loses its first rehashes its root's chunk, the first message's and its last ones.
    /// `available`, `direction` and `key` must be those `parts` were made with.
    public func rehash(_ parts: inout StructuralHashParts, changed: [NodeID], placed: [NodeID],
                       available: AvailableSize = AvailableSize(), direction: Direction = .ltr,
                       key: StructuralHashKey = .processRandom) -> StructuralHash {
        let root = Int(parts.root)
        // Size references name nodes by pre-order position, which the edits move: hashed whole.
        guard references.list.isEmpty, !parts.chunks.isEmpty else {
            parts = structuralHashParts(root: NodeID(parts.root), available: available, direction: direction, key: key)
            return parts.hash
        }
        var edited = [Bool](repeating: false, count: nodeCount)
        for node in changed { edited[Int(node.index)] = true }
        for subtree in placed {
            for node in preorderNodes(root: subtree) { edited[Int(node.index)] = true }
        }
        let chunks = parts.chunks
        var oldChunks: [Int32: Int] = [:]
        oldChunks.reserveCapacity(chunks.count)
        for (index, chunk) in chunks.enumerated() { oldChunks[chunk.first] = index }
        let lastOld = chunks.count - 1
        var rebuilt = StructuralHashParts(root: parts.root, structureVersion: structureVersion, nodeCount: nodeCount)
        var hashedNodes = 0
        edited.withUnsafeBufferPointer { edited in
            withNodeRows { rows in
                var n = root
                var window: UInt64 = 0
                while n >= 0 {
                    // An old chunk that starts here after the same window, if its nodes follow
                    // in order, unedited: its nodes are cut as they were.
                    if let old = oldChunks[Int32(n)], chunks[old].window == window {
                        let end = Int(chunks[old].last), length = Int(chunks[old].length)
                        var m = n, count = 1
                        while !edited[m] && m != end && count < length {
                            m = preorderSuccessor(of: m, root: root)
                            if m < 0 { break }
                            count += 1
                        }
                        if m >= 0 && m == end && count == length && !edited[m] {
                            let next = preorderSuccessor(of: m, root: root)
                            // The old last chunk ended with the tree, not by a cut: it holds only there.
                            if old != lastOld || next < 0 {
                                rebuilt.chunks.append(chunks[old])
                                if old != lastOld { window = chunks[old + 1].window }
                                n = next
                                continue
                            }
                        }
                    }
                    rebuilt.chunks.append(hashChunk(from: &n, window: &window, rows: rows, root: root, key: key))
                    hashedNodes += Int(rebuilt.chunks.last!.length)
                }
            }
        }
        rebuilt.hashedNodes = hashedNodes
        parts = rebuilt
        return combineChunks(of: &parts, available: available, direction: direction, key: key)
    }

    /// The position of `node` in the pre-order walk of the subtree at `root` (the root's is 0),
    /// found by walking it; nil when `node` is not in that subtree.
    public func preorderPosition(of node: NodeID, root: NodeID) -> Int? {
        var n = Int(root.index)
        var position = 0
        while n >= 0 {
            if n == Int(node.index) { return position }
            position += 1
            n = preorderSuccessor(of: n, root: Int(root.index))
        }
        return nil
    }

    /// The whole-tree hash's first words: format, config, available size and direction.
    func header(available: AvailableSize, direction: Direction, key: StructuralHashKey) -> StructuralHasher {
        var hasher = StructuralHasher(key: key)
        // Format version: bump when the stream changes. 2: styles stream only non-default
        // fields behind a mask, and a node's content kind shares a word with its child count.
        // 3: nodes hashed in chunks of 32 nodes, the chunks' hashes here.
        // 4: chunks cut by their last nodes' words (`endsHashChunk`), not every 32 nodes.
        hasher.combine(UInt64(0x4C41_594F_5554_0004))
        hasher.combine(config.pointScaleFactor)
        hasher.combine(UInt64(config.useWebDefaults ? 1 : 0))
        hasher.combine(UInt64(config.errata.rawValue) << 32 | UInt64(config.experimentalFeatures.rawValue))
        hasher.combine(available.width)
        hasher.combine(available.height)
        hasher.combine(UInt64(direction.rawValue))
        return hasher
    }

    /// A chunk's hasher, its domain word absorbed (distinct from the header's stream and from
    /// the subtree hashes').
    @inline(__always)
    static func chunkHasher(_ key: StructuralHashKey) -> StructuralHasher {
        var hasher = StructuralHasher(key: key)
        hasher.combine(UInt64(0x4348_554E_4B00_0004))
        return hasher
    }

    /// The node rows that hashes and fingerprints read, borrowed for one walk.
    // Read in place: an array subscript copies the (few hundred byte) style and the content
    // (retaining its payload), which was most of a whole-tree hash.
    @inline(__always)
    func withNodeRows<R>(_ body: (NodeRows) -> R) -> R {
        styles.withUnsafeBufferPointer { styles in
            styleFlags.withUnsafeBufferPointer { flags in
                contents.withUnsafeBufferPointer { contents in
                    measuredFlags.withUnsafeBufferPointer { measured in
                        childCounts.withUnsafeBufferPointer { counts in
                            body(NodeRows(styles: styles.baseAddress!, flags: flags.baseAddress!,
                                          contents: contents.baseAddress!, measured: measured.baseAddress!,
                                          childCounts: counts.baseAddress!))
                        }
                    }
                }
            }
        }
    }

    /// The node after `n` in pre-order within the subtree at `root`, or -1 after its last.
    // Walks the links by index (no stack, no ChildSequence retaining the links array), so
    // trees deeper than the thread's stack are fine and a chunk can start anywhere.
    @inline(__always)
    func preorderSuccessor(of n: Int, root: Int) -> Int {
        let first = Int(firstChildren[n].index)
        if first >= 0 { return first }
        var m = n
        while m != root {
            let next = Int(nextSiblings[m].index)
            if next >= 0 { return next }
            m = Int(parents[m].index)
        }
        return -1
    }

    /// The whole-tree hash; with `recording` set, its chunks are kept there.
    func hashChunks(root r: Int, available: AvailableSize, direction: Direction, key: StructuralHashKey,
                            recording parts: inout StructuralHashParts?) -> StructuralHash {
        var hasher = header(available: available, direction: direction, key: key)
        let records = parts != nil
        var window: UInt64 = 0
        var n = r
        withNodeRows { rows in
            while n >= 0 {
                let chunk = hashChunk(from: &n, window: &window, rows: rows, root: r, key: key)
                if records { parts!.chunks.append(chunk) }
                hasher.combine(chunk.hash.high)
                hasher.combine(chunk.hash.low)
            }
        }
        if !references.list.isEmpty { combineReferences(into: &hasher, root: NodeID(r)) }
        let hash = hasher.finalize()
        if records { parts!.hash = hash }
        return hash
    }

    /// The size references, each node named by its pre-order position under `root` (not its
    /// `NodeID`, which the hash leaves out); -1 for a node outside the subtree.
    func combineReferences(into hasher: inout StructuralHasher, root: NodeID) {
        let positions = preorderPositions(root: root)
        hasher.combine(UInt64(references.list.count))
        for reference in references.list {
            hasher.combine(UInt64(bitPattern: Int64(positions[Int(reference.node.index)])))
            hasher.combine(UInt64(bitPattern: Int64(positions[Int(reference.source.index)])))
            hasher.combine(UInt64(reference.dimension.rawValue))
            hasher.combine(reference.multiplier)
        }
    }
}

/// A tree's per-node rows as hashes and fingerprints read them: pointers into its arrays,
/// valid inside `LayoutTree.withNodeRows`.
struct NodeRows {
    let styles: UnsafePointer<Style>
    let flags: UnsafePointer<StyleFlags>
    let contents: UnsafePointer<NodeContent>
    /// Whether a node's content is measured (not `.none`): a Bool, cheaper to test than the
    /// content's case.
    let measured: UnsafePointer<Bool>
    let childCounts: UnsafePointer<Int32>

    /// One node's words: its style, then its content kind and child count (so the shape is
    /// recoverable from the stream) and the content's words. Returns the mix of those words
    /// (see `StructuralHasher`), by which the whole-tree hash cuts its chunks.
    @inline(__always) @discardableResult
    func combineNode(_ i: Int, into hasher: inout StructuralHasher) -> UInt64 {
        _ = hasher.takeWordMix()
        hasher.combine(style: styles + i, flags: flags[i])
        hasher.combine(content: contents + i, childCount: childCounts[i])
        return hasher.takeWordMix()
    }

    /// Whether nodes `x` and `y` stream the same words into `combineNode`: the same child
    /// count, style bytes and content. Styles that differ only in padding bytes compare
    /// unequal, which costs a hash, never a wrong one.
    @inline(__always)
    func sameWords(_ x: Int, _ y: Int) -> Bool {
        childCounts[x] == childCounts[y] && measured[x] == measured[y]
            && memcmp(styles + x, styles + y, MemoryLayout<Style>.size) == 0
            && (!measured[x] || LayoutTree.sameContent(contents + x, contents + y))
    }
}

extension StructuralHasher {
    /// A style as few words (format 2): its keywords packed in one word together with a mask
    /// of the 14 numeric fields that differ from their default, those fields' words, then one
    /// word of four 9-bit masks (margin, position, padding, border: the edges that are not
    /// `undefined`) and those edges' words. Most nodes set a handful of the 50 numeric fields,
    /// so this streams ~7 words where format 1 streamed 55.
    // Inlined into the walk, so the hasher's state stays in registers.
    // `flags` (the node's `StyleFlags`) only skips reading edges known to be all undefined:
    // the words streamed are the same.
    @inline(__always)
    mutating func combine(style s: UnsafePointer<Style>, flags: StyleFlags) {
        // Keywords packed into one word; each field has its own 4 bits.
        var head = UInt64(s.pointee.direction.rawValue)
        head |= UInt64(s.pointee.flexDirection.rawValue) << 4
        head |= UInt64(s.pointee.justifyContent.rawValue) << 8
        head |= UInt64(s.pointee.alignContent.rawValue) << 12
        head |= UInt64(s.pointee.alignItems.rawValue) << 16
        head |= UInt64(s.pointee.alignSelf.rawValue) << 20
        head |= UInt64(s.pointee.positionType.rawValue) << 24
        head |= UInt64(s.pointee.flexWrap.rawValue) << 28
        head |= UInt64(s.pointee.overflow.rawValue) << 32
        head |= UInt64(s.pointee.display.rawValue) << 36
        head |= UInt64(s.pointee.boxSizing.rawValue) << 40
        head |= UInt64(s.pointee.percentMarginsAgainstContainerSize ? 1 : 0) << 44
        // The numeric fields in declaration order of format 1, bit 48 upward. A field's bit
        // is set when its word differs from its default's; only those words are computed.
        var mask: UInt64 = 0
        if s.pointee.flex != nil { mask |= 1 << 0 }
        if s.pointee.flexGrow != nil { mask |= 1 << 1 }
        if s.pointee.flexShrink != nil { mask |= 1 << 2 }
        if s.pointee.aspectRatio != nil { mask |= 1 << 3 }
        if Self.differs(s.pointee.flexBasis, from: .auto) { mask |= 1 << 4 }
        if Self.differs(s.pointee.width, from: .auto) { mask |= 1 << 5 }
        if Self.differs(s.pointee.height, from: .auto) { mask |= 1 << 6 }
        if Self.differs(s.pointee.minWidth, from: .undefined) { mask |= 1 << 7 }
        if Self.differs(s.pointee.minHeight, from: .undefined) { mask |= 1 << 8 }
        if Self.differs(s.pointee.maxWidth, from: .undefined) { mask |= 1 << 9 }
        if Self.differs(s.pointee.maxHeight, from: .undefined) { mask |= 1 << 10 }
        if Self.differs(s.pointee.columnGap, from: .undefined) { mask |= 1 << 11 }
        if Self.differs(s.pointee.rowGap, from: .undefined) { mask |= 1 << 12 }
        if Self.differs(s.pointee.gap, from: .undefined) { mask |= 1 << 13 }
        combine(head | mask << 48)
        if mask != 0 {
            if mask & (1 << 0) != 0 { combine(Self.word(s.pointee.flex!)) }
            if mask & (1 << 1) != 0 { combine(Self.word(s.pointee.flexGrow!)) }
            if mask & (1 << 2) != 0 { combine(Self.word(s.pointee.flexShrink!)) }
            if mask & (1 << 3) != 0 { combine(Self.word(s.pointee.aspectRatio!)) }
            if mask & (1 << 4) != 0 { combine(s.pointee.flexBasis) }
            if mask & (1 << 5) != 0 { combine(s.pointee.width) }
            if mask & (1 << 6) != 0 { combine(s.pointee.height) }
            if mask & (1 << 7) != 0 { combine(s.pointee.minWidth) }
            if mask & (1 << 8) != 0 { combine(s.pointee.minHeight) }
            if mask & (1 << 9) != 0 { combine(s.pointee.maxWidth) }
            if mask & (1 << 10) != 0 { combine(s.pointee.maxHeight) }
            if mask & (1 << 11) != 0 { combine(s.pointee.columnGap) }
            if mask & (1 << 12) != 0 { combine(s.pointee.rowGap) }
            if mask & (1 << 13) != 0 { combine(s.pointee.gap) }
        }
        let margin = flags.contains(.margin) ? Self.setMask(s.pointee.margin) : 0
        let position = flags.contains(.insets) ? Self.setMask(s.pointee.position) : 0
        let paddingOrBorder = flags.contains(.paddingOrBorder)
        let padding = paddingOrBorder ? Self.setMask(s.pointee.padding) : 0
        let border = paddingOrBorder ? Self.setMask(s.pointee.border) : 0
        combine(margin | position << 9 | padding << 18 | border << 27)
        combine(edges: s.pointee.margin, mask: margin)
        combine(edges: s.pointee.position, mask: position)
        combine(edges: s.pointee.padding, mask: padding)
        combine(edges: s.pointee.border, mask: border)
    }

    /// Whether `value`'s word differs from the word of the keyword `unit` (value 0): another
    /// unit, or a value other than ±0.
    @inline(__always)
    static func differs(_ value: StyleValue, from unit: StyleValue.Unit) -> Bool {
        // Integer ops without branches: the value's bits without the sign are 0 only for ±0.
        (UInt32(value.unit.rawValue ^ unit.rawValue) | value.value.bitPattern & 0x7FFF_FFFF) != 0
    }

    /// Bit k set when edge k (left, top, right, bottom, start, end, horizontal, vertical, all)
    /// is not `undefined`.
    @inline(__always)
    static func setMask(_ e: Edges) -> UInt64 {
        var m: UInt64 = 0
        if differs(e.left, from: .undefined) { m |= 1 << 0 }
        if differs(e.top, from: .undefined) { m |= 1 << 1 }
        if differs(e.right, from: .undefined) { m |= 1 << 2 }
        if differs(e.bottom, from: .undefined) { m |= 1 << 3 }
        if differs(e.start, from: .undefined) { m |= 1 << 4 }
        if differs(e.end, from: .undefined) { m |= 1 << 5 }
        if differs(e.horizontal, from: .undefined) { m |= 1 << 6 }
        if differs(e.vertical, from: .undefined) { m |= 1 << 7 }
        if differs(e.all, from: .undefined) { m |= 1 << 8 }
        return m
    }

    /// The words of the edges in `mask` (see `setMask`), in edge order.
    @inline(__always)
    mutating func combine(edges e: Edges, mask: UInt64) {
        guard mask != 0 else { return }
        if mask & (1 << 0) != 0 { combine(e.left) }
        if mask & (1 << 1) != 0 { combine(e.top) }
        if mask & (1 << 2) != 0 { combine(e.right) }
        if mask & (1 << 3) != 0 { combine(e.bottom) }
        if mask & (1 << 4) != 0 { combine(e.start) }
        if mask & (1 << 5) != 0 { combine(e.end) }
        if mask & (1 << 6) != 0 { combine(e.horizontal) }
        if mask & (1 << 7) != 0 { combine(e.vertical) }
        if mask & (1 << 8) != 0 { combine(e.all) }
    }

    /// A node's content kind and child count in one word, then the content's own words.
    mutating func combine(content: UnsafePointer<NodeContent>, childCount: Int32) {
        let count = UInt64(UInt32(bitPattern: childCount)) << 8
        switch content.pointee {
        case .none:
            combine(0 | count)
        case .fixed(let size):
            combine(1 | count)
            combine(size.width)
            combine(size.height)
        case .intrinsicText(let text):
            combine(2 | count)
            combine(text)
        case .benchmarkLeaf(let size):
            combine(3 | count)
            combine(size.width)
            combine(size.height)
        case .custom(let tag, let flexSizing):
            // Kind 7 for CSS flex sizing, so Yoga-sized content hashes as it always did.
            combine((flexSizing == .yoga ? 4 : 7) | count)
            combine(UInt64(bitPattern: Int64(tag)))
        case .constraints(let container):
            combine(5 | count)
            combine(constraintContainer: container)
        case .proportional(let size):
            combine(6 | count)
            combine(size.width?.multiplier)
            combine(size.width?.constant)
            combine(size.height?.multiplier)
            combine(size.height?.constant)
            combine(UInt64(size.roundsUp ? 1 : 0))
        }
    }
}

/// The whole-tree structural hash of a tree with its chunks (see `LayoutTree.structuralHash`),
/// so that after edits of nodes' own style or content `LayoutTree.rehash` hashes only their
/// chunks again.
public struct StructuralHashParts: Sendable {
    /// The hash of the tree as of the last `structuralHashParts` or `rehash`.
    public internal(set) var hash = StructuralHash(high: 0, low: 0)
    let root: Int32
    /// The tree's `structureVersion` and node count the parts describe.
    var structureVersion: UInt32
    var nodeCount: Int
    /// One chunk of the hash: its first and last node, node count, the cutting window before
    /// its first node (`LayoutTree.hashWindow`) and its hash.
    struct Chunk: Sendable {
        var first: Int32
        var last: Int32
        var length: Int32
        var window: UInt64
        var hash: StructuralHash
    }

    /// The chunks in pre-order.
    var chunks: [Chunk] = []
    /// Each node's pre-order position under `root` by `NodeID.index` (-1 outside); empty
    /// until the first `rehash`.
    var positions: [Int] = []
    /// Nodes the last structural `rehash` hashed again (nil: none ran); for tests and benchmarks.
    public internal(set) var hashedNodes: Int?

    init(root: Int32, structureVersion: UInt32, nodeCount: Int) {
        self.root = root
        self.structureVersion = structureVersion
        self.nodeCount = nodeCount
    }

    /// Each chunk's first pre-order position.
    func chunkFirstPositions() -> [Int] {
        var positions: [Int] = []
        positions.reserveCapacity(chunks.count)
        var position = 0
        for chunk in chunks {
            positions.append(position)
            position += Int(chunk.length)
        }
        return positions
    }

    /// What the parts hold on the heap, for caches that charge it.
    public var heapBytes: Int {
        HeapCharge.array(chunks) + HeapCharge.array(positions)
    }
}
