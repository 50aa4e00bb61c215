// Frames a caller keeps between layout calls, brought up to date from the nodes the last call
// rounded anew instead of read again node by node: a service that relays out a tree of
// thousands after an edit of one leaf reads, checks and compares the few frames that moved.

/// What layout passes list as they go, for work after the pass that would otherwise visit
/// every node.
@usableFromInline struct PassRecords: Sendable {
    /// With `memoizesPixelRounding`: the nodes the last layout call rounded anew, possibly
    /// repeated (a call may round a subtree in several passes); every other node kept the
    /// frame it had before the call.
    var roundedAnew: [Int32] = []
    /// Whether `roundedAnew` are all the frames the last call changed: it ran with the rounding
    /// records on, and on the structure of the call before it.
    var roundedAnewIsComplete = false
    /// The tree's `structureVersion` at the last layout call.
    var structureVersion: UInt32?
    /// With request logs: the nodes the last pass began to answer from their logs
    /// (`LayoutTree.replayEndedEarly`).
    var replayed: [Int32] = []
}

/// Each node's pre-order position under `root` (-1 outside its subtree), for one
/// `structureVersion`.
@usableFromInline struct PreorderCache: Sendable {
    var root: Int32 = -1
    var structureVersion: UInt32 = 0
    var positions: [Int32] = []
    /// Nodes in the subtree.
    var count = 0
}

/// A node whose frame a layout call changed, and its place in `LayoutTree.preorderFrames`.
public struct MovedFrame: Sendable, Equatable {
    /// The node's pre-order position under the root.
    public var position: Int
    public var node: NodeID

    public init(position: Int, node: NodeID) {
        self.position = position
        self.node = node
    }
}

extension LayoutTree {
    /// Brings `frames` — the frames of the subtree at `root` in pre-order, as `preorderFrames`
    /// read them before the last layout call — up to date with that call, and returns the
    /// nodes whose frame changed (bit for bit), in pre-order. With `memoizesPixelRounding` on
    /// during that call and the structure that of the call before it, only the frames the call
    /// rounded anew are read; otherwise every frame is read and compared. `frames` of another
    /// length than the subtree are replaced by `preorderFrames`, every node listed as moved.
    public mutating func updatePreorderFrames(_ frames: inout [Frame], root: NodeID) -> [MovedFrame] {
        guard let positions = preorderPositionsKept(root: root) else { return [] }
        guard frames.count == positions.count else {
            frames = preorderFrames(root: root)
            return preorderNodes(root: root).enumerated().map { MovedFrame(position: $0.offset, node: $0.element) }
        }
        var moved: [MovedFrame] = []
        // Nodes to read: those rounded anew, else all of them.
        let candidates = records.roundedAnewIsComplete ? records.roundedAnew : Array(0..<Int32(nodeCount))
        layouts.withUnsafeBufferPointer { layouts in
            positions.positions.withUnsafeBufferPointer { positions in
                frames.withUnsafeMutableBufferPointer { frames in
                    for node in candidates {
                        let position = Int(positions[Int(node)])
                        guard position >= 0 else { continue }
                        let frame = layouts[Int(node)].frame
                        if !frame.isBitwiseEqual(to: frames[position]) {
                            frames[position] = frame
                            moved.append(MovedFrame(position: position, node: NodeID(node)))
                        }
                    }
                }
            }
        }
        moved.sort { $0.position < $1.position }
        return moved
    }

    /// Starts the records of a layout call (`PassRecords.roundedAnew`).
    mutating func beginLayoutCall() {
        records.roundedAnew.removeAll(keepingCapacity: records.roundedAnew.count <= 64)
        records.roundedAnewIsComplete = memoizesPixelRounding && records.structureVersion == structureVersion
        records.structureVersion = structureVersion
    }

    /// The pre-order positions of `preorderCache`, made again when the structure or root changed.
    private mutating func preorderPositionsKept(root: NodeID) -> (positions: [Int32], count: Int)? {
        let r = Int(root.index)
        guard r >= 0 && r < nodeCount else { return nil }
        if preorderCache.root != root.index || preorderCache.structureVersion != structureVersion
            || preorderCache.positions.count != nodeCount {
            var positions = [Int32](repeating: -1, count: nodeCount)
            var next: Int32 = 0
            Self.walkSubtree(from: r, firstChildren, nextSiblings, parents) { n, _ in
                positions[n] = next
                next += 1
            }
            preorderCache = PreorderCache(root: root.index, structureVersion: structureVersion, positions: positions,
                                          count: Int(next))
        }
        return (preorderCache.positions, preorderCache.count)
    }
}

extension Frame {
    /// Whether both frames hold the same four floats, bit for bit.
    @inline(__always) func isBitwiseEqual(to other: Frame) -> Bool {
        left.bitPattern == other.left.bitPattern && top.bitPattern == other.top.bitPattern
            && width.bitPattern == other.width.bitPattern && height.bitPattern == other.height.bitPattern
    }
}
