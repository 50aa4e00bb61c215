// Repeated subtrees laid out once (the layout-service counterpart of Yoga's per-node cache,
// across nodes instead of across calls). Yoga's result for a node depends only on the node's
// subtree, the state of that subtree, and the arguments of calculateLayoutInternal (available
// sizes, sizing modes, owner sizes, owner direction, performLayout) under one config. So two
// nodes with the same subtree hash, whose subtrees start in the same state and receive the same
// sequence of calls, end in the same state: the second copies the first's instead of computing.
//
// State: the memo runs only on a tree whose every node is new (first layout, or after a reset),
// so each subtree starts from the same state; a node's history is a keyed digest of the calls
// it got so far (`history`), and the memo key of a call digests subtree hash, history and the
// call's arguments. The copy covers every per-node value the call writes: the root's own
// results and cache entries, and everything of its descendants (the values its parent writes
// on it, position, flex basis and line, are left alone).
//
// Left out, because their layout reads or is written by something outside the subtree:
// - the root of the layout (Yoga treats a node without parent differently);
// - trees with size references (a node sized from another node's frame, set between passes);
// - nodes whose margin percentages resolve against the parent's size (StackViewLayout);
// - `position: static` nodes with absolutely positioned or `display: contents` nodes inside:
//   an ancestor (their containing block) lays those out;
// - subtrees with constraint containers or `.custom` nodes with children (placed by hooks that
//   are given node ids);
// - leaves without content (copying costs more than computing them).
// `.custom` leaves are measured by the hook with their tag, which must identify what the hook
// measures (the service's tag digests the text, its style and the fonts).

/// The memo of one layout call, made by `LayoutTree.prepareSubtreeMemo`.
final class SubtreeMemoState {
    /// Per node: its subtree hash (zero when not a candidate).
    var hashes: [StructuralHash]
    /// Per node: whether its layout may be copied from or to another node's.
    var candidates: [Bool]
    /// Per node: the nodes of its subtree.
    var sizes: [Int32]
    /// Per node: a digest of the calls it got this layout call (zero: none yet; `unknown` after
    /// a call that was not digested).
    var history: [StructuralHash]
    /// The key with the memo format and the config absorbed, copied for each call's digest.
    let prefix: StructuralHasher
    /// Snapshots made during this call, by memo key.
    var table: [StructuralHash: SubtreeSnapshot] = [:]
    let store: (any SubtreeSnapshotStore)?
    var statistics = SubtreeReuseStatistics()

    static let unknown = StructuralHash(high: ~0, low: ~0)
    static let pristine = StructuralHash(high: 0, low: 0)

    init(hashes: [StructuralHash], candidates: [Bool], sizes: [Int32], prefix: StructuralHasher,
         store: (any SubtreeSnapshotStore)?) {
        self.hashes = hashes
        self.candidates = candidates
        self.sizes = sizes
        self.history = [StructuralHash](repeating: Self.pristine, count: hashes.count)
        self.prefix = prefix
        self.store = store
    }

    /// A float's exact bits (one NaN), so equal keys mean bit-identical arguments.
    @inline(__always) static func word(_ value: Float) -> UInt64 {
        UInt64(value.isNaN ? Float.nan.bitPattern : value.bitPattern)
    }
}

extension LayoutPass {
    /// Lays out or measures `n` (see `calculateLayoutCached`), copying the result of an equal
    /// subtree that got the same calls when subtree reuse is on.
    @discardableResult
    @inline(__always)
    func calculateLayoutInternal(_ n: Int, _ availableWidth: Float, _ availableHeight: Float,
                                 _ ownerDirection: Direction,
                                 _ widthMode: SizingMode, _ heightMode: SizingMode,
                                 _ ownerWidth: Float, _ ownerHeight: Float,
                                 _ performLayout: Bool, _ depth: Int) -> Bool {
        guard let memo else {
            return calculateLayoutCached(n, availableWidth, availableHeight, ownerDirection, widthMode, heightMode,
                                         ownerWidth, ownerHeight, performLayout, depth)
        }
        return calculateLayoutMemoized(memo, n, availableWidth, availableHeight, ownerDirection, widthMode, heightMode,
                                       ownerWidth, ownerHeight, performLayout, depth)
    }

