#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Setting up the subtree memo of one layout call (see Algorithm/SubtreeMemo.swift): which
// nodes may share a computation: a cheap fingerprint per subtree first, then keyed subtree
// hashes for the subtrees whose fingerprints repeat (a subtree equal row for row to another
// of its fingerprint takes that one's hashes instead of being hashed).

extension LayoutTree {
    /// The memo for a layout of `root`, or nil when subtree reuse is off or cannot be used: the
    /// tree has size references, or a node under `root` has been laid out before (the memo
    /// assumes every subtree starts from a new node's state). Nil too when no subtree repeats.
    func prepareSubtreeMemo(root: Int) -> SubtreeMemoState? {
        guard let reuse = subtreeReuse, references.list.isEmpty, layouts[root].generationCount == 0 else { return nil }
        // First a cheap unkeyed fingerprint per subtree (equal subtrees, equal prints; unequal
        // ones may share one): most trees have no repeats, and for them the keyed hashes, about
        // 1.5–2× the streamed structural hash, would be wasted. One summary per node, filled in
        // one post-order walk of the links: this pass runs on every uncached request.
        var summaries = [SubtreeSummary](repeating: SubtreeSummary(), count: nodeCount)
        // The possible candidates' prints with their nodes, sorted below to find repeats: a
        // dictionary of counts (growing, hashing) was a third of this pass.
        var printed: [(print: UInt64, node: Int32)] = []
        let pristine = summaries.withUnsafeMutableBufferPointer { summaries in
            layouts.withUnsafeBufferPointer { layouts in
                withNodeRows { rows in
                    Self.summarize(root: root, into: summaries.baseAddress!, printed: &printed, rows: rows,
                                   layouts: layouts.baseAddress!, firstChildren, nextSiblings, parents,
                                   minimumNodes: reuse.minimumNodes)
                }
            }
        }
        guard pristine else { return nil }
        // Candidates stay possible only where their print repeats; a tree without repeats (most
        // uncached requests) stops here.
        printed.sort { $0.print < $1.print }
        var anyRepeat = false
        var run = 0
        while run < printed.count {
            var end = run + 1
            while end < printed.count && printed[end].print == printed[run].print { end += 1 }
            if end - run == 1 { summaries[Int(printed[run].node)].possible = false } else { anyRepeat = true }
            run = end
        }
        // Every source of instances is a candidate, whatever its size and however often its
        // print occurs: its instances are laid out from its snapshots alone.
        if hasInstances {
            guard flagCounts.baseline == 0, structureVersion == instances.structureVersion else { return nil }
            for source in instances.sources {
                let s = Int(source)
                guard s != root, Self.mayBeCopied(display: styles[s].display, position: styles[s].positionType,
                                                  flags: styleFlags[s], inside: summaries[s].inside)
                else { return nil }
                summaries[s].possible = true
            }
            anyRepeat = true
        }
        guard anyRepeat else { return nil }
        let order = preorder(from: root)
        let possible = summaries.map(\.possible)
        var sizes = summaries.map(\.size)
        // The nodes that need keyed hashes: those under a possible candidate whose print repeats.
        var needed = [Bool](repeating: false, count: nodeCount)
        for i32 in order {
            let i = Int(i32)
            let parent = Int(parents[i].index)
            needed[i] = possible[i] || (i != root && parent >= 0 && needed[parent])
        }
        let key = reuse.key
        // A subtree equal, node for node, to a later one with the same print takes that one's
        // hashes instead of being hashed: comparing rows costs a fraction of a keyed hash, and
        // a feed's cells are mostly such copies.
        let (copyOf, insideCopy) = subtreeCopies(order: order, possible: possible, summaries: summaries)
        var hashes = [StructuralHash](repeating: SubtreeMemoState.pristine, count: nodeCount)
        var hashesCopied = 0
        // The nodes whose hash is known to occur twice: each node of a copy and of its source.
        var repeated = [Bool](repeating: false, count: nodeCount)
        hashes.withUnsafeMutableBufferPointer { hashes in
            // Reverse pre-order: children before parents, and a copy's source (later in
            // pre-order, and complete by the time the copy is reached) before the copy.
            for i32 in order.reversed() {
                let i = Int(i32)
                guard needed[i], !insideCopy[i] else { continue }
                if copyOf[i] >= 0 {
                    Self.walkInStep(Int(copyOf[i]), i, firstChildren, nextSiblings, parents) { from, to in
                        hashes[to] = hashes[from]
                        repeated[from] = true
                        repeated[to] = true
                        hashesCopied += 1
                        return true
                    }
                } else {
                    hashes[i] = subtreeHash(of: i, key: key, childHashes: UnsafePointer(hashes.baseAddress!))
                }
            }
        }
        // The others are counted by hash. One equal to a copy but not found as one (it was
        // compared with too few subtrees of its print) is counted without the copies: it may
        // stay out, which only leaves it to be computed.
        var counts: [StructuralHash: Int32] = [:]
        for i32 in order where possible[Int(i32)] && !repeated[Int(i32)] { counts[hashes[Int(i32)], default: 0] += 1 }
        var candidates = possible
        var candidateCount = 0
        for i32 in order where possible[Int(i32)] {
            let i = Int(i32)
            if repeated[i] || counts[hashes[i]]! >= 2 { candidateCount += 1 } else { candidates[i] = false }
        }
        var instanceSources: [Int32] = [], keepsEverySnapshot: [Bool] = []
        if hasInstances {
            let marked = markInstances(hashes: &hashes, sizes: &sizes, candidates: &candidates)
            (instanceSources, keepsEverySnapshot) = (marked.sources, marked.keepsEverySnapshot)
            candidateCount += marked.added
        }
        guard candidateCount > 0 else { return nil }
        var prefix = StructuralHasher(key: key)
        // Domain and format of memo keys, then the config (the same for the whole call).
        prefix.combine(UInt64(0x4D45_4D4F_0000_0001))
        prefix.combine(config.pointScaleFactor)
        prefix.combine(UInt64(config.useWebDefaults ? 1 : 0))
        prefix.combine(UInt64(config.errata.rawValue) << 32 | UInt64(config.experimentalFeatures.rawValue))
        let memo = SubtreeMemoState(hashes: hashes, candidates: candidates, sizes: sizes,
                                    inStorageOrder: Self.inStorageOrder(order: order, candidates: candidates, sizes: sizes),
                                    prefix: prefix, store: reuse.store,
                                    instanceSources: instanceSources, keepsEverySnapshot: keepsEverySnapshot)
        memo.statistics.active = true
        memo.statistics.candidates = candidateCount
        memo.statistics.hashesCopied = hashesCopied
        return memo
    }

