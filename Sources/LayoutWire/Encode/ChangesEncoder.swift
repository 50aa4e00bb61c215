import LayoutEngine

/// The answer to a patch with `changesOnly`: `{"changes": [{"pointer", "id", "left", "top",
/// "width", "height"}], "removed": [pointer]}`, comparing a new tree with the tree it was
/// patched from node by node at the same pointer (`/root/children/2`), or (`changesBy: node`)
/// each node with itself before the patch.
///
/// By pointer, a node is listed in `changes` when its frame (relative to its parent, as in a
/// whole answer) differs from the frame of the base's node at its pointer, or the base has no
/// node there (an added node; its descendants are listed too). `removed` lists the topmost
/// pointers of the base where the new tree has no node. By node, a node is listed when it is
/// new or its frame differs from its own in the base, and `removed` is empty. `id` is left out
/// for nodes without one.
public enum ChangesEncoder {
    /// A laid-out tree's structure and its nodes' frames in pre-order (the first frames of an
    /// answer), as they were when the side was made: the tree may be edited afterwards (a
    /// patch that adds or removes children keeps the base's side this way).
    public struct Side {
        var links: LayoutTree.Links
        var positions: [Int]
        public var root: NodeID
        public var frames: [Frame]

        public init(tree: LayoutTree, root: NodeID, frames: [Frame]) {
            self.links = tree.links
            self.positions = tree.preorderPositions(root: root)
            self.root = root
            self.frames = frames
        }
    }

    /// The changes between two layouts of one tree (a patch that edited nodes but not the
    /// structure): of the nodes whose frame `moved` (in pre-order, as
    /// `LayoutTree.updatePreorderFrames` lists them), those whose frame is not equal to the
    /// base's at the same position, each pointer made from its node up.
    public static func encode(tree: LayoutTree, root: NodeID, ids: NodeIdentifiers, baseFrames: [Frame],
                              frames: [Frame], moved: [MovedFrame]) -> [UInt8] {
        let changed = moved.filter { !same(baseFrames[$0.position], frames[$0.position]) }
        var writer = JSONWriter(capacity: 64 + 120 * changed.count)
        writer.beginObject()
        writer.key("changes")
        writer.beginArray()
        let links = tree.links
        var pointer: [UInt8] = []
        for entry in changed {
            guard let path = links.path(to: entry.node, from: root) else { continue }
            spell(path, into: &pointer)
            write(entry.node, pointer: pointer, frame: frames[entry.position], ids: ids, to: &writer)
        }
        return finished(&writer, removed: [])
    }

    /// The answer's end, after the last change: `removed` and the closing brackets.
    private static func finished(_ writer: inout JSONWriter, removed: [String]) -> [UInt8] {
        writer.endArray()
        writer.key("removed")
        writer.beginArray()
        for pointer in removed { writer.string(pointer) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    /// The pointer of the node at child `positions` from the root (`/root/children/2/…`),
    /// spelled into one reused byte buffer, not joined from an interpolated string per level.
    private static func spell(_ positions: some Sequence<Int>, into pointer: inout [UInt8]) {
        pointer.removeAll(keepingCapacity: true)
        pointer.append(contentsOf: "/root".utf8)
        for position in positions {
            pointer.append(contentsOf: "/children/".utf8)
            appendDecimal(position, to: &pointer)
        }
    }

    /// `value` (not negative) in decimal.
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    @inline(__always) private static func same(_ a: Frame, _ b: Frame) -> Bool {
        a.left == b.left && a.top == b.top && a.width == b.width && a.height == b.height
    }

    private static func write(_ node: NodeID, pointer: [UInt8], frame: Frame, ids: NodeIdentifiers, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("pointer")
        pointer.withUnsafeBufferPointer { writer.string(utf8: $0) }
        ids.withUTF8(at: Int(node.index)) { id in
            if let id {
                writer.key("id")
                writer.string(utf8: id)
            }
        }
        writer.key("left"); writer.number(frame.left)
        writer.key("top"); writer.number(frame.top)
        writer.key("width"); writer.number(frame.width)
        writer.key("height"); writer.number(frame.height)
        writer.endObject()
    }

    /// The changes between two layouts of one tree that a patch edited in place, each node
    /// paired with itself (`changesBy: node`): the nodes of `new` whose frame differs from their
    /// own in `base`, or that `base` did not hold (added by the patch), each under its pointer
    /// in `new`. Without `base` (the service cannot tell which node is which: the patched
    /// document was decoded anew), every node is listed.
    public static func encode(following base: Side?, new: Side, ids: NodeIdentifiers) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("changes")
        writer.beginArray()
        var pointer: [UInt8] = []
        // Each open level's next child and the index it will have.
        var stack: [(next: NodeID, index: Int)] = []
        var node = new.root
        while true {
            let frame = new.frames[new.positions[Int(node.index)]]
            let position = base.flatMap { base in
                Int(node.index) < base.positions.count ? base.positions[Int(node.index)] : nil
            } ?? -1
            if position < 0 || !same(base!.frames[position], frame) {
                spell(stack.lazy.map { $0.index - 1 }, into: &pointer)
                write(node, pointer: pointer, frame: frame, ids: ids, to: &writer)
            }
            stack.append((new.links.firstChild(of: node), 0))
            while let last = stack.last, last.next == .none { stack.removeLast() }
            guard let last = stack.last else { break }
            node = last.next
            stack[stack.count - 1] = (new.links.nextSibling(of: node), last.index + 1)
        }
        return finished(&writer, removed: [])
    }

    /// The changes between two layouts whose structures may differ (a patch added, removed or
    /// moved nodes): nodes paired by pointer, walking both trees at once.
    public static func encode(base: Side, new: Side, ids: NodeIdentifiers) -> [UInt8] {
        let basePositions = base.positions, newPositions = new.positions
        // The children of one visited node being paired with the base's, by index.
        struct Level {
            var newChild: NodeID
            var baseChild: NodeID
            var index = 0
        }
        var stack: [Level] = []
        // A pointer is spelled only for a node that is listed (a few of thousands), from the
        // indices on the stack: spelling each visited node's cost more than the whole walk.
        var pointer: [UInt8] = []
        func spellPointer() { spell(stack.lazy.map { $0.index - 1 }, into: &pointer) }
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("changes")
        writer.beginArray()
        func visit(_ node: NodeID, base baseNode: NodeID) {
            let frame = new.frames[newPositions[Int(node.index)]]
            if baseNode != .none && same(base.frames[basePositions[Int(baseNode.index)]], frame) { return }
            spellPointer()
            write(node, pointer: pointer, frame: frame, ids: ids, to: &writer)
        }
        var removed: [String] = []
        visit(new.root, base: base.root)
        stack.append(Level(newChild: new.links.firstChild(of: new.root), baseChild: base.links.firstChild(of: base.root)))
        while !stack.isEmpty {
            let k = stack.count - 1
            let node = stack[k].newChild, baseNode = stack[k].baseChild
            if node == .none && baseNode == .none {
                stack.removeLast()
                continue
            }
            stack[k].index += 1
            stack[k].newChild = node == .none ? .none : new.links.nextSibling(of: node)
            stack[k].baseChild = baseNode == .none ? .none : base.links.nextSibling(of: baseNode)
            if node == .none {
                spellPointer()
                removed.append(String(decoding: pointer, as: UTF8.self))
                continue
            }
            visit(node, base: baseNode)
            stack.append(Level(newChild: new.links.firstChild(of: node),
                               baseChild: baseNode == .none ? .none : base.links.firstChild(of: baseNode)))
        }
        return finished(&writer, removed: removed)
    }
}
