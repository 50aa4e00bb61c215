// Instances of repeated subtrees (see SubtreeInstances.swift): adding them, the expanded
// pre-order they stand for, and their descendants' frames after a layout call.

extension LayoutTree {
    /// Adds, as the last child of `parent`, a node that stands for a copy of the subtree at
    /// `source` (of `size` nodes, root included) without storing the copy's descendants: for a
    /// decoder that met a subtree it decoded before again, byte for byte but for its ids. The
    /// instance takes the source root's style and content. Laid out with the subtree memo
    /// (`subtreeReuse`); a layout call that cannot lay it out so leaves `instancesLaidOut`
    /// false, and the caller builds the tree without instances instead. `source` must be no
    /// instance and have children; the tree must not be edited afterwards.
    // Appends to every per-node array as `nodeStored` and `nodeAdded` do (see
    // `addNodes(copying:under:)`; the assertion below catches a forgotten one).
    @_spi(Decoding)
    public mutating func addInstance(of source: NodeID, size: Int, under parent: NodeID) -> NodeID {
        let s = Int(source.index)
        assert(size > 1 && firstChildren[s] != .none && instanceIndex(of: s) == nil, "an instance of a leaf or an instance")
        styles.append(styles[s])
        contents.append(contents[s])
        parents.append(.none)
        firstChildren.append(.none)
        lastChildren.append(.none)
        nextSiblings.append(.none)
        childCounts.append(0)
        layouts.append(NodeLayout())
        let entry = CacheEntry()
        for _ in 0..<maxCachedMeasurements { measureCaches.append(entry) }
        measuredFlags.append(measuredFlags[s])
        styleFlags.append(styleFlags[s])
        flagCounts.replace([], with: styleFlags[s])
        assert([contents.count, parents.count, firstChildren.count, lastChildren.count, nextSiblings.count,
                childCounts.count, layouts.count, measuredFlags.count, styleFlags.count,
                measureCaches.count / maxCachedMeasurements].allSatisfy { $0 == styles.count },
               "a per-node array was not appended to")
        let node = NodeID(styles.count - 1)
        link(node, under: parent)
        if !layouts[Int(parent.index)].isDirty { markDirty(parent) }
        instances.nodes.append(node.index)
        instances.sources.append(source.index)
        instances.sizes.append(Int32(size))
        instances.virtualNodes += size - 1
        instances.structureVersion = structureVersion
        return node
    }

    /// The nodes of the tree the instances stand for: `nodeCount` and every instance's
    /// descendants (the length of `preorderFrames` from the root).
    @inlinable public var expandedNodeCount: Int { nodeCount + instances.virtualNodes }

    /// Whether the tree has instances (`addInstance(of:size:under:)`).
    @inlinable public var hasInstances: Bool { !instances.isEmpty }

    /// Whether the last layout call laid out every instance: each from a snapshot of its
    /// source's computation under the same arguments. False after a call that could not (the
    /// subtree memo was off or could not be used, an instance got a call its source never got,
    /// or the tree aligns by baselines, which reads inside items); the frames of such a call
    /// are not those of the tree the instances stand for (without the memo, the call lays
    /// nothing out at all). True for a tree without instances.
    public var instancesLaidOut: Bool { instances.isEmpty || instances.laidOut }

    /// The position in `instances.nodes` of the instance at node index `n`, if it is one.
    func instanceIndex(of n: Int) -> Int? {
        guard !instances.isEmpty else { return nil }
        // Added in increasing order: a binary search.
        var low = 0, high = instances.nodes.count
        while low < high {
            let mid = (low + high) / 2
            if Int(instances.nodes[mid]) < n { low = mid + 1 } else { high = mid }
        }
        return low < instances.nodes.count && Int(instances.nodes[low]) == n ? low : nil
    }

    /// The position in `instances.nodes` of node `n` when it is an instance, else -1; `next` is
    /// the instance a walk in pre-order meets next (instances are added in increasing order, as
    /// a decoder stores in pre-order; a tree built otherwise looks each one up).
    @inline(__always)
    func instancePosition(of n: Int, next: inout Int) -> Int {
        guard !instances.isEmpty, firstChildren[n] == .none else { return -1 }
        if next < instances.nodes.count && Int(instances.nodes[next]) == n {
            next += 1
            return next - 1
        }
        return instanceIndex(of: n) ?? -1
    }