    /// Gives each instance its source's hash and size and makes both candidates; an instance's
    /// ancestors stop being candidates. Returns each instance's source by node (-1 elsewhere),
    /// which nodes are sources (they keep every snapshot), and the candidates added.
    // Through buffers, one array at a time: a feed's thousand instances made five uniqueness
    // checks each.
    private func markInstances(hashes: inout [StructuralHash], sizes: inout [Int32], candidates: inout [Bool])
        -> (sources: [Int32], keepsEverySnapshot: [Bool], added: Int) {
        let pairs = zip(instances.nodes, instances.sources)
        var instanceSources = [Int32](repeating: -1, count: nodeCount)
        instanceSources.withUnsafeMutableBufferPointer { sources in
            for (n, s) in pairs { sources[Int(n)] = s }
        }
        var keepsEverySnapshot = [Bool](repeating: false, count: nodeCount)
        keepsEverySnapshot.withUnsafeMutableBufferPointer { keeps in
            for s in instances.sources { keeps[Int(s)] = true }
        }
        hashes.withUnsafeMutableBufferPointer { hashes in
            for (n, s) in pairs { hashes[Int(n)] = hashes[Int(s)] }
        }
        sizes.withUnsafeMutableBufferPointer { sizes in
            for (n, s) in pairs { sizes[Int(n)] = sizes[Int(s)] }
        }
        let added = candidates.withUnsafeMutableBufferPointer { candidates in
            var added = 0
            for (n, s) in pairs {
                if !candidates[Int(s)] { added += 1 }
                candidates[Int(n)] = true
                candidates[Int(s)] = true
            }
            // A snapshot of an instance's ancestor would leave out the instance's descendants.
            // Siblings share their ancestors: each parent is walked once.
            var lastParent = -1
            for n in instances.nodes {
                var a = Int(parents[Int(n)].index)
                guard a != lastParent else { continue }
                lastParent = a
                while a >= 0 {
                    if candidates[a] {
                        candidates[a] = false
                        added -= 1
                    }
                    a = Int(parents[a].index)
                }
            }
            return added
        }
        return (instanceSources, keepsEverySnapshot, added)
    }

