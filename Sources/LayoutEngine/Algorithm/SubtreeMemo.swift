// Repeated subtrees laid out once (the layout-service counterpart of Yoga's per-node cache,
// across nodes instead of across calls). Yoga's computation of a node (calculateLayoutImpl,
// run when the node's own cache cannot answer a call) depends only on the node's subtree, the
// state of that subtree, and the call's arguments (available sizes, sizing modes, owner sizes,
// owner direction, performLayout) under one config. So two nodes with the same subtree hash,
// whose subtrees start in the same state and get the same sequence of computations, end in the
// same state: the later ones copy the first's instead of computing.
//
// State: the memo runs only on a tree whose every node is new (first layout, or after a reset),
// so each subtree starts from the same state; a node's history is a keyed digest of the
// computations it got so far (`history`), and the memo key of a computation digests subtree
// hash, history and arguments. The copy covers what the computation writes: the node's own
// results (size, box model, direction) and everything of its descendants, with their caches.
//
// Left out, because their layout reads or is written by something outside the subtree:
// - the root of the layout (Yoga treats a node without parent differently);
// - trees with size references (a node sized from another node's frame, set between passes);
// - nodes whose margin percentages resolve against the parent's size (StackViewLayout);
// - `position: static` nodes with absolutely positioned or `display: contents` nodes inside:
//   an ancestor (their containing block) lays those out;
// - subtrees with constraint containers or `.custom` nodes with children (placed by hooks that
//   are given node ids);
// - small subtrees (under `SubtreeReuse.minimumNodes`, default 4) without hook-measured
//   content, and leaves the engine measures itself: a lookup costs more than computing them.
// `.custom` leaves are measured by the hook with their tag, which must identify what the hook
// measures (the service's tag digests the text, its style and the fonts).
//
// Instances (Tree/SubtreeInstances.swift) are candidates with no descendants of their own:
// a call is answered from a snapshot of their source's (which keeps every snapshot) or not
// at all (`instanceMisses`), and the snapshot stands for their descendants' state.

/// The memo of one layout call, made by `LayoutTree.prepareSubtreeMemo`.
final class SubtreeMemoState {
    // The per-node tables are constants, and the one the pass writes is raw memory: a
    // variable stored property of a class is checked for exclusive access at every read and
    // write, which cost a tenth of laying out a feed whose cells are copies (a restore writes
    // every node's history).
    /// Per node: its subtree hash (zero when not a candidate).
    let hashes: [StructuralHash]
    /// Per node: whether its layout may be copied from or to another node's.
    let candidates: [Bool]
    /// Per node: the nodes of its subtree.
    let sizes: [Int32]
    /// Per node: whether it is a candidate whose subtree is stored in pre-order from its index on.
    let inStorageOrder: [Bool]
    /// Per node: a digest of the calls it got this layout call (zero: none yet; `unknown` after
    /// a call that was not digested). Owned by this object.
    let history: UnsafeMutableBufferPointer<StructuralHash>
    /// The key with the memo format and the config absorbed, copied for each call's digest.
    let prefix: StructuralHasher
    /// Snapshots made or taken during this call, by memo key, as their numbers in `snapshots`;
    /// -1 for a key seen once.
    // Unchecked: one layout pass on one thread uses the memo, and no access to these overlaps
    // another (each is a read or a write of one entry or counter); the checks cost a tenth of
    // a restored call.
    @exclusivity(unchecked) var table: [StructuralHash: Int32] = [:]
    /// The snapshots of this call, by number. The recent calls and the instances hold numbers,
    /// not references: a reference taken and dropped is two atomic counts at every restored
    /// call (with the memo's own, 12 % of the time of a feed of instances, 7 % after).
    @exclusivity(unchecked) private(set) var snapshots: [SubtreeSnapshot] = []
    /// Per snapshot number: its root's results, what restoring an instance reads (see `restore`).
    @exclusivity(unchecked) private(set) var roots: UnsafeMutablePointer<SnapshotRoot>
    private var rootCapacity = 16
    let store: (any SubtreeSnapshotStore)?
    @exclusivity(unchecked) var statistics = SubtreeReuseStatistics()
    /// The calls last answered from a snapshot, by their exact arguments (see `RecentCalls`).
    let recent = RecentCalls()
    /// Per node: the source of the instance there (see SubtreeInstances.swift), -1 elsewhere;
    /// empty for a tree without instances.
    let instanceSources: [Int32]
    /// Per node: whether every computation of it is kept (a source of instances, whose
    /// instances restore its snapshots); empty for a tree without instances.
    let keepsEverySnapshot: [Bool]
    /// Per instance node: the number of the snapshot of its last computation, which holds its
    /// descendants' state (-1 before its first); empty for a tree without instances.
    let instanceStates: UnsafeMutableBufferPointer<Int32>
    /// Calls of instances that no snapshot answered: the layout of such a call is not that of
    /// the tree the instances stand for (see `LayoutTree.instancesLaidOut`).
    @exclusivity(unchecked) var instanceMisses = 0

