import LayoutEngine

/// Writes a layout answer: `{"root":{"id":..,"left":..,"top":..,"width":..,"height":..,
/// "children":[...]}}`. The one encoder of answers: the service's misses and cache hits, the
/// tests and the benchmarks all go through `encode`, so every answer reads the same byte for
/// byte.
///
/// Frames come from a `ResponseFrames` source (the laid-out tree itself, or the frame cache's
/// id-free pre-order list) and each node may carry further members from a `ResponseNodeMembers`
/// writer (none today; text lines or changes later), so a new per-node member is a new writer,
/// not a second encoder. Both are generic parameters: specialised, they cost nothing per node.
public enum ResponseEncoder {
    /// The answer for the subtree at `root`: frames from `frames`, ids from `ids` (indexed by
    /// `NodeID.index`; nil or missing means no id), and after each node's frame the members
    /// `members` writes; `printedTree` (Core Layout's print, `"print": true`) as `"print"`
    /// after the root; `trailer` may add members after those (text layout's `warnings`).
    /// Inlinable so each caller gets it specialised for its frame source and members.
    @inlinable
    public static func encode<Frames: ResponseFrames, Members: ResponseNodeMembers>(
        tree: LayoutTree, root: NodeID, ids: NodeIdentifiers, frames: Frames, members: Members,
        printedTree: String? = nil,
        trailer: ((inout JSONWriter) -> Void)? = nil
    ) -> [UInt8] {
        ids.withView { ids in
            encode(tree: tree, root: root, ids: ids, frames: frames, members: members, printedTree: printedTree,
                   trailer: trailer)
        }
    }

    @inlinable
    static func encode<Frames: ResponseFrames, Members: ResponseNodeMembers>(
        tree: LayoutTree, root: NodeID, ids: NodeIdentifiers.View, frames: Frames, members: Members,
        printedTree: String?, trailer: ((inout JSONWriter) -> Void)?
    ) -> [UInt8] {
        var frames = frames
        var writer = JSONWriter(capacity: 64 + frames.expectedCount(in: tree) * 72)
        // Each open node's next child still to write (`.none`: its children are all written).
        var stack: [NodeID] = []
        // Keys `as StaticString`: a bare literal picks `key(_: String)`, which scans for escapes
        // and copies per key.
        func open(_ node: NodeID) -> NodeID? {
            let frame = frames.next(node, in: tree)
            let index = Int(node.index)
            writer.openNode(idUTF8: index < ids.count ? ids[index] : nil, frame: frame)
            members.write(node, in: tree, to: &writer)
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
        if let printedTree {
            writer.key("print" as StaticString)
            writer.string(printedTree)
        }
        trailer?(&writer)
        writer.endObject()
        return writer.bytes
    }

    /// The answer with frames from a pre-order list (`LayoutTree.preorderFrames(root:)`, as
    /// the frame cache keeps them) and nothing else per node.
    public static func encode(tree: LayoutTree, root: NodeID, ids: NodeIdentifiers, frames: [Frame],
                              printedTree: String? = nil) -> [UInt8] {
        encode(tree: tree, root: root, ids: ids, frames: PreorderFrames(frames), members: NoNodeMembers(),
               printedTree: printedTree)
    }

    /// The answer of a laid-out request, frames read from its tree.
    public static func encode(_ request: LayoutRequest) -> [UInt8] {
        encode(tree: request.tree, root: request.root, ids: request.ids, frames: TreeFrames(), members: NoNodeMembers(),
               printedTree: request.printsTree ? request.printedTree() : nil)
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
}

/// Where `ResponseEncoder` takes each node's frame, asked once per node in pre-order.
public protocol ResponseFrames {
    /// How many frames to reserve answer room for.
    func expectedCount(in tree: LayoutTree) -> Int
    mutating func next(_ node: NodeID, in tree: LayoutTree) -> Frame
}

/// Frames read from the laid-out tree.
public struct TreeFrames: ResponseFrames {
    public init() {}
    @inlinable public func expectedCount(in tree: LayoutTree) -> Int { tree.nodeCount }
    @inlinable public func next(_ node: NodeID, in tree: LayoutTree) -> Frame { tree.frame(of: node) }
}

/// Frames from a pre-order list (`LayoutTree.preorderFrames(root:)`, as the frame cache keeps
/// them); missing ones read as zero.
public struct PreorderFrames: ResponseFrames {
    @usableFromInline let frames: [Frame]
    @usableFromInline var position = 0
    public init(_ frames: [Frame]) { self.frames = frames }
    @inlinable public func expectedCount(in tree: LayoutTree) -> Int { frames.count }
    @inlinable public mutating func next(_ node: NodeID, in tree: LayoutTree) -> Frame {
        defer { position += 1 }
        return position < frames.count ? frames[position] : .zero
    }
}

/// Members a feature adds to every node of an answer, written after the frame and before
/// `children` (each call writes zero or more `key`/value pairs into the open node object).
public protocol ResponseNodeMembers {
    func write(_ node: NodeID, in tree: LayoutTree, to writer: inout JSONWriter)
}

/// No members beyond the frame.
public struct NoNodeMembers: ResponseNodeMembers {
    public init() {}
    @inlinable public func write(_ node: NodeID, in tree: LayoutTree, to writer: inout JSONWriter) {}
}