    /// Per node: whether it is a candidate whose subtree is stored at its own index and the
    /// indices after it, in pre-order (as a decoder stores a document's nodes), so that a
    /// snapshot's rows are restored into it in one copy (see `LayoutPass.restore`).
    private static func inStorageOrder(order: [Int32], candidates: [Bool], sizes: [Int32]) -> [Bool] {
        var result = [Bool](repeating: false, count: candidates.count)
        // How many nodes from each position of the pre-order on follow each other in storage.
        var run = 1
        for k in order.indices.reversed() {
            if k + 1 < order.count && order[k + 1] == order[k] + 1 { run += 1 } else { run = 1 }
            let i = Int(order[k])
            result[i] = candidates[i] && run >= Int(sizes[i])
        }
        return result
    }

    /// For each possible candidate that is equal, row for row, to a later node with the same
    /// print (a source: not inside a copy, and complete before it in reverse pre-order), that
    /// node; -1 elsewhere. And whether each node lies below such a copy (its hash comes with
    /// the copy's). Equal rows give equal keyed hashes, so this only saves hashing them.
    private func subtreeCopies(order: [Int32], possible: [Bool], summaries: [SubtreeSummary])
        -> (copyOf: [Int32], insideCopy: [Bool]) {
        var copyOf = [Int32](repeating: -1, count: nodeCount)
        var insideCopy = [Bool](repeating: false, count: nodeCount)
        // The distinct subtrees of each print, latest first (a list through `previousSource`):
        // cells whose prints collide (they differ only where the print does not look) may take
        // turns.
        var latestSource: [UInt64: Int32] = [:]
        var previousSource = [Int32](repeating: -1, count: nodeCount)
        withNodeRows { rows in
            for k in order.indices.reversed() {
                let i = Int(order[k])
                guard possible[i] else { continue }
                let print = summaries[i].print
                var r = latestSource[print] ?? -1
                var compared = 0
                while r >= 0 && compared < Self.sourcesPerPrint
                        && !Self.sameSubtree(Int(r), i, rows, firstChildren, nextSiblings, parents) {
                    r = previousSource[Int(r)]
                    compared += 1
                }
                if r >= 0 && compared < Self.sourcesPerPrint {
                    copyOf[i] = r
                    for d in order[(k + 1)..<(k + Int(summaries[i].size))] { insideCopy[Int(d)] = true }
                } else {
                    previousSource[i] = latestSource[print] ?? -1
                    latestSource[print] = Int32(i)
                }
            }
        }
        return (copyOf, insideCopy)
    }

    /// How many distinct subtrees of one print `subtreeCopies` compares a subtree with.
    private static let sourcesPerPrint = 16

    /// Whether the subtrees at `a` and `b` have the same shape and, node for node, the same
    /// style bytes, content and child count: all that their keyed hashes read. Styles differing
    /// only in padding bytes compare unequal, which costs a hash, never a wrong answer.
    private static func sameSubtree(_ a: Int, _ b: Int, _ rows: NodeRows, _ firstChildren: [NodeID],
                                    _ nextSiblings: [NodeID], _ parents: [NodeID]) -> Bool {
        walkInStep(a, b, firstChildren, nextSiblings, parents) { x, y in rows.sameWords(x, y) }
    }

    /// Measured content that streams the same words into a hash: bit for bit, not `==` (which
    /// takes 0 and -0, or two spellings of one character, as equal). Other kinds are not
    /// compared.
    static func sameContent(_ a: UnsafePointer<NodeContent>, _ b: UnsafePointer<NodeContent>) -> Bool {
        // Hook-measured leaves first (the service's text), without copying both contents into
        // a tuple: that copy cost more than the rest of comparing two nodes.
        if case .custom(let x, let xs) = a.pointee {
            guard case .custom(let y, let ys) = b.pointee else { return false }
            return x == y && xs == ys
        }
        switch (a.pointee, b.pointee) {
        case (.fixed(let x), .fixed(let y)), (.benchmarkLeaf(let x), .benchmarkLeaf(let y)):
            return x.width.bitPattern == y.width.bitPattern && x.height.bitPattern == y.height.bitPattern
        case (.custom(let x, let xs), .custom(let y, let ys)): return x == y && xs == ys
        case (.intrinsicText(let x), .intrinsicText(let y)): return x.utf8.elementsEqual(y.utf8)
        default: return false
        }
    }

