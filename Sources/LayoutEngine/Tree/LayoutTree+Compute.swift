// PLACEHOLDER (session bootstrap): the engine helper replaces this file with the real
// layout storage and algorithm entry points. Signatures are the public contract.
extension LayoutTree {
    mutating func nodeAdded(_ id: NodeID) {}
    mutating func markDirty(_ id: NodeID) {}

    /// Lays out the subtree at `root` in the given space and owner direction.
    public mutating func computeLayout(root: NodeID, available: AvailableSize = AvailableSize(),
                                       direction: Direction = .ltr) {}

    /// The frame of `node` from the last layout, relative to its parent.
    public func frame(of node: NodeID) -> Frame { .zero }
}
