import LayoutEngine
import LayoutWire

/// Writes a layout answer, `{"root":{"id":..,"left":..,"top":..,"width":..,"height":..,
/// "children":[...]}}`, from frames listed in pre-order from the root (the cache's id-free
/// form) and the request's ids. Hits and misses both go through here, so a cached answer is
/// byte for byte the answer a fresh computation would give.
public enum FrameEncoder {
    /// The frames of the subtree at `root` in pre-order (root, then each child's subtree in
    /// order): the order `encode` reads them in and the structural hash walks in.
    public static func preorderFrames(of tree: LayoutTree, root: NodeID) -> [Frame] {
        var frames: [Frame] = []
        frames.reserveCapacity(tree.nodeCount)
        // First child above next sibling on the stack: pre-order without a per-node copy of
        // the sibling links (the root's own siblings are not in its subtree).
        var stack: [NodeID] = [root]
        var isRoot = true
        while let node = stack.popLast() {
            frames.append(tree.frame(of: node))
            if isRoot {
                isRoot = false
            } else if tree.nextSibling(of: node) != .none {
                stack.append(tree.nextSibling(of: node))
            }
            if tree.firstChild(of: node) != .none { stack.append(tree.firstChild(of: node)) }
        }
        return frames
    }

    /// The JSON pointer (`/root/children/2/children/0`) of the node at `target` in pre-order.
    public static func pointer(toPreorderIndex target: Int, tree: LayoutTree, root: NodeID) -> String {
        // Walk in pre-order keeping the path: (children left to visit, position of the last one).
        var path: [(children: ChildSequence, position: Int)] = []
        var index = 0
        var node = root
        while index < target {
            path.append((tree.children(of: node), -1))
            // Step to the next node in pre-order: the first child, else the next sibling of the
            // nearest ancestor that has one.
            while let last = path.last {
                var children = last.children
                if let next = children.next() {
                    path[path.count - 1] = (children, last.position + 1)
                    node = next
                    break
                }
                path.removeLast()
            }
            if path.isEmpty { break }
            index += 1
        }
        return "/root" + path.map { "/children/\($0.position)" }.joined()
    }

    /// The answer for the subtree at `root`, taking frames from `frames` (pre-order) and ids
    /// from `ids` (indexed by `NodeID.index`; nil or missing means no id). Written with the
    /// wire's `JSONWriter`, so numbers read exactly as `LayoutWire.encodeResponse` writes them.
    /// `nodeMembers` may add members to a node after its frame (before its children), and
    /// `trailer` members to the answer after `root`.
    public static func encode(tree: LayoutTree, root: NodeID, ids: [String?], frames: [Frame],
                              nodeMembers: ((NodeID, inout JSONWriter) -> Void)? = nil,
                              trailer: ((inout JSONWriter) -> Void)? = nil) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + frames.count * 72)
        var next = 0
        // Each open node's next child still to write (`.none`: its children are all written).
        var stack: [NodeID] = []
        // Keys `as StaticString`: a bare literal picks `key(_: String)`, which scans for escapes
        // and copies per key.
        func open(_ node: NodeID) -> NodeID? {
            let frame = next < frames.count ? frames[next] : .zero
            next += 1
            writer.beginObject()
            let index = Int(node.index)
            if index < ids.count, let id = ids[index] {
                writer.key("id" as StaticString); writer.string(id)
            }
            writer.key("left" as StaticString); writer.number(frame.left)
            writer.key("top" as StaticString); writer.number(frame.top)
            writer.key("width" as StaticString); writer.number(frame.width)
            writer.key("height" as StaticString); writer.number(frame.height)
            nodeMembers?(node, &writer)
            let first = tree.firstChild(of: node)
            guard first != .none else { writer.endObject(); return nil }
            writer.key("children" as StaticString)
            writer.beginArray()
            return first
        }
        writer.beginObject()
        writer.key("root" as StaticString)
        if let first = open(root) { stack.append(first) }
        while let child = stack.last {
            if child != .none {
                stack[stack.count - 1] = tree.nextSibling(of: child)
                if let first = open(child) { stack.append(first) }
            } else {
                stack.removeLast()
                writer.endArray()
                writer.endObject()
            }
        }
        trailer?(&writer)
        writer.endObject()
        return writer.bytes
    }
}