    /// Visits the subtrees at `a` and `b` in pre-order together, each pair of nodes at the same
    /// place, where both have nodes, until `visit` returns false (then false).
    @discardableResult
    private static func walkInStep(_ a: Int, _ b: Int, _ firstChildren: [NodeID], _ nextSiblings: [NodeID],
                                   _ parents: [NodeID], _ visit: (_ a: Int, _ b: Int) -> Bool) -> Bool {
        var x = a, y = b
        while true {
            guard visit(x, y) else { return false }
            let (fx, fy) = (Int(firstChildren[x].index), Int(firstChildren[y].index))
            if fx >= 0 && fy >= 0 {
                (x, y) = (fx, fy)
                continue
            }
            // Up to the nearest pair of ancestors (within the two subtrees) with next siblings.
            while true {
                guard x != a else { return true }
                let (nx, ny) = (Int(nextSiblings[x].index), Int(nextSiblings[y].index))
                if nx >= 0 && ny >= 0 {
                    (x, y) = (nx, ny)
                    break
                }
                (x, y) = (Int(parents[x].index), Int(parents[y].index))
            }
        }
    }

    /// Fills the summary of every node under `root` (children before parents, by the links: no
    /// order array) and lists the possible candidates' prints; false when a node under `root`
    /// has been laid out before.
    private static func summarize(root: Int, into summaries: UnsafeMutablePointer<SubtreeSummary>,
                                  printed: inout [(print: UInt64, node: Int32)], rows: NodeRows,
                                  layouts: UnsafePointer<NodeLayout>, _ firstChildren: [NodeID],
                                  _ nextSiblings: [NodeID], _ parents: [NodeID], minimumNodes: Int) -> Bool {
        firstChildren.withUnsafeBufferPointer { firstChildren in
            nextSiblings.withUnsafeBufferPointer { nextSiblings in
                parents.withUnsafeBufferPointer { parents in
                    var n = root
                    while true {
                        // Down to the first leaf, then up: each node after all its children.
                        while firstChildren[n].index >= 0 { n = Int(firstChildren[n].index) }
                        while true {
                            guard layouts[n].generationCount == 0 else { return false }
                            var summary = SubtreeSummary(print: ownPrint(rows, n), size: 1)
                            var below: Inside = []
                            var c = Int(firstChildren[n].index)
                            while c >= 0 {
                                let child = summaries[c]
                                summary.size += child.size
                                below.formUnion(child.inside)
                                summary.print = mix(summary.print, child.print)
                                c = Int(nextSiblings[c].index)
                            }
                            let own = ownInside(rows, n, hasChildren: summary.size > 1)
                            summary.inside = below.union(own)
                            summary.print = mix(summary.print, UInt64(summary.size))
                            if n != root && mayReuse(rows, n, own: own, below: below, size: summary.size,
                                                     minimumNodes: minimumNodes) {
                                summary.possible = true
                                printed.append((summary.print, Int32(n)))
                            }
                            summaries[n] = summary
                            if n == root { return true }
                            let next = Int(nextSiblings[n].index)
                            if next >= 0 { n = next; break }
                            n = Int(parents[n].index)
                        }
                    }
                }
            }
        }
    }

