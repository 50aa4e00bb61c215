import LayoutEngine

// `"print": true` for a `core-layout` root: the answer also carries the computed tree as Core
// Layout's Swift API prints it (`print(computed)`), built by the engine's own
// `CoreLayout.ComputedLayout`, so the text is the one the Swift API prints for the same tree.

extension LayoutRequest {
    /// The computed tree of the root as Core Layout prints it, from `frames` (pre-order from
    /// the root, as the cache holds them; nil: the tree's own frames) with the request's ids
    /// as identifiers.
    public func printedTree(frames: [Frame]? = nil) -> String {
        let identifier = { (node: NodeID) -> String? in Int(node.index) < ids.count ? ids[Int(node.index)] : nil }
        guard let frames else {
            return CoreLayout.ComputedLayout(collecting: root, in: tree, identifier: identifier).description
        }
        let positions = tree.preorderPositions(root: root)
        return CoreLayout.ComputedLayout(collecting: root, in: tree, frame: { frames[positions[Int($0.index)]] },
                                         identifier: identifier).description
    }
}
