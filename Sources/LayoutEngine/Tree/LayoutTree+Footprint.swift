// What a tree holds, for callers that keep trees between layout calls (a service that relays
// out an earlier tree after a change) and charge them against a memory budget.

extension LayoutTree {
    /// Bytes the tree's storage occupies on the heap: each array's allocated capacity times its
    /// element size, plus a heap object header and malloc's rounding per array. Content that
    /// holds storage of its own (constraint systems, strings of `intrinsicText`) is not counted.
    public var heapBytes: Int {
        func array<Element>(_ elements: [Element]) -> Int { HeapCharge.array(elements) }
        return array(styles) + array(contents) + array(parents) + array(firstChildren) + array(lastChildren)
            + array(nextSiblings) + array(childCounts) + array(layouts) + array(measureCaches)
            + array(measuredFlags) + array(styleFlags) + array(references.list) + array(references.levels)
            + array(pixelRoundings) + array(requestLogs) + array(requestLogStates)
            + array(records.roundedAnew) + array(records.replayed) + array(preorderCache.positions)
    }

    /// Whether some size is taken from another node's frame (see `setSizeReferences`): a
    /// change to any node can then move others that are not its ancestors.
    public var hasSizeReferences: Bool { !references.list.isEmpty }
}
