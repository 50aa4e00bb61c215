import LayoutEngine

/// Builds a fresh copy of a decoded tree node by node, as a client building its document
/// would, for `--fresh` timing (build + layout).
struct TreeBlueprint {
    var config: LayoutConfig
    var styles: [Style] = []
    var contents: [NodeContent] = []
    /// For each node after the root (in pre-order), the pre-order index of its parent.
    var parentIndex: [Int] = []

    init(tree: LayoutTree, root: NodeID) {
        config = tree.config
        func visit(_ node: NodeID, parent: Int) {
            let index = styles.count
            styles.append(tree.style(of: node))
            contents.append(tree.content(of: node))
            parentIndex.append(parent)
            for child in tree.children(of: node) { visit(child, parent: index) }
        }
        visit(root, parent: -1)
    }

    /// A new tree with the same nodes; its root is the first node.
    func build() -> (LayoutTree, NodeID) {
        var tree = LayoutTree(config: config)
        tree.reserveCapacity(styles.count)
        var ids: [NodeID] = []
        ids.reserveCapacity(styles.count)
        for i in 0..<styles.count {
            // The styles came out of a valid tree, so they validate again.
            let id = try! tree.addNode(style: styles[i], content: contents[i])
            ids.append(id)
            if parentIndex[i] >= 0 { tree.appendChild(id, to: ids[parentIndex[i]]) }
        }
        return (tree, ids[0])
    }
}
