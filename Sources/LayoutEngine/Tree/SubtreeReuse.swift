/// Reusing the layout of repeated subtrees: settings, the snapshots a computation leaves, and
/// where snapshots outlive one layout call.
///
/// With `LayoutTree.subtreeReuse` set, the first layout of a tree fingerprints every subtree,
/// computes keyed subtree hashes (as `subtreeHashes(root:key:)`) where fingerprints repeat, and
/// a subtree that occurs more than once is computed once per distinct sequence of computations
/// it gets (twice: the first is only noted): later occurrences copy the results.
/// See `Algorithm/SubtreeMemo.swift` for what is copied and which subtrees are left out.
public struct SubtreeReuse: Sendable {
    /// The secret of the subtree hashes and memo keys, so a client cannot craft a subtree whose
    /// key collides with another's. Use the structural hash's key.
    public var key: StructuralHashKey
    /// Snapshots kept beyond one layout call (across requests); nil keeps them for one call.
    public var store: (any SubtreeSnapshotStore)?
    /// The fewest nodes a subtree needs to be reused unless it holds content measured by the
    /// hook (text): a small box computes faster than a memo key is made and looked up.
    /// Default 4; 1 reuses every repeated subtree, leaves too (for tests).
    public var minimumNodes: Int

    public init(key: StructuralHashKey, store: (any SubtreeSnapshotStore)? = nil, minimumNodes: Int = 4) {
        self.key = key
        self.store = store
        self.minimumNodes = minimumNodes
    }
}

/// A place that keeps subtree snapshots between layout calls, shared by trees (and threads).
/// Keys are keyed 128-bit digests of a subtree's content, the constraints of each call it got
/// and the layout config, so equal keys mean equal results.
public protocol SubtreeSnapshotStore: Sendable {
    /// The snapshot stored under `key`, if any.
    func snapshot(for key: StructuralHash) -> SubtreeSnapshot?
    /// Keeps `snapshot` under `key` (or not: a store may drop it).
    func store(_ snapshot: SubtreeSnapshot, for key: StructuralHash)
}

/// The layout state of one subtree right after one computation of its root (Yoga's
/// calculateLayoutImpl): every node's results and its descendants' measurement caches, in
/// pre-order. Immutable once made.
public final class SubtreeSnapshot: Sendable {
    let layouts: [NodeLayout]
    /// Each descendant's live measurement entries (its `nextCachedMeasurementsIndex` of them),
    /// in pre-order (the root's own belong to its caller).
    let caches: [CacheEntry]
    /// Each node's memo history after the call (see `SubtreeMemoState.history`).
    let histories: [StructuralHash]
    /// The layout call's generation and config version, which the state's stamps carry.
    let generation: UInt32
    let configVersion: UInt32

    init(layouts: [NodeLayout], caches: [CacheEntry], histories: [StructuralHash],
         generation: UInt32, configVersion: UInt32) {
        self.layouts = layouts
        self.caches = caches
        self.histories = histories
        self.generation = generation
        self.configVersion = configVersion
    }

    /// The nodes of the subtree.
    public var nodeCount: Int { layouts.count }

    /// The heap memory the snapshot holds, for stores that charge it against a byte budget:
    /// the object and its three arrays (elements plus a 32-byte header each), each as a glibc
    /// malloc chunk (8 bytes of header, rounded up to 16).
    public var heapBytes: Int {
        HeapCharge.mallocChunk(48) + HeapCharge.array(layouts) + HeapCharge.array(caches)
            + HeapCharge.array(histories)
    }
}

/// What subtree reuse did in the last layout call of a tree.
public struct SubtreeReuseStatistics: Hashable, Sendable {
    /// Whether reuse ran (it needs a tree laid out for the first time, without size references).
    public var active = false
    /// Nodes whose subtree occurs more than once in the tree and may be reused.
    public var candidates = 0
    /// Layouts or measurements answered from a snapshot of this call.
    public var localHits = 0
    /// Layouts or measurements answered from the store (an earlier call).
    public var storeHits = 0
    /// Layouts or measurements computed and kept as snapshots.
    public var recorded = 0
    /// Nodes whose subtree hash was taken from an equal subtree (compared row for row) instead
    /// of being computed.
    public var hashesCopied = 0

    public init() {}
}

