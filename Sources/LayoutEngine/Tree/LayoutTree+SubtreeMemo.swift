// Setting up the subtree memo of one layout call (see Algorithm/SubtreeMemo.swift): which
// nodes may share a computation, found in one bottom-up pass with their subtree hashes.

extension LayoutTree {
    /// The memo for a layout of `root`, or nil when subtree reuse is off or cannot be used: the
    /// tree has size references, or a node under `root` has been laid out before (the memo
    /// assumes every subtree starts from a new node's state). Nil too when no subtree repeats.
    func prepareSubtreeMemo(root: Int) -> SubtreeMemoState? {
        guard let reuse = subtreeReuse, references.list.isEmpty, layouts[root].generationCount == 0 else { return nil }
        let order = preorder(from: root)
        var hashes = [StructuralHash](repeating: SubtreeMemoState.pristine, count: nodeCount)
        var sizes = [Int32](repeating: 0, count: nodeCount)
        var candidates = [Bool](repeating: false, count: nodeCount)
        // Per node: what its subtree holds that can make it depend on things outside it.
        var inside = [Inside](repeating: [], count: nodeCount)
        var counts: [StructuralHash: Int32] = [:]
        let key = reuse.key
        let pristine = layouts.withUnsafeBufferPointer { layouts in
            order.allSatisfy { layouts[Int($0)].generationCount == 0 }
        }
        guard pristine else { return nil }
        hashes.withUnsafeMutableBufferPointer { hashes in
            for i32 in order.reversed() {
                let i = Int(i32)
                var size: Int32 = 1
                var below: Inside = []
                var c = Int(firstChildren[i].index)
                while c >= 0 {
                    size += sizes[c]
                    below.formUnion(inside[c])
                    c = Int(nextSiblings[c].index)
                }
                sizes[i] = size
                let own = Self.inside(styles[i], contents[i], hasChildren: size > 1)
                inside[i] = below.union(own)
                hashes[i] = subtreeHash(of: i, key: key, childHashes: UnsafePointer(hashes.baseAddress!))
                if i != root && mayReuse(i, own: own, below: below, size: size) {
                    candidates[i] = true
                    counts[hashes[i], default: 0] += 1
                }
            }
        }
        var candidateCount = 0
        for i32 in order where candidates[Int(i32)] {
            let i = Int(i32)
            if counts[hashes[i]]! >= 2 { candidateCount += 1 } else { candidates[i] = false }
        }
        guard candidateCount > 0 else { return nil }
        var prefix = StructuralHasher(key: key)
        // Domain and format of memo keys, then the config (the same for the whole call).
        prefix.combine(UInt64(0x4D45_4D4F_0000_0001))
        prefix.combine(config.pointScaleFactor)
        prefix.combine(UInt64(config.useWebDefaults ? 1 : 0))
        prefix.combine(UInt64(config.errata.rawValue) << 32 | UInt64(config.experimentalFeatures.rawValue))
        let memo = SubtreeMemoState(hashes: hashes, candidates: candidates, sizes: sizes, prefix: prefix,
                                    store: reuse.store)
        memo.statistics.active = true
        memo.statistics.candidates = candidateCount
        return memo
    }

    /// Whether node `i` (not the root) may copy or be copied: see the list in SubtreeMemo.swift.
    private func mayReuse(_ i: Int, own: Inside, below: Inside, size: Int32) -> Bool {
        let style = styles[i]
        guard style.display == .flex, !own.contains(.placedByHook), !below.contains(.placedByHook),
              !styleFlags[i].contains(.marginPercentOfContainerSize) else { return false }
        if style.positionType == .static && !below.isDisjoint(with: [.absolute, .contents]) { return false }
        // A leaf without content is cheaper to compute than to copy.
        return size > 1 || contents[i].isMeasured
    }

    private static func inside(_ style: Style, _ content: NodeContent, hasChildren: Bool) -> Inside {
        var result: Inside = []
        if style.positionType == .absolute { result.insert(.absolute) }
        if style.display == .contents { result.insert(.contents) }
        switch content {
        case .constraints: result.insert(.placedByHook)
        case .custom where hasChildren: result.insert(.placedByHook)
        default: break
        }
        return result
    }
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
}