    /// After a layout call with `memo`: the rounded frames of every instance's descendants,
    /// from the snapshot of its last computation, at its place; or `laidOut` false.
    mutating func finishInstances(root: Int, memo: SubtreeMemoState?) {
        guard !instances.isEmpty else { return }
        instances.laidOut = false
        instances.frames.removeAll(keepingCapacity: true)
        instances.frameStarts.removeAll(keepingCapacity: true)
        instances.sharedRoundings = 0
        guard let memo, memo.instanceMisses == 0, structureVersion == instances.structureVersion else { return }
        let scale = Double(config.pointScaleFactor)
        // Per source: its descendants' parents as positions in its pre-order, and which are
        // measured (text rounding); made once per source, when a rounding needs it.
        var shapes: [Int32: SourceShape] = [:]
        // Rounded frames that depend only on the snapshot, for places where rounding commutes
        // with the place (see `roundsAlike`): by snapshot number, where they start in `frames`
        // (-1: the snapshot's values are not exact in few bits, see `exactInFewBits`; -2: not
        // rounded yet).
        var sharedStarts = [Int32](repeating: -2, count: memo.snapshots.count)
        // The last instance's parent and its absolute place (a feed's cells share one).
        var lastParent = (node: -1, left: 0.0, top: 0.0)
        let states = memo.instanceStates
        for k in instances.nodes.indices {
            let n = Int(instances.nodes[k])
            let number = Int(states[n])
            // The snapshot's size from its flat root row: taking the snapshot itself (a class
            // instance) only where its frames are rounded saves a retain and release per cell.
            guard number >= 0, memo.roots[number].nodeCount == instances.sizes[k] else { return }
            let parent = Int(parents[n].index)
            if parent != lastParent.node {
                let (left, top) = parent >= 0 && n != root ? absolutePosition(of: parent, root: root) : (0, 0)
                lastParent = (parent, left, top)
            }
            // As the pixel rounding sums it: the parent's place, then the node's position.
            let left = n == root ? Double(layouts[n].position.left) : lastParent.left + Double(layouts[n].position.left)
            let top = n == root ? Double(layouts[n].position.top) : lastParent.top + Double(layouts[n].position.top)
            let alike = Self.roundsAlike(left, top, scale: scale)
            if alike && sharedStarts[number] >= 0 {
                // The frames rounded for an earlier instance.
                instances.frameStarts.append(sharedStarts[number])
                instances.sharedRoundings += 1
                continue
            }
            let snapshot = memo.snapshots[number]
            if alike && sharedStarts[number] == -2 {
                let exact = scale == 0 || Self.exactInFewBits(snapshot)
                sharedStarts[number] = exact ? Int32(instances.frames.count) : -1
            }
            let source = instances.sources[k]
            let shape = shapes[source] ?? SourceShape(source: Int(source), tree: self)
            shapes[source] = shape
            guard shape.parents.count == snapshot.layouts.count else { return }
            instances.frameStarts.append(Int32(instances.frames.count))
            Self.roundFrames(of: snapshot, shape: shape, left: left, top: top, scale: scale, into: &instances.frames)
        }
        instances.laidOut = true
    }

    /// The unrounded absolute position of `n` under `root`, summed from the root down as the
    /// pixel rounding sums it (so the same bits).
    private func absolutePosition(of n: Int, root: Int) -> (Double, Double) {
        var path: [Int] = []
        var m = n
        while m != root && m >= 0 {
            path.append(m)
            m = Int(parents[m].index)
        }
        var left = Double(layouts[root].position.left), top = Double(layouts[root].position.top)
        for m in path.reversed() {
            left += Double(layouts[m].position.left)
            top += Double(layouts[m].position.top)
        }
        return (left, top)
    }

    /// Whether rounding a subtree at (`left`, `top`) gives the frames it gives at any other such
    /// place: at scale 0 (no rounding), or at scale 1 at whole-number places below 2^22, for a
    /// subtree whose values are exact in few bits (`exactInFewBits`). Every sum
    /// is then exact, so each rounding decision is the same and each rounded edge moves by the
    /// same whole number; frames are relative to the parent, so they are equal bit for bit.
    static func roundsAlike(_ left: Double, _ top: Double, scale: Double) -> Bool {
        if scale == 0 { return true }
        guard scale == 1 else { return false }
        @inline(__always) func whole(_ v: Double) -> Bool { v == v.rounded(.towardZero) && abs(v) < 4_194_304 }
        return whole(left) && whole(top)
    }

