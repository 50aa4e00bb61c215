// Handing a dropped tree's node arrays to the next tree. A large tree's arrays (a 6,000-node
// tree holds ~5.8 MB) come from `mmap` when they pass malloc's mapping threshold, and are paid
// for again in page faults by every tree that allocates them fresh: over half of decoding such a
// tree. Arrays kept and reused are already mapped.

extension LayoutTree {
    /// The per-node arrays of a tree, emptied, with their capacity: room to build another tree
    /// in without allocating. Take it from a tree that is done with `takeStorage()`, build in it
    /// with `init(config:storage:)`.
    public struct Storage: Sendable {
        var styles: [Style] = []
        var contents: [NodeContent] = []
        var parents: [NodeID] = []
        var firstChildren: [NodeID] = []
        var lastChildren: [NodeID] = []
        var nextSiblings: [NodeID] = []
        var childCounts: [Int32] = []
        var layouts: [NodeLayout] = []
        var measureCaches: [CacheEntry] = []
        var measuredFlags: [Bool] = []
        var styleFlags: [StyleFlags] = []

        /// Empty storage, with no room.
        public init() {}

        /// The nodes a tree built in this storage can hold before any array grows.
        public var nodeCapacity: Int {
            min(styles.capacity, contents.capacity, parents.capacity, firstChildren.capacity,
                lastChildren.capacity, nextSiblings.capacity, childCounts.capacity, layouts.capacity,
                measureCaches.capacity / maxCachedMeasurements, measuredFlags.capacity, styleFlags.capacity)
        }

        /// The heap bytes the arrays hold (as `LayoutTree.heapBytes` counts them).
        public var heapBytes: Int {
            func array<Element>(_ elements: [Element]) -> Int { HeapCharge.array(elements) }
            return array(styles) + array(contents) + array(parents) + array(firstChildren) + array(lastChildren)
                + array(nextSiblings) + array(childCounts) + array(layouts) + array(measureCaches)
                + array(measuredFlags) + array(styleFlags)
        }
    }

    /// A new, empty tree whose nodes go into `storage`: as `init(config:)` followed by
    /// `reserveCapacity(storage.nodeCapacity)`, without allocating.
    public init(config: LayoutConfig = LayoutConfig(), storage: consuming Storage) {
        self.init(config: config)
        precondition(storage.styles.isEmpty && storage.layouts.isEmpty && storage.measureCaches.isEmpty,
                     "storage for a new tree must be empty")
        swap(&styles, &storage.styles)
        swap(&contents, &storage.contents)
        swap(&parents, &storage.parents)
        swap(&firstChildren, &storage.firstChildren)
        swap(&lastChildren, &storage.lastChildren)
        swap(&nextSiblings, &storage.nextSiblings)
        swap(&childCounts, &storage.childCounts)
        swap(&layouts, &storage.layouts)
        swap(&measureCaches, &storage.measureCaches)
        swap(&measuredFlags, &storage.measuredFlags)
        swap(&styleFlags, &storage.styleFlags)
    }

    /// The nodes the tree can hold before its arrays grow.
    public var nodeCapacity: Int { styles.capacity }

    /// Empties the tree and hands its per-node arrays over with their capacity. The tree is left
    /// as a new one with the same config. An array the tree shares with a copy of it stays
    /// the copy's: the storage gets a new one of the same capacity in its place.
    public mutating func takeStorage() -> Storage {
        var storage = Storage()
        // Swapped out, so the tree no longer holds a reference and each `removeAll` empties in
        // place (an array still held by a copy of the tree is left to it).
        func take<Element>(_ array: inout [Element], _ into: inout [Element]) {
            swap(&array, &into)
            into.removeAll(keepingCapacity: true)
        }
        take(&styles, &storage.styles)
        take(&contents, &storage.contents)
        take(&parents, &storage.parents)
        take(&firstChildren, &storage.firstChildren)
        take(&lastChildren, &storage.lastChildren)
        take(&nextSiblings, &storage.nextSiblings)
        take(&childCounts, &storage.childCounts)
        take(&layouts, &storage.layouts)
        take(&measureCaches, &storage.measureCaches)
        take(&measuredFlags, &storage.measuredFlags)
        take(&styleFlags, &storage.styleFlags)
        // Whatever else the tree held described the nodes it no longer has.
        self = LayoutTree(config: config)
        return storage
    }
}