    @inline(never)
    func calculateLayoutMemoized(_ memo: SubtreeMemoState, _ n: Int, _ availableWidth: Float, _ availableHeight: Float,
                                 _ ownerDirection: Direction,
                                 _ widthMode: SizingMode, _ heightMode: SizingMode,
                                 _ ownerWidth: Float, _ ownerHeight: Float,
                                 _ performLayout: Bool, _ depth: Int) -> Bool {
        let before = memo.history[n]
        guard memo.candidates[n], before != SubtreeMemoState.unknown else {
            // Not digested: a candidate inside a subtree copied later must not look pristine.
            memo.history[n] = SubtreeMemoState.unknown
            return calculateLayoutCached(n, availableWidth, availableHeight, ownerDirection, widthMode, heightMode,
                                         ownerWidth, ownerHeight, performLayout, depth)
        }
        var hasher = memo.prefix
        hasher.combine(memo.hashes[n].high)
        hasher.combine(memo.hashes[n].low)
        hasher.combine(before.high)
        hasher.combine(before.low)
        hasher.combine(SubtreeMemoState.word(availableWidth) << 32 | SubtreeMemoState.word(availableHeight))
        hasher.combine(SubtreeMemoState.word(ownerWidth) << 32 | SubtreeMemoState.word(ownerHeight))
        hasher.combine(UInt64(widthMode.rawValue) | UInt64(heightMode.rawValue) << 8
                       | UInt64(ownerDirection.rawValue) << 16 | (performLayout ? 1 << 24 : 0))
        let key = hasher.finalize()

        if let snapshot = memo.table[key], restore(snapshot, into: n, memo) {
            memo.statistics.localHits += 1
            return snapshot.computed
        }
        if let store = memo.store, let snapshot = store.snapshot(for: key), restore(snapshot, into: n, memo) {
            memo.table[key] = snapshot
            memo.statistics.storeHits += 1
            return snapshot.computed
        }
        let computed = calculateLayoutCached(n, availableWidth, availableHeight, ownerDirection, widthMode, heightMode,
                                             ownerWidth, ownerHeight, performLayout, depth)
        memo.history[n] = key
        let snapshot = self.snapshot(of: n, memo, computed: computed)
        memo.table[key] = snapshot
        memo.store?.store(snapshot, for: key)
        memo.statistics.recorded += 1
        return computed
    }

    /// The state of the subtree at `n`, in pre-order.
    func snapshot(of n: Int, _ memo: SubtreeMemoState, computed: Bool) -> SubtreeSnapshot {
        let count = Int(memo.sizes[n])
        var nodeLayouts: [NodeLayout] = []
        var entries: [CacheEntry] = []
        var histories: [StructuralHash] = []
        nodeLayouts.reserveCapacity(count)
        entries.reserveCapacity(count * maxCachedMeasurements)
        histories.reserveCapacity(count)
        walkSubtree(n) { c, _ in
            nodeLayouts.append(layouts[c])
            let first = caches + c * maxCachedMeasurements
            entries.append(contentsOf: UnsafeBufferPointer(start: first, count: maxCachedMeasurements))
            histories.append(memo.history[c])
        }
        return SubtreeSnapshot(layouts: nodeLayouts, caches: entries, histories: histories,
                               generation: generation, configVersion: configVersion, computed: computed)
    }

    /// Writes `snapshot` over the subtree at `n`; false (and nothing written) when its shape
    /// differs. Stamps of the snapshot's layout call become this call's.
    func restore(_ snapshot: SubtreeSnapshot, into n: Int, _ memo: SubtreeMemoState) -> Bool {
        guard snapshot.layouts.count == Int(memo.sizes[n]) else { return false }
        let fromGeneration = snapshot.generation, fromConfig = snapshot.configVersion
        let generation = self.generation, configVersion = self.configVersion
        @inline(__always) func stamp(_ g: UInt32) -> UInt32 { g == fromGeneration ? generation : g }
        snapshot.layouts.withUnsafeBufferPointer { saved in
        snapshot.caches.withUnsafeBufferPointer { savedEntries in
            walkSubtree(n) { c, k in
                var l = saved[k]
                if c == n {
                    // Written by the parent, not by the call: keep this node's.
                    let own = layouts[c]
                    l.position = own.position
                    l.computedFlexBasis = own.computedFlexBasis
                    l.computedFlexBasisGeneration = own.computedFlexBasisGeneration
                    l.lineIndex = own.lineIndex
                    l.frame = own.frame
                } else {
                    l.computedFlexBasisGeneration = stamp(l.computedFlexBasisGeneration)
                }
                l.generationCount = stamp(l.generationCount)
                if l.configVersion == fromConfig { l.configVersion = configVersion }
                l.cachedLayout.generation = stamp(l.cachedLayout.generation)
                layouts[c] = l
                let target = caches + c * maxCachedMeasurements
                for e in 0..<maxCachedMeasurements {
                    var entry = savedEntries[k * maxCachedMeasurements + e]
                    entry.generation = stamp(entry.generation)
                    target[e] = entry
                }
                memo.history[c] = snapshot.histories[k]
            }
        }}
        return true
    }

    /// Visits the subtree at `n` in pre-order with each node's position in that order.
    @inline(__always) func walkSubtree(_ n: Int, _ visit: (_ node: Int, _ index: Int) -> Void) {
        var k = 0
        var c = n
        walk: while true {
            visit(c, k)
            k += 1
            let first = Int(firstChildren[c].index)
            if first >= 0 {
                c = first
                continue
            }
            while c != n {
                let next = Int(nextSiblings[c].index)
                if next >= 0 {
                    c = next
                    continue walk
                }
                c = Int(parents[c].index)
            }
            return
        }
    }
}