    static let unknown = StructuralHash(high: ~0, low: ~0)
    static let pristine = StructuralHash(high: 0, low: 0)

    init(hashes: [StructuralHash], candidates: [Bool], sizes: [Int32], inStorageOrder: [Bool],
         prefix: StructuralHasher, store: (any SubtreeSnapshotStore)?,
         instanceSources: [Int32] = [], keepsEverySnapshot: [Bool] = []) {
        self.hashes = hashes
        self.candidates = candidates
        self.sizes = sizes
        self.inStorageOrder = inStorageOrder
        self.instanceSources = instanceSources
        self.keepsEverySnapshot = keepsEverySnapshot
        instanceStates = .allocate(capacity: instanceSources.isEmpty ? 0 : hashes.count)
        instanceStates.initialize(repeating: -1)
        history = .allocate(capacity: hashes.count)
        history.initialize(repeating: Self.pristine)
        roots = .allocate(capacity: rootCapacity)
        self.prefix = prefix
        self.store = store
    }

    deinit {
        history.deallocate()
        instanceStates.deallocate()
        roots.deallocate()
    }

    /// Numbers `snapshot` (a new one, or one taken from the store) for this call.
    func number(_ snapshot: SubtreeSnapshot) -> Int32 {
        let number = snapshots.count
        if number == rootCapacity {
            let grown = UnsafeMutablePointer<SnapshotRoot>.allocate(capacity: 2 * rootCapacity)
            grown.moveInitialize(from: roots, count: number)
            roots.deallocate()
            roots = grown
            rootCapacity *= 2
        }
        (roots + number).initialize(to: SnapshotRoot(layout: snapshot.layouts[0], history: snapshot.histories[0],
                                                     nodeCount: Int32(snapshot.layouts.count)))
        snapshots.append(snapshot)
        return Int32(number)
    }

    /// A float's exact bits (one NaN), so equal keys mean bit-identical arguments.
    @inline(__always) static func word(_ value: Float) -> UInt64 {
        UInt64(value.isNaN ? Float.nan.bitPattern : value.bitPattern)
    }
}

/// What a snapshot holds of its root: all that restoring an instance writes.
struct SnapshotRoot {
    var layout: NodeLayout
    var history: StructuralHash
    /// The snapshot's nodes, root included.
    var nodeCount: Int32
}

extension LayoutPass {
    /// Yoga's calculateLayoutImpl for a call the node's own cache could not answer, or, with
    /// subtree reuse on, a copy of the result of an equal subtree that got the same calls.
    @inline(__always)
    func calculateLayoutImplOrCopy(_ n: Int, _ availableWidth: Float, _ availableHeight: Float,
                                   _ ownerDirection: Direction,
                                   _ widthMode: SizingMode, _ heightMode: SizingMode,
                                   _ ownerWidth: Float, _ ownerHeight: Float,
                                   _ performLayout: Bool, _ depth: Int) {
        if let memo {
            memo._withUnsafeGuaranteedRef {
                calculateLayoutMemoized($0, n, availableWidth, availableHeight, ownerDirection, widthMode, heightMode,
                                        ownerWidth, ownerHeight, performLayout, depth)
            }
        } else {
            calculateLayoutImpl(n, availableWidth, availableHeight, ownerDirection, widthMode, heightMode,
                                ownerWidth, ownerHeight, performLayout, depth)
        }
    }

