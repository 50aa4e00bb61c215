#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    /// `copies` (a decoder's `LayoutRequest.subtreeCopies`) lets a copy of a repeated subtree
    /// be written from its source's bytes when its frames are the source's (see
    /// `CopiedSubtreeWriter`); the answer is the same with or without it.
    @inlinable
    public static func encode<Frames: ResponseFrames, Members: ResponseNodeMembers>(
        tree: LayoutTree, root: NodeID, ids: NodeIdentifiers, frames: Frames, members: Members,
        printedTree: String? = nil, copies: SubtreeCopies = SubtreeCopies(),
        trailer: ((inout JSONWriter) -> Void)? = nil
    ) -> [UInt8] {
        var copiesWritten = 0
        return ids.withView { ids in
            encode(tree: tree, root: root, ids: ids, frames: frames, members: members, printedTree: printedTree,
                   copies: copies, copiesWritten: &copiesWritten, trailer: trailer)
        }
    }

    /// `copiesWritten`: how many of `copies` were written from their source's bytes.
    @inlinable
    static func encode<Frames: ResponseFrames, Members: ResponseNodeMembers>(
        tree: LayoutTree, root: NodeID, ids: NodeIdentifiers.View, frames: Frames, members: Members,
        printedTree: String?, copies: SubtreeCopies, copiesWritten: inout Int, trailer: ((inout JSONWriter) -> Void)?
    ) -> [UInt8] {
        // A source's recorded bytes hold no members: copies only for answers of frames alone.
        if !copies.describe(tree) || !Members.writesNothing {
            return encode(tree: tree, root: root, ids: ids, frames: frames, members: members, printedTree: printedTree,
                          copies: [], copiesWritten: &copiesWritten, trailer: trailer, writingCopies: CopiesOff.self)
        }
        return encode(tree: tree, root: root, ids: ids, frames: frames, members: members, printedTree: printedTree,
                      copies: copies.list, copiesWritten: &copiesWritten, trailer: trailer, writingCopies: CopiesOn.self)
    }

    /// The answer of a tree with instances (`LayoutTree.instances`, ids of their descendants
    /// in `instanceIDs`): that of the tree they stand for, frames from its pre-order list
    /// (`preorderFrames`). Each instance is written from its source's bytes or, where it cannot
    /// be (its frames are not its source's, or its source's ids needed escapes), node by node
    /// from its source's shape. Nil when an instance is met where neither can be done (inside a
    /// source being recorded, which a decoder does not make).
    public static func encode(tree: LayoutTree, root: NodeID, ids: NodeIdentifiers, instanceIDs: NodeIdentifiers,
                              frames: [Frame]) -> [UInt8]? {
        var copiesWritten = 0
        let bytes = ids.withView { ids in
            instanceIDs.withView { instanceIDs in
                encode(tree: tree, root: root, ids: ids, frames: PreorderFrames(frames), members: NoNodeMembers(),
                       printedTree: nil,
                       copied: CopiedSubtreeWriter(instances: tree.instances, instanceIDs: instanceIDs, nodeCount: tree.nodeCount),
                       copiesWritten: &copiesWritten, trailer: nil, writingCopies: CopiesOn.self)
            }
        }
        return copiesWritten == tree.instances.nodes.count ? bytes : nil
    }

    /// The encoder itself; `Copies` decides at compile time whether copies are looked for, so
    /// an answer without any pays nothing for them.
    @inlinable
    static func encode<Frames: ResponseFrames, Members: ResponseNodeMembers, Copies: CopiesSwitch>(
        tree: LayoutTree, root: NodeID, ids: NodeIdentifiers.View, frames: Frames, members: Members,
        printedTree: String?, copies: [CopiedSubtree], copiesWritten: inout Int, trailer: ((inout JSONWriter) -> Void)?,
        writingCopies: Copies.Type
    ) -> [UInt8] {
        encode(tree: tree, root: root, ids: ids, frames: frames, members: members, printedTree: printedTree,
               copied: CopiedSubtreeWriter(copies: copies, nodeCount: tree.nodeCount), copiesWritten: &copiesWritten,
               trailer: trailer, writingCopies: Copies.self)
    }

    @inlinable
    static func encode<Frames: ResponseFrames, Members: ResponseNodeMembers, Copies: CopiesSwitch>(
        tree: LayoutTree, root: NodeID, ids: NodeIdentifiers.View, frames: Frames, members: Members,
        printedTree: String?, copied: CopiedSubtreeWriter, copiesWritten: inout Int,
        trailer: ((inout JSONWriter) -> Void)?, writingCopies: Copies.Type
    ) -> [UInt8] {
        var frames = frames
        var writer = JSONWriter(capacity: 64 + frames.expectedCount(in: tree) * 72)
        // Each open node's next child still to write (`.none`: its children are all written).
        var stack: [NodeID] = []
        var copied = copied
        // Nodes opened so far: the next node's position in pre-order.
        var position = 0
        // Keys `as StaticString`: a bare literal picks `key(_: String)`, which scans for escapes
        // and copies per key.
        // An instance (`LayoutTree.instances`) whose frames are not its source's is written
        // node by node: its source's descendants, with the instance's ids and frames, while the
        // stack is deeper than `expandingDepth` (-1: not in one); `expandingID`: the next id.
        var expandingDepth = -1, expandingID = 0
        func open(_ node: NodeID) -> NodeID? {
            var recorded = false, startsRecording = false
            var expandsFrom = NodeID.none
            let expanding = Copies.on && expandingDepth >= 0
            if Copies.on && !expanding {
                // Not inside a source being recorded: its record needs every node's place.
                if copied.recording < 0, let copy = copied.copy(at: node) {
                    if copied.write(copy, at: position, tree: tree, ids: ids, frames: &frames, to: &writer) {
                        copiesWritten += 1
                        position += Int(copy.nodeCount)
                        return nil
                    }
                    if let start = copied.instanceIDStartOfLastCopy {
                        expandsFrom = copy.source
                        expandingID = start
                        copiesWritten += 1
                    }
                }
                startsRecording = expandsFrom == .none && copied.startsSource(node)
                recorded = startsRecording || copied.recording >= 0
            }
            let start = Copies.on ? writer.out.count : 0, comma = Copies.on && writer.needsComma
            let frame = frames.next(node, in: tree)
            let index = Int(node.index)
            var id = index < ids.count ? ids[index] : nil
            var escapeFree = ids.escapeFree
            if expanding {
                id = copied.instanceIDs.map { expandingID < $0.count ? $0[expandingID] : nil } ?? nil
                escapeFree = copied.instanceIDs?.escapeFree ?? false
                expandingID += 1
            }
            writer.openNode(idUTF8: id, frame: frame, escapeFree: escapeFree)
            members.write(node, in: tree, to: &writer)
            if Copies.on {
                if recorded {
                    copied.record(node, root: startsRecording, position: position, depth: stack.count, id: id,
                                  escapeFree: escapeFree, start: start, comma: comma, writer: writer)
                }
                position += 1
            }
            let first = tree.firstChild(of: expandsFrom == .none ? node : expandsFrom)
            if Copies.on && expandsFrom != .none && first != .none { expandingDepth = stack.count }
            guard first != .none else {
                // A source is a subtree of two nodes or more (one that no longer is, goes).
                if Copies.on && startsRecording { copied.abandonRecording() }
                writer.endObject()
                return nil
            }
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
                if Copies.on && stack.count == expandingDepth { expandingDepth = -1 }
                if Copies.on && copied.recording >= 0 { copied.closed(depth: stack.count, at: writer.out.count) }
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
                              printedTree: String? = nil, copies: SubtreeCopies = SubtreeCopies()) -> [UInt8] {
        encode(tree: tree, root: root, ids: ids, frames: PreorderFrames(frames), members: NoNodeMembers(),
               printedTree: printedTree, copies: copies)
    }

    /// The answer of a laid-out request, frames read from its tree.
    public static func encode(_ request: LayoutRequest) -> [UInt8] {
        encode(tree: request.tree, root: request.root, ids: request.ids, frames: TreeFrames(), members: NoNodeMembers(),
               printedTree: request.printsTree ? request.printedTree() : nil, copies: request.subtreeCopies)
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
    /// Whether, of the `count` nodes stored from `a` on (at pre-order position `pa` on) and
    /// from `b` on (at `pb` on), all but the first have bit for bit the same frames: a copied
    /// subtree and its source, whose roots sit in other places (see `CopiedSubtreeWriter`).
    /// False when the source cannot tell.
    func sameFrames(_ a: NodeID, _ b: NodeID, atPreorder pa: Int, _ pb: Int, count: Int, in tree: LayoutTree) -> Bool
    /// Passes over the frames of the next `count` nodes, as `next` would.
    mutating func skip(_ count: Int, in tree: LayoutTree)
}

// A source that cannot compare frames gets no copies written, so it is never asked to skip.
extension ResponseFrames {
    public func sameFrames(_ a: NodeID, _ b: NodeID, atPreorder pa: Int, _ pb: Int, count: Int,
                           in tree: LayoutTree) -> Bool { false }
    public mutating func skip(_ count: Int, in tree: LayoutTree) {}
}

/// Frames compared as their bits: equal bits make equal bytes in an answer.
@inlinable func sameBits(_ a: Frame, _ b: Frame) -> Bool {
    a.left.bitPattern == b.left.bitPattern && a.top.bitPattern == b.top.bitPattern
        && a.width.bitPattern == b.width.bitPattern && a.height.bitPattern == b.height.bitPattern
}

/// Frames read from the laid-out tree.
public struct TreeFrames: ResponseFrames {
    public init() {}
    @inlinable public func expectedCount(in tree: LayoutTree) -> Int { tree.nodeCount }
    @inlinable public func next(_ node: NodeID, in tree: LayoutTree) -> Frame { tree.frame(of: node) }
    @inlinable public func sameFrames(_ a: NodeID, _ b: NodeID, atPreorder pa: Int, _ pb: Int, count: Int,
                                      in tree: LayoutTree) -> Bool {
        (1..<max(count, 1)).allSatisfy { sameBits(tree.frame(of: NodeID(Int(a.index) + $0)), tree.frame(of: NodeID(Int(b.index) + $0))) }
    }
    @inlinable public func skip(_ count: Int, in tree: LayoutTree) {}
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
    @inlinable public func sameFrames(_ a: NodeID, _ b: NodeID, atPreorder pa: Int, _ pb: Int, count: Int,
                                      in tree: LayoutTree) -> Bool {
        guard pa >= 0, pb >= 0, pa + count <= frames.count, pb + count <= frames.count else { return false }
        guard count > 1 else { return true }
        // A frame is four floats without padding: equal bytes are equal bits.
        return frames.withUnsafeBufferPointer { frames in
            memcmp(frames.baseAddress! + pa + 1, frames.baseAddress! + pb + 1, (count - 1) * MemoryLayout<Frame>.stride) == 0
        }
    }
    @inlinable public mutating func skip(_ count: Int, in tree: LayoutTree) { position += count }
}

/// Members a feature adds to every node of an answer, written after the frame and before
/// `children` (each call writes zero or more `key`/value pairs into the open node object).
public protocol ResponseNodeMembers {
    func write(_ node: NodeID, in tree: LayoutTree, to writer: inout JSONWriter)
    /// Whether `write` never writes anything (the answer holds frames alone).
    static var writesNothing: Bool { get }
}

extension ResponseNodeMembers {
    public static var writesNothing: Bool { false }
}

/// No members beyond the frame.
public struct NoNodeMembers: ResponseNodeMembers {
    public init() {}
    @inlinable public func write(_ node: NodeID, in tree: LayoutTree, to writer: inout JSONWriter) {}
    @inlinable public static var writesNothing: Bool { true }
}
