// Relayout boundaries, for exact relayouts (`LayoutTree.relayoutsExactly`): after an edit, Yoga
// marks the edited node and every ancestor dirty and lays each of them out again, answering
// their other children from caches. In a 1,000-node list, changing one cell's icon relays out
// the root's flex pass over every cell.
//
// A container depends on an item only through the item's style and its answers to the
// container's questions (the sizes it measures to; baselines aside). So when an edit lies
// inside a node B whose style did not change, B can be asked again exactly the questions its
// parent asked it last time (its request log), in order, computing them for real. If every
// answer comes out as before, the parent would do the same as last time, and so would every
// node outside B: the call is done, with B's subtree rounded to the pixel grid where it sits.
// If an answer differs, the call lays out from the root as usual, in a new generation, and B
// answers from its new log where it can (its log is a true record of its new subtree).
//
// Which B: the nearest ancestor of the edit whose box its style fixes (so its answers are
// likely not to change): a main size in points, and a cross size in points or stretched in a
// single-line parent whose cross size is in points; when none does, the nearest ancestor (a
// cell sized by its content keeps its size under most edits inside it). That only picks the
// candidate; the answers decide. Not in trees with out-of-flow nodes (an absolute node inside B can be laid
// out by a containing block above it; `display: contents` lays B's children out by B's parent)
// or a child placement hook, nor where request logs are not kept (baseline alignment reads
// B's subtree from the outside).

extension LayoutTree {
    /// At most this many edits are remembered between layout calls; more, and the call lays
    /// out from the root.
    static let maxRememberedEdits = 64

    /// Remembers `node` as edited since the last layout call (for `relayoutBoundaries`).
    mutating func rememberEdit(_ node: Int) {
        guard !editsOverflowed else { return }
        if editedNodes.count == Self.maxRememberedEdits {
            editsOverflowed = true
            editedNodes.removeAll()
        } else if !editedNodes.contains(Int32(node)) {
            editedNodes.append(Int32(node))
        }
    }

    /// The nodes whose subtrees this call lays out first, each asked its parent's questions of
    /// the last call (see the top of this file), or empty to lay out from the root.
    func relayoutBoundaries(root: Int) -> [Int32] {
        guard !editsOverflowed, !editedNodes.isEmpty, childPlacementFunction == nil,
              flagCounts.outOfFlow == 0 else { return [] }
        var boundaries: [Int32] = []
        for node in editedNodes {
            // The nearest ancestor that is not edited itself, and the nearest whose style fixes its box.
            var nearest = -1
            var candidate = Int(parents[Int(node)].index)
            while candidate >= 0 && candidate != root {
                if !editedNodes.contains(Int32(candidate)) {
                    if nearest < 0 { nearest = candidate }
                    if triesAnyAncestorAsBoundary || fixesItsBox(candidate) { break }
                }
                candidate = Int(parents[candidate].index)
            }
            // None fixes its box (a list of cells sized by their content): the nearest is tried,
            // and is likely to answer as before when the edit does not change its size.
            if candidate < 0 || candidate == root { candidate = nearest }
            guard candidate >= 0 else { return [] }
            let log = requestLogStates[candidate]
            guard log.count > 0 && !log.overflowed else { return [] }
            if !boundaries.contains(Int32(candidate)) { boundaries.append(Int32(candidate)) }
        }
        // The outermost only: a boundary inside another is laid out with it.
        return boundaries.filter { boundary in
            var n = Int(parents[Int(boundary)].index)
            while n >= 0 && n != root {
                if boundaries.contains(Int32(n)) { return false }
                n = Int(parents[n].index)
            }
            return true
        }
    }