    // The history of a node counts only these calls, not those its own cache answered: a
    // cache hit changes only the node's measured size (which every computation overwrites),
    // its width, height and dirty flag, and stamps (which a copy leaves alone, see `restore`).
    @inline(never)
    func calculateLayoutMemoized(_ memo: SubtreeMemoState, _ n: Int, _ availableWidth: Float, _ availableHeight: Float,
                                 _ ownerDirection: Direction,
                                 _ widthMode: SizingMode, _ heightMode: SizingMode,
                                 _ ownerWidth: Float, _ ownerHeight: Float,
                                 _ performLayout: Bool, _ depth: Int) {
        let before = memo.history[n]
        let isInstance = !memo.instanceSources.isEmpty && memo.instanceSources[n] >= 0
        guard memo.candidates[n], before != SubtreeMemoState.unknown else {
            if isInstance {
                memo.instanceMisses += 1
                return
            }
            // Not digested: a candidate inside a subtree copied later must not look pristine.
            memo.history[n] = SubtreeMemoState.unknown
            calculateLayoutImpl(n, availableWidth, availableHeight, ownerDirection, widthMode, heightMode,
                                ownerWidth, ownerHeight, performLayout, depth)
            return
        }
        let call = MemoCall(subtree: memo.hashes[n], history: before,
                            sizes: SubtreeMemoState.word(availableWidth) << 32 | SubtreeMemoState.word(availableHeight),
                            ownerSizes: SubtreeMemoState.word(ownerWidth) << 32 | SubtreeMemoState.word(ownerHeight),
                            modes: UInt64(widthMode.rawValue) | UInt64(heightMode.rawValue) << 8
                                | UInt64(ownerDirection.rawValue) << 16 | (performLayout ? 1 << 24 : 0))
        // A cell after a cell like it gets the calls that one got: answered from the recent
        // calls, without the keyed digest and the table's lookup.
        let recent = memo.recent.snapshot(for: call)
        if recent >= 0, restore(recent, into: n, memo, isInstance: isInstance) {
            memo.statistics.localHits += 1
            return
        }
        var hasher = memo.prefix
        hasher.combine(memo.hashes[n].high)
        hasher.combine(memo.hashes[n].low)
        hasher.combine(before.high)
        hasher.combine(before.low)
        hasher.combine(call.sizes)
        hasher.combine(call.ownerSizes)
        hasher.combine(call.modes)
        let key = hasher.finalize()

        // A key seen for the first time is only noted: most calls of cells that differ in their
        // constraints never repeat, and a snapshot costs more than the call. The second time it
        // is computed and kept; from the third on, copied.
        let seen = memo.table[key]
        if let seen, seen >= 0, restore(seen, into: n, memo, isInstance: isInstance) {
            memo.recent.remember(seen, for: call)
            memo.statistics.localHits += 1
            return
        }
        if seen == nil, let store = memo.store, let snapshot = store.snapshot(for: key),
           snapshot.layouts.count == Int(memo.sizes[n]) {
            let number = memo.number(snapshot)
            if restore(number, into: n, memo, isInstance: isInstance) {
                memo.table[key] = number
                memo.recent.remember(number, for: call)
                memo.statistics.storeHits += 1
                return
            }
        }
        // An instance has no descendants to compute with: a call its source never got (in
        // this state) leaves the layout to a tree without instances.
        if isInstance {
            memo.instanceMisses += 1
            return
        }
        calculateLayoutImpl(n, availableWidth, availableHeight, ownerDirection, widthMode, heightMode,
                            ownerWidth, ownerHeight, performLayout, depth)
        memo.history[n] = key
        if seen == nil && (memo.keepsEverySnapshot.isEmpty || !memo.keepsEverySnapshot[n]) {
            memo.table[key] = -1
        } else {
            let snapshot = self.snapshot(of: n, memo)
            let number = memo.number(snapshot)
            memo.table[key] = number
            memo.recent.remember(number, for: call)
            memo.store?.store(snapshot, for: key)
            memo.statistics.recorded += 1
        }
    }