    /// Whether every position and size of the descendants in `snapshot` (its root's are its
    /// parent's to set) is a multiple of 2^-24 below 2^20 in magnitude (most floats a layout
    /// makes, 0.3 or 109.6 among them), so that a sum of a few of them and a whole number below
    /// 2^22 is exact in a Double (under 50 significant bits), and a whole number of such
    /// magnitude exact in a Float.
    static func exactInFewBits(_ snapshot: SubtreeSnapshot) -> Bool {
        @inline(__always) func exact(_ v: Float) -> Bool {
            let scaled = Double(v) * 16_777_216
            return scaled == scaled.rounded(.towardZero) && abs(v) < 1_048_576
        }
        return snapshot.layouts.dropFirst().allSatisfy { l in
            exact(l.position.left) && exact(l.position.top) && exact(l.width) && exact(l.height)
        }
    }

    /// Rounds the descendants of `snapshot` (in pre-order, root first) with the root at the
    /// absolute place (`left`, `top`), as `LayoutPass.roundLayoutResultsToPixelGrid` would.
    private static func roundFrames(of snapshot: SubtreeSnapshot, shape: SourceShape, left: Double, top: Double,
                                    scale: Double, into frames: inout [Frame]) {
        let count = snapshot.layouts.count
        var absolute = [(Double, Double)](repeating: (left, top), count: count)
        snapshot.layouts.withUnsafeBufferPointer { layouts in
            for k in 1..<count {
                let l = layouts[k]
                let parent = absolute[Int(shape.parents[k])]
                let nodeLeft = Double(l.position.left), nodeTop = Double(l.position.top)
                let at = (parent.0 + nodeLeft, parent.1 + nodeTop)
                absolute[k] = at
                if scale != 0 {
                    frames.append(LayoutPass.roundedFrame(nodeLeft, nodeTop, Double(l.width), Double(l.height), at.0, at.1,
                                                          shape.measured[k], scale: scale))
                } else {
                    frames.append(Frame(left: l.position.left, top: l.position.top, width: l.width, height: l.height))
                }
            }
        }
    }

    /// The frames of the subtree at `root` in expanded pre-order, each instance's descendants
    /// from the last layout call (zero frames when it did not lay them out).
    func expandedPreorderFrames(root: NodeID) -> [Frame] {
        var frames: [Frame] = []
        frames.reserveCapacity(expandedNodeCount)
        let laidOut = instances.laidOut && instances.frameStarts.count == instances.nodes.count
        var next = 0
        layouts.withUnsafeBufferPointer { layouts in
            Self.walkSubtree(from: Int(root.index), firstChildren, nextSiblings, parents) { n, _ in
                frames.append(layouts[n].frame)
                let k = instancePosition(of: n, next: &next)
                guard k >= 0 else { return }
                let size = Int(instances.sizes[k]) - 1
                if laidOut {
                    let start = Int(instances.frameStarts[k])
                    frames.append(contentsOf: instances.frames[start..<(start + size)])
                } else {
                    frames.append(contentsOf: repeatElement(Frame.zero, count: size))
                }
            }
        }
        return frames
    }
}

/// A source subtree's shape for rounding its snapshots: per node in its pre-order, the
/// position of its parent (the root's is 0) and whether it is measured.
struct SourceShape {
    var parents: [Int32] = []
    var measured: [Bool] = []

    init(source: Int, tree: LayoutTree) {
        var positions: [Int32: Int32] = [:]
        LayoutTree.walkSubtree(from: source, tree.firstChildren, tree.nextSiblings, tree.parents) { n, depth in
            positions[Int32(n)] = Int32(parents.count)
            let parent = depth > 1 ? positions[tree.parents[n].index] ?? 0 : 0
            parents.append(parent)
            measured.append(tree.measuredFlags[n])
        }
    }
}

extension LayoutTree {
    /// Whether a node in `range` (of node indices) is an instance.
    @_spi(Decoding)
    public func hasInstance(in range: Range<Int>) -> Bool {
        guard let last = instances.nodes.last, Int(last) >= range.lowerBound else { return false }
        var low = 0, high = instances.nodes.count
        while low < high {
            let mid = (low + high) / 2
            if Int(instances.nodes[mid]) < range.lowerBound { low = mid + 1 } else { high = mid }
        }
        return low < instances.nodes.count && Int(instances.nodes[low]) < range.upperBound
    }
}