    /// Whether the style of `node` fixes its box in its parent (see the top of this file).
    private func fixesItsBox(_ node: Int) -> Bool {
        let parent = Int(parents[node].index)
        guard parent >= 0, case .none = contents[node], case .none = contents[parent] else { return false }
        return styles.withUnsafeBufferPointer { styles in
            let s = styles.baseAddress! + node, p = styles.baseAddress! + parent
            func inPoints(_ limit: StyleValue) -> Bool { limit.isUndefined || limit.unit == .points }
            guard s.pointee.aspectRatio == nil, s.pointee.flexBasis.isAuto || s.pointee.flexBasis.unit == .points,
                  inPoints(s.pointee.minWidth), inPoints(s.pointee.maxWidth), inPoints(s.pointee.minHeight),
                  inPoints(s.pointee.maxHeight) else { return false }
            let mainIsRow = p.pointee.flexDirection.isRow
            guard (mainIsRow ? s.pointee.width : s.pointee.height).unit == .points else { return false }
            let cross = mainIsRow ? s.pointee.height : s.pointee.width
            if cross.unit == .points { return true }
            let align = s.pointee.alignSelf == .auto ? p.pointee.alignItems : s.pointee.alignSelf
            return cross.isAuto && align == .stretch && p.pointee.flexWrap == .noWrap
                && (mainIsRow ? p.pointee.height : p.pointee.width).unit == .points
        }
    }

    /// After `boundaries` answered as before: their ancestors are laid out as they were, so
    /// clean again (every edit lies inside a boundary).
    mutating func cleanAncestors(of boundaries: [Int32]) {
        for boundary in boundaries {
            var n = Int(parents[Int(boundary)].index)
            while n >= 0 && layouts[n].isDirty {
                layouts[n].isDirty = false
                n = Int(parents[n].index)
            }
        }
    }
}

extension LayoutPass {
    /// Lays out the subtrees of `boundaries` by asking each its last questions again (see the
    /// top of this file) and, when all answer as before, rounds them; false at the first
    /// boundary that answers otherwise.
    func relayoutBoundaries(_ boundaries: [Int32], under root: Int) -> Bool {
        var scratch: [LoggedRequest] = []
        for boundary in boundaries where !askAgain(Int(boundary), under: root, scratch: &scratch) { return false }
        for boundary in boundaries { roundSubtree(Int(boundary), under: root) }
        return true
    }

    /// Asks `node` again the questions of its log, in order, computing them; true when every
    /// answer is as before. `scratch` holds a copy of the log while the node logs anew.
    func askAgain(_ node: Int, under root: Int, scratch: inout [LoggedRequest]) -> Bool {
        guard let logs = requestLogs, let states = requestLogStates else { return false }
        let count = Int(states[node].count)
        scratch.removeAll(keepingCapacity: true)
        for i in 0..<count { scratch.append(logs[node * maxLoggedRequests + i]) }
        var depth = 0
        var n = Int(parents[node].index)
        while n >= 0 && n != root {
            depth += 1
            n = Int(parents[n].index)
        }
        let l = layouts + node
        for question in scratch {
            calculateLayoutInternal(node, question.availableWidth, question.availableHeight, question.ownerDirection,
                                    question.widthMode, question.heightMode, question.ownerWidth, question.ownerHeight,
                                    question.kind.contains(.performLayout), depth + 1)
            guard l.pointee.measuredWidth.bitPattern == question.measuredWidth.bitPattern,
                  l.pointee.measuredHeight.bitPattern == question.measuredHeight.bitPattern else { return false }
        }
        return true
    }

    /// Rounds the subtree of `node` to the pixel grid at its absolute place, summed from `root`
    /// down in the order the root's rounding walk sums it.
    func roundSubtree(_ node: Int, under root: Int) {
        var path: [Int] = []
        var n = Int(parents[node].index)
        while n >= 0 {
            path.append(n)
            if n == root { break }
            n = Int(parents[n].index)
        }
        var left = 0.0, top = 0.0
        for ancestor in path.reversed() {
            left += Double(layouts[ancestor].position.left)
            top += Double(layouts[ancestor].position.top)
        }
        roundLayoutResultsToPixelGrid(node, left, top)
    }
}