    /// The state of the subtree at `n`, in pre-order, right after calculateLayoutImpl of `n`.
    func snapshot(of n: Int, _ memo: SubtreeMemoState) -> SubtreeSnapshot {
        let count = Int(memo.sizes[n])
        var nodeLayouts: [NodeLayout] = []
        var entries: [CacheEntry] = []
        var histories: [StructuralHash] = []
        nodeLayouts.reserveCapacity(count)
        histories.reserveCapacity(count)
        walkSubtree(n) { c, k in
            nodeLayouts.append(layouts[c])
            // The descendants' live entries: those at or past the count are never read before
            // being overwritten (see `calculateLayoutInternal`). `n`'s own are its caller's.
            if k > 0 {
                let first = caches + c * maxCachedMeasurements
                entries.append(contentsOf: UnsafeBufferPointer(start: first, count: Int(layouts[c].nextCachedMeasurementsIndex)))
            }
            histories.append(memo.history[c])
        }
        return SubtreeSnapshot(layouts: nodeLayouts, caches: entries, histories: histories,
                               generation: generation, configVersion: configVersion)
    }

    /// Writes the snapshot numbered `number` over the subtree at `n`; false (and nothing
    /// written) when its shape differs. An instance (`isInstance`) takes only its own results;
    /// the snapshot stands for its descendants' state (`SubtreeMemoState.instanceStates`).
    @inline(__always)
    func restore(_ number: Int32, into n: Int, _ memo: SubtreeMemoState, isInstance: Bool) -> Bool {
        guard isInstance else { return restore(memo.snapshots[Int(number)], into: n, memo) }
        let root = memo.roots + Int(number)
        guard root.pointee.nodeCount == memo.sizes[n] else { return false }
        restoreRoot(n, from: root.pointee.layout)
        memo.history[n] = root.pointee.history
        memo.instanceStates[n] = number
        return true
    }

    /// Writes `snapshot` over the subtree at `n`; false (and nothing written) when its shape
    /// differs. Stamps of the snapshot's layout call become this call's.
    func restore(_ snapshot: SubtreeSnapshot, into n: Int, _ memo: SubtreeMemoState) -> Bool {
        let size = Int(memo.sizes[n])
        guard snapshot.layouts.count == size else { return false }
        let fromGeneration = snapshot.generation, fromConfig = snapshot.configVersion
        let generation = self.generation, configVersion = self.configVersion
        return snapshot.layouts.withUnsafeBufferPointer { saved in
        snapshot.caches.withUnsafeBufferPointer { savedEntries in
        snapshot.histories.withUnsafeBufferPointer { histories in
            restoreRoot(n, from: saved[0])
            memo.history[n] = histories[0]
            if memo.inStorageOrder[n] && fromGeneration == generation && fromConfig == configVersion {
                // A snapshot of this call (its stamps are this call's) into a subtree stored in
                // pre-order: the rows are copied as they are, a range at a time.
                (layouts + n + 1).update(from: saved.baseAddress! + 1, count: size - 1)
                (memo.history.baseAddress! + n + 1).update(from: histories.baseAddress! + 1, count: size - 1)
                var nextEntry = 0
                for c in (n + 1)..<(n + size) {
                    let count = Int(layouts[c].nextCachedMeasurementsIndex)
                    (caches + c * maxCachedMeasurements).update(from: savedEntries.baseAddress! + nextEntry, count: count)
                    nextEntry += count
                }
                return true
            }
            @inline(__always) func stamp(_ g: UInt32) -> UInt32 { g == fromGeneration ? generation : g }
            var nextEntry = 0
            walkSubtree(n) { c, k in
                guard k > 0 else { return }
                var l = saved[k]
                l.computedFlexBasisGeneration = stamp(l.computedFlexBasisGeneration)
                l.generationCount = stamp(l.generationCount)
                if l.configVersion == fromConfig { l.configVersion = configVersion }
                l.cachedLayout.generation = stamp(l.cachedLayout.generation)
                layouts[c] = l
                let target = caches + c * maxCachedMeasurements
                for e in 0..<Int(l.nextCachedMeasurementsIndex) {
                    var entry = savedEntries[nextEntry]
                    nextEntry += 1
                    entry.generation = stamp(entry.generation)
                    target[e] = entry
                }
                memo.history[c] = histories[k]
            }
            return true
        }}}
    }

