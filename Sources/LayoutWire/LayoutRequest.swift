import LayoutEngine

/// A decoded layout request: the tree to lay out (its `config` holds the request's config),
/// the root, each node's client id, and the arguments of the layout call.
public struct LayoutRequest {
    public var tree: LayoutTree
    public var root: NodeID
    /// The `id` of each node, by `NodeID.index`; nil where the request gave none.
    public var ids: NodeIdentifiers
    public var available: AvailableSize
    public var direction: Direction
    /// The text leaves (nodes with `"text"`), in document order; their content is
    /// `.custom` until a text layout measures them (the service does).
    public var textLeaves: [TextLeaf] = []
    /// For each text leaf, an earlier leaf the decoder copied it from (a repeated sibling's),
    /// whose content it had when decoded, or -1 (empty: none). A hint for work that follows
    /// from the content: edits of `textLeaves` do not keep it, so compare the contents first.
    public var textLeafCopies: [Int32] = []
    /// The subtrees the decoder copied from an earlier sibling (a feed's repeated cells). A
    /// hint for hashing the tree and writing its answer, which check what they rely on.
    public var subtreeCopies = SubtreeCopies()
    /// The ids of the nodes the tree's instances stand for (`LayoutTree.instances`, made by a
    /// decoder asked to fold repeats): instance after instance, each its source's descendants'
    /// in their pre-order. Empty without instances.
    public var instanceIDs = NodeIdentifiers()
    /// The request asked for each text leaf's lines in the answer (`"textLines": true`).
    public var textLines = false
    /// The paint style keys of the nodes and their model kinds, for renderers; the layout
    /// ignores them.
    public var paint = PaintTable()
    /// The request asked for the computed tree as Core Layout prints it (`"print": true`, a
    /// `core-layout` root); see `printedTree(frames:)`.
    public var printsTree = false

    public init(tree: LayoutTree, root: NodeID, ids: NodeIdentifiers, available: AvailableSize = AvailableSize(),
                direction: Direction = .ltr) {
        self.tree = tree
        self.root = root
        self.ids = ids
        self.available = available
        self.direction = direction
    }

    /// Runs the layout call the request describes.
    public mutating func computeLayout() {
        tree.computeLayout(root: root, available: available, direction: direction)
    }
}