    /// A few of node `i`'s own style and content words, mixed: enough to tell most different
    /// nodes apart, cheaply (the keyed hash decides).
    @inline(__always)
    private static func ownPrint(_ rows: NodeRows, _ i: Int) -> UInt64 {
        let s = rows.styles + i
        var fingerprint = UInt64(rows.flags[i].rawValue) | UInt64(s.pointee.flexDirection.rawValue) << 16
            | UInt64(s.pointee.alignItems.rawValue) << 20 | UInt64(s.pointee.justifyContent.rawValue) << 24
            | UInt64(s.pointee.positionType.rawValue) << 28 | UInt64(s.pointee.display.rawValue) << 32
            | UInt64(s.pointee.alignSelf.rawValue) << 36 | UInt64(s.pointee.flexWrap.rawValue) << 40
        fingerprint = mix(fingerprint, StructuralHasher.word(s.pointee.width) ^ StructuralHasher.word(s.pointee.height) << 1)
        fingerprint = mix(fingerprint, UInt64((s.pointee.flexGrow ?? -1).bitPattern)
                                       | UInt64((s.pointee.flexShrink ?? -1).bitPattern) << 32)
        if rows.measured[i] {
            switch rows.contents[i] {
            case .custom(let tag, _): fingerprint = mix(fingerprint, UInt64(bitPattern: Int64(tag)))
            case .intrinsicText(let text): fingerprint = mix(fingerprint, UInt64(text.utf8.count))
            case .fixed(let size), .benchmarkLeaf(let size):
                fingerprint = mix(fingerprint, UInt64(size.width.bitPattern) | UInt64(size.height.bitPattern) << 32)
            default: fingerprint = mix(fingerprint, 7)
            }
        }
        return fingerprint
    }

    @inline(__always) private static func mix(_ h: UInt64, _ word: UInt64) -> UInt64 {
        let m = (h ^ word) &* 0x9E37_79B9_7F4A_7C15
        return m ^ (m >> 29)
    }

    /// Whether node `i` (not the root) may copy or be copied: see the list in SubtreeMemo.swift.
    @inline(__always)
    private static func mayReuse(_ rows: NodeRows, _ i: Int, own: Inside, below: Inside, size: Int32,
                                 minimumNodes: Int) -> Bool {
        guard mayBeCopied(display: rows.styles[i].display, position: rows.styles[i].positionType, flags: rows.flags[i],
                          inside: own.union(below)) else { return false }
        // Worth a memo key (a keyed digest and a table lookup per computation): subtrees with
        // content measured by the hook (text), or of a few nodes. A small box, or a leaf whose
        // content the engine measures itself, computes faster than it is looked up.
        return own.contains(.hookMeasured) || below.contains(.hookMeasured) || Int(size) >= minimumNodes
    }

    /// Whether the subtree at a node of `display`, `position` and `flags`, holding `inside` (its
    /// own and its descendants'), may copy or be copied whatever its size: the rules of the
    /// list in SubtreeMemo.swift, for `mayReuse` and for the sources of instances. (A `static`
    /// flex node is neither absolute nor `contents` itself, so `inside` may hold its own.)
    @inline(__always)
    private static func mayBeCopied(display: Display, position: PositionType, flags: StyleFlags, inside: Inside) -> Bool {
        guard display == .flex, !inside.contains(.placedByHook),
              !flags.contains(.marginPercentOfContainerSize) else { return false }
        return !(position == .static && !inside.isDisjoint(with: [.absolute, .contents]))
    }

    @inline(__always)
    private static func ownInside(_ rows: NodeRows, _ i: Int, hasChildren: Bool) -> Inside {
        var result: Inside = []
        let (display, position) = (rows.styles[i].display, rows.styles[i].positionType)
        if position == .absolute { result.insert(.absolute) }
        if display == .contents { result.insert(.contents) }
        if rows.measured[i] {
            switch rows.contents[i] {
            case .constraints: result.insert(.placedByHook)
            case .custom where hasChildren: result.insert(.placedByHook)
            case .custom: result.insert(.hookMeasured)
            default: break
            }
        }
        return result
    }
}

/// The fingerprint pass's record of one node's subtree.
private struct SubtreeSummary {
    /// The unkeyed fingerprint of the subtree.
    var print: UInt64 = 0
    /// Its nodes.
    var size: Int32 = 0
    /// What it holds that can tie it to nodes outside it.
    var inside: Inside = []
    /// Whether it may copy or be copied, as far as its print can tell (a repeat is still needed).
    var possible = false
}

/// What a subtree holds that can tie its layout to nodes outside it.
private struct Inside: OptionSet {
    let rawValue: UInt8
    /// An absolutely positioned node (laid out by its containing block).
    static let absolute = Inside(rawValue: 1 << 0)
    /// A `display: contents` node (cleaned up by a containing block walking static nodes).
    static let contents = Inside(rawValue: 1 << 1)
    /// A node whose children a hook or a constraint solver places, by node id.
    static let placedByHook = Inside(rawValue: 1 << 2)
    /// A leaf measured by the measure hook (`.custom`: the service's text leaves).
    static let hookMeasured = Inside(rawValue: 1 << 3)
}