    /// Writes over `n` what calculateLayoutImpl of `n` wrote in `saved`; the rest is written by
    /// its parent (position, flex basis and sizes, line) or by calculateLayoutInternal around
    /// the call (cache, size, flags, stamps), and stays.
    // Field by field in place: a whole row built on the stack and stored back stalled there
    // (a fifth of the memo call's own samples fell on that store, on a feed of instances).
    @inline(__always)
    private func restoreRoot(_ n: Int, from saved: NodeLayout) {
        #if DEBUG
        // Checked on every 16th node (a walk of each field's description is slow).
        let expected = n % 16 == 0 ? Self.restoredRoot(layouts[n], from: saved) : nil
        defer {
            if let expected {
                let fields = { (l: NodeLayout) in Mirror(reflecting: l).children.map { "\($0.label ?? ""): \($0.value)" } }
                assert(fields(layouts[n]) == fields(expected), "restoreRoot left out a field that calculateLayoutImpl writes")
            }
        }
        #endif
        let l = layouts + n
        l.pointee.margin = saved.margin
        l.pointee.border = saved.border
        l.pointee.padding = saved.padding
        l.pointee.measuredWidth = saved.measuredWidth
        l.pointee.measuredHeight = saved.measuredHeight
        l.pointee.direction = saved.direction
        l.pointee.hadOverflow = saved.hadOverflow
        l.pointee.subtreeHoldsCSSItem = saved.subtreeHoldsCSSItem
        l.pointee.holdsCSSItemGeneration = saved.holdsCSSItemGeneration
        l.pointee.marginHeightReference = saved.marginHeightReference
    }

    #if DEBUG
    /// `saved` but for what restoreRoot leaves of `own`: the definition restoreRoot is checked
    /// against, so that a field added to `NodeLayout` is not forgotten.
    private static func restoredRoot(_ own: NodeLayout, from saved: NodeLayout) -> NodeLayout {
        var l = saved
        l.position = own.position
        l.computedFlexBasis = own.computedFlexBasis
        l.computedFlexBasisGeneration = own.computedFlexBasisGeneration
        l.automaticMinimum = own.automaticMinimum
        l.minContentBase = own.minContentBase
        l.flexTarget = own.flexTarget
        l.lineIndex = own.lineIndex
        l.frame = own.frame
        l.cachedLayout = own.cachedLayout
        l.nextCachedMeasurementsIndex = own.nextCachedMeasurementsIndex
        l.generationCount = own.generationCount
        l.configVersion = own.configVersion
        l.lastOwnerDirection = own.lastOwnerDirection
        l.isDirty = own.isDirty
        l.width = own.width
        l.height = own.height
        return l
    }
    #endif

    /// Visits the subtree at `n` in pre-order with each node's position in that order.
    @inline(__always) func walkSubtree(_ n: Int, _ visit: (_ node: Int, _ index: Int) -> Void) {
        var k = 0
        LayoutTree.walkSubtree(from: n, firstChild: { firstChildren[$0] }, nextSibling: { nextSiblings[$0] },
                               parent: { parents[$0] }) { c, _ in
            visit(c, k)
            k += 1
        }
    }
}
