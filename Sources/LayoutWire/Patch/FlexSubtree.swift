@_spi(Decoding) import LayoutEngine

/// A subtree of flexbox nodes decoded from a node object, ready to be added to a decoded
/// request's tree: what a patch that adds a node (`add` at `/root/children/3`) brings in.
public struct FlexSubtree: Sendable {
    /// Each node's own members, in pre-order.
    public private(set) var nodes: [FlexNodeMembers] = []
    /// Each node's number of children, in pre-order.
    public private(set) var childCounts: [Int] = []
    /// The levels of nodes (1: the subtree's root alone).
    public private(set) var depth = 0
    /// Whether a node of it is a text leaf (`"text"`): its members are here without the text,
    /// whose content (inherited styles resolved) the caller gets from a whole decode.
    public private(set) var hasText = false

    /// The subtree at node object `object`, decoded as a whole request's decoder decodes its
    /// nodes with `config`'s base style; nil when a node in it is not a flexbox node (another
    /// layout model, a size reference) or does not decode (a whole decode of the document then
    /// gives the error with its pointer).
    public init?(_ object: JSONTree, config: LayoutConfig, limits: WireLimits) {
        // Node objects still to decode, last first, with their levels.
        var pending: [(object: JSONTree, level: Int)] = [(object, 1)]
        while let (unparsed, level) = pending.popLast() {
            let node = unparsed.expanded
            let isText = node["text"] != nil
            hasText = hasText || isText
            guard let members = isText ? FlexNodeMembers.decode(textLeaf: node, config: config, limits: limits)
                                       : FlexNodeMembers.decode(node, config: config, limits: limits),
                  (try? members.style.validate()) != nil else { return nil }
            var children: [JSONTree] = []
            if case .array(let array)? = node["children"] { children = array }
            // `decode` leaves `measure` of a leaf to the node; with children it refused it.
            if members.content != .none && !children.isEmpty { return nil }
            nodes.append(members)
            childCounts.append(children.count)
            depth = max(depth, level)
            for child in children.reversed() { pending.append((child, level + 1)) }
        }
    }
}

extension LayoutRequest {
    /// Adds `subtree`'s nodes to the tree, with their ids and paint, and returns its root,
    /// which has no parent yet (`LayoutTree.insertChild` places it).
    public mutating func add(_ subtree: FlexSubtree) -> NodeID {
        var root = NodeID.none
        // The nodes whose children are still being added, with how many are left to add.
        var open: [(node: NodeID, remaining: Int)] = []
        for (k, members) in subtree.nodes.enumerated() {
            let node = tree.addNode(prevalidatedStyle: members.style, content: members.content)
            ids.append(members.id)
            if let paint = members.paint { self.paint.nodes[node.index] = paint }
            if let last = open.indices.last {
                tree.appendChild(node, to: open[last].node)
                open[last].remaining -= 1
            } else {
                root = node
            }
            while let last = open.indices.last, open[last].remaining == 0 { open.removeLast() }
            if subtree.childCounts[k] > 0 { open.append((node, subtree.childCounts[k])) }
        }
        return root
    }
}
