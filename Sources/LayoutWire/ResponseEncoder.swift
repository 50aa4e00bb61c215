import LayoutEngine

/// Writes every node's frame, depth-first without recursion.
enum ResponseEncoder {
    static func encode(_ request: LayoutRequest) -> [UInt8] {
        let tree = request.tree
        var writer = JSONWriter(capacity: 64 + tree.nodeCount * 72)
        writer.beginObject()
        writer.key("root")
        // Each open node with the children still to write.
        var stack: [ChildSequence] = []
        func open(_ node: NodeID) -> ChildSequence? {
            let frame = tree.frame(of: node)
            writer.beginObject()
            if let id = request.ids.indices.contains(Int(node.index)) ? request.ids[Int(node.index)] : nil {
                writer.key("id"); writer.string(id)
            }
            writer.key("left"); writer.number(frame.left)
            writer.key("top"); writer.number(frame.top)
            writer.key("width"); writer.number(frame.width)
            writer.key("height"); writer.number(frame.height)
            guard tree.childCount(of: node) > 0 else { writer.endObject(); return nil }
            writer.key("children")
            writer.beginArray()
            return tree.children(of: node)
        }
        if let children = open(request.root) { stack.append(children) }
        while !stack.isEmpty {
            if let child = stack[stack.count - 1].next() {
                if let children = open(child) { stack.append(children) }
            } else {
                stack.removeLast()
                writer.endArray()
                writer.endObject()
            }
        }
        writer.endObject()
        return writer.bytes
    }
}
