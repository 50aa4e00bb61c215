/// A subtree a decoder copied from an earlier one with `LayoutTree.addNodes(copying:under:)`:
/// the copy's root, the root it was copied from and their node count (both depth first in
/// storage, as decoded). A hint for work that follows from the nodes' values, such as writing
/// the copy's frames from the source's: it describes the tree as built, not after edits, so
/// whoever uses it checks what it relies on first.
public struct CopiedSubtree: Sendable, Equatable {
    public var copy: NodeID
    public var source: NodeID
    public var nodeCount: Int32

    public init(copy: NodeID, source: NodeID, nodeCount: Int32) {
        self.copy = copy
        self.source = source
        self.nodeCount = nodeCount
    }
}

/// The subtrees a decoder copied (see `CopiedSubtree`), in the order it made them, and the
/// tree's `structureVersion` once it was done: they describe the tree's shape while its
/// structure is that version (no child added, removed or moved since).
public struct SubtreeCopies: Sendable {
    public var list: [CopiedSubtree]
    public var structureVersion: UInt32

    /// None.
    public init() {
        list = []
        structureVersion = 0
    }

    public init(list: [CopiedSubtree], structureVersion: UInt32) {
        self.list = list
        self.structureVersion = structureVersion
    }

    /// Whether there are copies and `tree`'s structure is the one they were listed in.
    @inlinable public func describe(_ tree: LayoutTree) -> Bool {
        !list.isEmpty && tree.structureVersion == structureVersion
    }
}
