import LayoutEngine
import SyncSupport

/// The node arrays of large trees that are done with, kept for the next large trees the
/// decoders build (`LayoutTree.Storage`). A tree of a few thousand nodes has arrays above
/// malloc's mapping threshold (1 MiB in layoutd), which `mmap` maps afresh for every tree and
/// the kernel pages in on first write: more than half of decoding a 6,000-node feed. Arrays
/// reused are mapped already.
///
/// Bounded: at most `capacityBytes` of storage (as `LayoutTree.Storage.heapBytes` counts it) in
/// at most `maxKept` storages; a storage that does not fit is freed as before. Only trees of at
/// least `minimumNodes` nodes take part. Thread-safe.
public final class TreeStoragePool: Sendable {
    /// What the pool did, for metrics and tests.
    public struct Statistics: Hashable, Sendable {
        /// Trees built in kept storage.
        public var reuses = 0
        /// Large trees built in fresh arrays (nothing kept was large enough, or small enough).
        public var misses = 0
        /// Storages given back and kept.
        public var kept = 0
        /// Storages given back and freed (over the bound, or the pool full of larger ones).
        public var dropped = 0
        /// Storages kept now, and the bytes they hold.
        public var storages = 0
        public var bytes = 0

        public init() {}
    }

    /// Trees of fewer nodes take no part: no array of theirs passes the mapping threshold
    /// (styles, the largest rows, pass 1 MiB at ~2,500 nodes), and heap memory malloc reuses
    /// is mapped already.
    public static let minimumNodes = 2_048
    /// The most storages kept, whatever their size.
    public static let maxKept = 8
    /// A kept storage builds a tree only when it has room for at most this many times the
    /// tree's nodes: a tree holds its storage's whole capacity, and a tree kept for patches is
    /// charged all of it.
    static let maxWaste = 2

    private struct State {
        var capacityBytes: Int
        var storages: [LayoutTree.Storage] = []
        var statistics = Statistics()
    }

    private let state: Locked<State>

    /// A pool that keeps at most `capacityBytes` (0 keeps nothing).
    public init(capacityBytes: Int) {
        state = Locked(State(capacityBytes: max(0, capacityBytes)))
    }

    /// The pool the decoders build in unless told otherwise: 16 MiB (two 6,000-node trees, of
    /// ~5.8 MB each)
    /// until the service sets its configured bound.
    public static let shared = TreeStoragePool(capacityBytes: defaultCapacityBytes)
    /// The default bound (`--tree-pool-bytes`).
    public static let defaultCapacityBytes = 16 << 20

    /// The byte bound; lowering it frees kept storages over the new bound.
    public var capacityBytes: Int {
        get { state.withLock { $0.capacityBytes } }
        set {
            // Returned, so the storages are freed after the lock is released.
            _ = state.withLock { state -> [LayoutTree.Storage] in
                state.capacityBytes = max(0, newValue)
                var freed: [LayoutTree.Storage] = []
                while state.statistics.bytes > state.capacityBytes, let last = state.storages.popLast() {
                    state.statistics.bytes -= last.heapBytes
                    state.statistics.storages -= 1
                    freed.append(last)
                }
                return freed
            }
        }
    }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// A new tree with room for `nodes` nodes: in kept storage when the pool has one that fits
    /// (the smallest, with room for at most `maxWaste` times `nodes`), else with its arrays
    /// reserved fresh.
    public func tree(config: LayoutConfig, reserving nodes: Int) -> LayoutTree {
        Self.tree(config: config, reserving: nodes, from: self)
    }

    /// `tree(config:reserving:)` of `pool`, or with fresh arrays when there is no pool.
    static func tree(config: LayoutConfig, reserving nodes: Int, from pool: TreeStoragePool?) -> LayoutTree {
        if let storage = pool?.take(nodes: nodes) { return LayoutTree(config: config, storage: storage) }
        var tree = LayoutTree(config: config)
        tree.reserveCapacity(nodes)
        return tree
    }

    /// The smallest kept storage with room for `nodes` nodes and at most `maxWaste` times
    /// that, taken out of the pool; nil for a small tree or when none fits.
    private func take(nodes: Int) -> LayoutTree.Storage? {
        guard nodes >= Self.minimumNodes else { return nil }
        return state.withLock { state -> LayoutTree.Storage? in
            var best = -1
            for (i, s) in state.storages.enumerated() {
                let room = s.nodeCapacity
                guard room >= nodes, room <= nodes * Self.maxWaste else { continue }
                if best < 0 || room < state.storages[best].nodeCapacity { best = i }
            }
            guard best >= 0 else {
                state.statistics.misses += 1
                return nil
            }
            let taken = state.storages.remove(at: best)
            state.statistics.reuses += 1
            state.statistics.storages -= 1
            state.statistics.bytes -= taken.heapBytes
            return taken
        }
    }

    /// Takes the arrays of `tree` (left empty) to keep for a later tree, when they have room for
    /// a large tree and fit the bound (a tree given up half built gives its room back too); when the pool is full, they replace its smallest storage if larger.
    public func recycle(_ tree: inout LayoutTree) {
        guard tree.nodeCapacity >= Self.minimumNodes else { return }
        // Emptied outside the lock: emptying releases each node's content.
        let storage = tree.takeStorage()
        let bytes = storage.heapBytes
        // What is returned is freed after the lock is released.
        _ = state.withLock { state -> LayoutTree.Storage? in
            guard bytes <= state.capacityBytes else {
                state.statistics.dropped += 1
                return storage
            }
            var freed: LayoutTree.Storage?
            if state.storages.count >= Self.maxKept || state.statistics.bytes + bytes > state.capacityBytes {
                // Room by giving up the smallest storage, when this one is larger and that is enough.
                guard let smallest = state.storages.indices.min(by: { state.storages[$0].heapBytes < state.storages[$1].heapBytes }),
                      state.storages[smallest].heapBytes < bytes,
                      state.statistics.bytes - state.storages[smallest].heapBytes + bytes <= state.capacityBytes else {
                    state.statistics.dropped += 1
                    return storage
                }
                freed = state.storages.remove(at: smallest)
                state.statistics.bytes -= freed!.heapBytes
                state.statistics.storages -= 1
                state.statistics.dropped += 1
            }
            state.storages.append(storage)
            state.statistics.kept += 1
            state.statistics.storages += 1
            state.statistics.bytes += bytes
            return freed
        }
    }
}
