import LayoutEngine
import LayoutText
import LayoutWire

// Text leaves in subtrees a patch adds or moves. A leaf's text inherits text style keys from
// every node above it (`TextCollector.resolve`), so where a subtree lands decides its leaves'
// content. The patched document has the answer: the subtree's object under its ancestors'
// styles there, decoded as a whole request decodes it, gives each leaf its content exactly as
// sending the patched tree whole would (one decoder, not a second reading of inheritance).

extension PatchComputer {
    /// The text leaves of `request` after the structural edits of a patch: those still in the
    /// tree, with the leaves under `placed` (roots of subtrees added or moved) resolved again
    /// from `document` (the patched one) and tagged, in pre-order; false when a placed subtree
    /// does not decode alone as it does in place, or a leaf names a font family no font has
    /// (its whole answer carries a warning, which answers in place do not).
    func resolveText(placedAt placed: [NodeID], in request: inout LayoutRequest, document: JSONTree) -> Bool {
        var leaves: [NodeID: TextLeaf] = [:]
        let attached = request.tree.preorderNodes(root: request.root)
        var isAttached = [Bool](repeating: false, count: request.tree.nodeCount)
        for node in attached { isAttached[Int(node.index)] = true }
        for leaf in request.textLeaves where isAttached[Int(leaf.node.index)] { leaves[leaf.node] = leaf }
        for root in placed where isAttached[Int(root.index)] {
            guard let path = TreeEditor.path(of: root, in: request),
                  let resolved = Self.decodeAlone(subtreeAt: path, of: document, limits: limits) else { return false }
            let nodes = request.tree.preorderNodes(root: root)
            let decoded = resolved.request.tree.preorderNodes(root: resolved.root)
            guard nodes.count == decoded.count else { return false }
            var position: [NodeID: Int] = [:]
            for (k, node) in decoded.enumerated() { position[node] = k }
            for node in nodes { leaves[node] = nil }
            for var leaf in resolved.request.textLeaves {
                guard let k = position[leaf.node],
                      RequestText.unknownFamilies(in: leaf.content, fonts: computer.textLayouter.fonts).isEmpty,
                      let leafPath = TreeEditor.path(of: nodes[k], in: request) else { return false }
                leaf.node = nodes[k]
                leaf.pointer = "/root" + leafPath.map { "/children/\($0)" }.joined()
                try? request.tree.setContent(RequestText.content(leaf.content, layouter: computer.textLayouter, key: computer.hashKey),
                                             for: leaf.node)
                leaves[leaf.node] = leaf
            }
        }
        request.textLeaves = attached.compactMap { leaves[$0] }
        return true
    }

    /// The node object at child indices `path` of `document`'s root, under its ancestors (each
    /// with its `style` alone) and the document's own members, decoded as a request; with the
    /// node's id in the result. nil when it does not decode.
    static func decodeAlone(subtreeAt path: [Int], of document: JSONTree,
                            limits: WireLimits) -> (request: LayoutRequest, root: NodeID)? {
        guard case .object(let members) = document.expanded, var node = nodeObject(at: path, in: document) else { return nil }
        for depth in stride(from: path.count - 1, through: 0, by: -1) {
            guard let ancestor = nodeObject(at: Array(path[..<depth]), in: document) else { return nil }
            var wrapper: [JSONMember] = []
            if let style = ancestor["style"] { wrapper.append(JSONMember(key: "style", value: style)) }
            wrapper.append(JSONMember(key: "children", value: .array([node])))
            node = .object(wrapper)
        }
        let request = JSONTree.object(members.map { $0.key == "root" ? JSONMember(key: "root", value: node) : $0 })
        guard let decoded = try? LayoutWire.decodeRequest(bytes: request.jsonBytes(), limits: limits) else { return nil }
        var root = decoded.root
        for _ in path { root = decoded.tree.firstChild(of: root) }
        return (decoded, root)
    }
}
