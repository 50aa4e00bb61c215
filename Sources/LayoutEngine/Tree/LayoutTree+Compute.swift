// The layout entry points of `LayoutTree`: storage upkeep, Yoga's calculateLayout, the
// FlexLayout-style layout modes, and running deep trees on a thread with a large stack.

extension LayoutTree {
    /// Appends the layout state of `id`, whose style and content are stored (`groups`: see
    /// `nodeStored`).
    mutating func nodeAdded(_ id: NodeID, groups: SetStyleGroups? = nil) {
        let i = Int(id.index)
        layouts.append(NodeLayout())
        // A plain loop: `append(contentsOf: repeatElement(...))` goes through a generic
        // iterator copy that cost ~5 % of an uncached request.
        let entry = CacheEntry()
        for _ in 0..<maxCachedMeasurements { measureCaches.append(entry) }
        measuredFlags.append(contents.withUnsafeBufferPointer { $0[i].isMeasured })
        // Read in place: a Style is a few hundred bytes.
        let flags = styles.withUnsafeBufferPointer { styles in
            let style = styles.baseAddress! + i
            return groups.map { StyleFlags(at: style, groups: $0) } ?? StyleFlags(at: style)
        }
        assert(flags == StyleFlags(styles[i]), "a decoder reported other length groups than it set")
        styleFlags.append(flags)
        flagCounts.replace([], with: flags)
    }

    /// Marks `id` and its ancestors for relayout (Yoga's `markDirtyAndPropagate`). The walk
    /// stops at an ancestor already dirty, whose own ancestors are dirty too, unless
    /// `toRoot`: nodes under a `display: none` node are never laid out, so they stay dirty
    /// below clean ancestors; a child added or removed there must still reach the node that
    /// lays them out (zeroes their frames).
    mutating func markDirty(_ id: NodeID, toRoot: Bool = false) {
        let i = Int(id.index)
        if relayoutsExactly { rememberEdit(i) }
        var n = i
        while n >= 0 {
            if layouts[n].isDirty && n != i && !toRoot { break }
            layouts[n].isDirty = true
            layouts[n].computedFlexBasis = .nan
            n = Int(parents[n].index)
        }
    }

    /// Lays out the subtree at `root` in the given space and owner direction, as Yoga's
    /// `YGNodeCalculateLayout(root, available.width, available.height, direction)`, resolving
    /// the tree's size references first when it has any (see `setSizeReferences`).
    public mutating func computeLayout(root: NodeID, available: AvailableSize = AvailableSize(),
                                       direction: Direction = .ltr) {
        beginLayoutCall()
        if references.list.isEmpty {
            computeLayoutPass(root: root, available: available, direction: direction)
        } else {
            computeLayoutResolvingReferences(root: root, available: available, direction: direction)
        }
    }

    /// One layout of `root`, as Yoga's `YGNodeCalculateLayout`.
    mutating func computeLayoutPass(root: NodeID, available: AvailableSize, direction: Direction) {
        let ownerWidth = available.width ?? .nan
        let ownerHeight = available.height ?? .nan
        let r = Int(root.index)
        guard r >= 0 && r < nodeCount else { return }
        // Read the root's style in place (a Style is a few hundred bytes).
        let (widthAxis, heightAxis) = styles.withUnsafeBufferPointer { buffer in
            let s = buffer.baseAddress! + r
            let own = s.pointee.direction
            let dir = own == .inherit ? (direction == .inherit ? Direction.ltr : direction) : own
            return (Self.rootAxis(s.pointee, row: true, dir, ownerWidth, ownerWidth),
                    Self.rootAxis(s.pointee, row: false, dir, ownerHeight, ownerWidth))
        }
        runRoot(r, widthAxis, heightAxis, ownerWidth, ownerHeight, direction, performLayout: true)
    }

    /// Yoga's sizing of the root on one axis: its own definite size, else fit-content at its
    /// max size, else the owner's size (exact) or nothing.
    static func rootAxis(_ s: Style, row: Bool, _ direction: Direction, _ ownerSize: Float,
                         _ ownerWidth: Float) -> (size: Float, mode: SizingMode) {
        if s.hasDefiniteLength(row, ownerSize) {
            return (s.resolvedDimension(row, direction, ownerSize, ownerWidth)
                        + s.marginForAxis(row ? .row : .column, ownerWidth), .stretchFit)
        }
        let maxSize = s.resolvedMaxDimension(row, direction, ownerSize, ownerWidth)
        if !maxSize.isNaN { return (maxSize, .fitContent) }
        return (ownerSize, ownerSize.isNaN ? .maxContent : .stretchFit)
    }

    /// The frame of `node` from the last layout, relative to its parent, rounded to the pixel
    /// grid when `config.pointScaleFactor` is not 0.
    public func frame(of node: NodeID) -> Frame {
        let i = Int(node.index)
        guard i >= 0 && i < layouts.count else { return .zero }
        return layouts[i].frame
    }

    /// The frames of the subtree at `root` in pre-order (each as `frame(of:)`), read in one
    /// walk of the links (a service answering many frames reads them this way).
    /// With instances (`addInstance(of:size:under:)`), the frames of the tree they stand for,
    /// in its pre-order (`expandedNodeCount` of them from the root).
    public func preorderFrames(root: NodeID) -> [Frame] {
        if hasInstances { return expandedPreorderFrames(root: root) }
        var frames: [Frame] = []
        frames.reserveCapacity(nodeCount)
        layouts.withUnsafeBufferPointer { layouts in
            Self.walkSubtree(from: Int(root.index), firstChildren, nextSiblings, parents) { n, _ in
                frames.append(layouts[n].frame)
            }
        }
        return frames
    }

    /// Visits the subtree at `root` in pre-order (the order of `preorderFrames`) with each
    /// node's depth below `root` (the root's is 0), without allocating.
    public func forEachInPreorder(from root: NodeID, _ visit: (_ node: NodeID, _ depth: Int) -> Void) {
        Self.walkSubtree(from: Int(root.index), firstChildren, nextSiblings, parents) { n, depth in
            visit(NodeID(Int32(n)), depth - 1)
        }
    }

    /// The nodes of the subtree at `root` in pre-order (the order of `preorderFrames`).
    public func preorderNodes(root: NodeID) -> [NodeID] {
        var nodes: [NodeID] = []
        nodes.reserveCapacity(nodeCount)
        Self.walkSubtree(from: Int(root.index), firstChildren, nextSiblings, parents) { n, _ in
            nodes.append(NodeID(Int32(n)))
        }
        return nodes
    }

    /// The content box of `node` from the last layout, relative to its border box: the box
    /// less its padding and border, before pixel rounding (the size a measure hook was
    /// offered), for content the caller draws in it.
    public func contentBox(of node: NodeID) -> Frame {
        let i = Int(node.index)
        guard i >= 0 && i < layouts.count else { return .zero }
        let l = layouts[i]
        let left = l.padding.left + l.border.left, top = l.padding.top + l.border.top
        let width = l.width.isNaN ? l.frame.width : l.width, height = l.height.isNaN ? l.frame.height : l.height
        return Frame(left: left, top: top,
                     width: max(0, width - left - l.padding.right - l.border.right),
                     height: max(0, height - top - l.padding.bottom - l.border.bottom))
    }

    /// The text direction `node` was laid out with (after inheritance).
    public func resolvedDirection(of node: NodeID) -> Direction {
        let i = Int(node.index)
        guard i >= 0 && i < layouts.count else { return .ltr }
        return layouts[i].direction == .inherit ? .ltr : layouts[i].direction
    }

    // MARK: - running a pass

    /// Runs one layout or measurement of `root` with raw access to the storage.
    mutating func runRoot(_ root: Int, _ width: (size: Float, mode: SizingMode),
                          _ height: (size: Float, mode: SizingMode),
                          _ ownerWidth: Float, _ ownerHeight: Float, _ ownerDirection: Direction,
                          performLayout: Bool) {
        // An owner direction of `inherit` means ltr. (Yoga passes it on unresolved, so start/end
        // margins of the root's children went unseen by line breaking and gave NaN frames.)
        let direction: Direction = ownerDirection == .inherit ? .ltr : ownerDirection
        // Yoga keeps results computed under other root constraints or another config and reads
        // some of them again (flex bases, loosely matching measurements, positions of items it
        // only measured), so its output can depend on earlier calls. A call with a new config
        // or new root constraints starts the subtree from a fresh state instead, exactly as a
        // new tree would; repeated calls with the same constraints stay incremental.
        var fresh = false
        if lastConfig != config {
            if lastConfig != nil {
                configVersion &+= 1
                fresh = true
            }
            lastConfig = config
        }
        let inputs = RootInputs(root: Int32(root), width: width.size, widthMode: width.mode, height: height.size,
                                heightMode: height.mode, ownerWidth: ownerWidth, ownerHeight: ownerHeight,
                                direction: direction)
        if let last = lastRootInputs, !last.matches(inputs) { fresh = true }
        lastRootInputs = inputs
        let logsRequests = relayoutsExactly && prepareRequestLogs()
        // Exact relayouts of a tree whose layout goes around the request logs start fresh.
        if startsFresh || (relayoutsExactly && !logsRequests) { fresh = true }
        // A call that logs nothing leaves nothing for the next one to replay.
        startsFresh = relayoutsExactly && !logsRequests
        if fresh { resetLayouts(under: root) }
        lastLayoutStartedFresh = fresh
        generation &+= 1
        // Until `finishInstances` says otherwise (a call that returns early lays none out).
        if hasInstances { instances.laidOut = false }
        let memo = prepareSubtreeMemo(root: root)
        defer { subtreeReuseStatistics = memo?.statistics ?? SubtreeReuseStatistics() }
        // Instances are laid out by the memo alone: without it, the call would only be thrown
        // away (`instancesLaidOut` stays false).
        if hasInstances && memo == nil { return }
        var diverged = false
        boundaryRelayouts = 0
        boundariesAnsweredOtherwise = false
        let boundaries = logsRequests && !fresh && performLayout ? relayoutBoundaries(root: root) : []
        editedNodes.removeAll(keepingCapacity: true)
        editsOverflowed = false
        // Whether the replay could not follow a fresh call.
        var replayFailed = false
        if !boundaries.isEmpty {
            let answeredAsBefore = runPass(root, width, height, ownerWidth, ownerHeight, direction, performLayout: true,
                                           memo: memo, logsRequests: true, boundaries: boundaries, diverged: &diverged)
            if diverged || replayEndedEarly() {
                replayFailed = true
            } else if answeredAsBefore {
                cleanAncestors(of: boundaries)
                boundaryRelayouts = boundaries.count
                return
            } else {
                // Lay out from the root, in a new call: the boundaries answer from their new logs.
                boundariesAnsweredOtherwise = true
                generation &+= 1
            }
        }
        if !replayFailed {
            runPass(root, width, height, ownerWidth, ownerHeight, direction, performLayout: performLayout, memo: memo,
                    logsRequests: logsRequests, diverged: &diverged)
            replayFailed = logsRequests && (diverged || replayEndedEarly())
        }
        if replayFailed {
            // Be a fresh call.
            resetLayouts(under: root)
            lastLayoutStartedFresh = true
            generation &+= 1
            runPass(root, width, height, ownerWidth, ownerHeight, direction, performLayout: performLayout, memo: memo,
                    logsRequests: true, diverged: &diverged)
        }
        if hasInstances { finishInstances(root: root, memo: performLayout ? memo : nil) }
    }

    /// Whether the request logs of `relayoutsExactly` can follow this tree's layout, with
    /// storage for every node. Not where results come other than from the questions a node is
    /// asked: subtree reuse copies them, size references lay the tree out several times, and
    /// baseline alignment reads the layouts inside an item's subtree while its container is
    /// still laying them out (a replayed subtree holds only its final layout).
    private mutating func prepareRequestLogs() -> Bool {
        guard subtreeReuse == nil, references.list.isEmpty,
              flagCounts.baseline == 0 else { return false }
        if requestLogStates.count < nodeCount {
            requestLogStates.append(contentsOf: repeatElement(RequestLogState(), count: nodeCount - requestLogStates.count))
            requestLogs.append(contentsOf: repeatElement(LoggedRequest(), count: nodeCount * maxLoggedRequests - requestLogs.count))
        }
        return true
    }

    /// One pass of `runRoot` over the tree's raw storage: from the root, or with `boundaries`
    /// only those subtrees (then whether they answered as before; see
    /// LayoutTree+RelayoutBoundaries.swift).
    @discardableResult
    private mutating func runPass(_ root: Int, _ width: (size: Float, mode: SizingMode),
                                  _ height: (size: Float, mode: SizingMode),
                                  _ ownerWidth: Float, _ ownerHeight: Float, _ direction: Direction,
                                  performLayout: Bool, memo: SubtreeMemoState?, logsRequests: Bool,
                                  boundaries: [Int32] = [], diverged: inout Bool) -> Bool {
        diverged = false
        var answeredAsBefore = false
        let depth = treeDepth(from: root)
        let measureFunction = self.measureFunction
        let baselineFunction = self.baselineFunction
        let childPlacementFunction = self.childPlacementFunction
        if memoizesPixelRounding && pixelRoundings.count < nodeCount {
            pixelRoundings.append(contentsOf: repeatElement(.none, count: nodeCount - pixelRoundings.count))
        }
        // See `LayoutPass.skipsUntouchedRoundings`. Not after boundaries that answered
        // otherwise: their subtrees were laid out anew in the pass before, under another
        // generation, and never rounded; the root's pass may answer them from that layout.
        let skipsUntouchedRoundings = memoizesPixelRounding && !boundariesAnsweredOtherwise && memo == nil
            && childPlacementFunction == nil
            && references.list.isEmpty && flagCounts.outOfFlow == 0
        records.replayed.removeAll(keepingCapacity: records.replayed.count <= 256)
        let config = self.config
        let generation = self.generation
        let configVersion = self.configVersion
        styles.withUnsafeBufferPointer { styles in
        contents.withUnsafeBufferPointer { contents in
        measuredFlags.withUnsafeBufferPointer { measured in
        styleFlags.withUnsafeBufferPointer { flags in
        parents.withUnsafeBufferPointer { parents in
        firstChildren.withUnsafeBufferPointer { firstChildren in
        nextSiblings.withUnsafeBufferPointer { nextSiblings in
        layouts.withUnsafeMutableBufferPointer { layouts in
        measureCaches.withUnsafeMutableBufferPointer { caches in
        pixelRoundings.withUnsafeMutableBufferPointer { roundings in
        requestLogs.withUnsafeMutableBufferPointer { logs in
        requestLogStates.withUnsafeMutableBufferPointer { logStates in
        withUnsafeMutablePointer(to: &records) { records in
        withUnsafeMutablePointer(to: &diverged) { diverged in
        withUnsafeMutablePointer(to: &answeredAsBefore) { answeredAsBefore in
            var configured = LayoutPass(
                styles: styles.baseAddress!, contents: contents.baseAddress!, measured: measured.baseAddress!,
                flags: flags.baseAddress!,
                parents: parents.baseAddress!, firstChildren: firstChildren.baseAddress!,
                nextSiblings: nextSiblings.baseAddress!, layouts: layouts.baseAddress!, caches: caches.baseAddress!,
                pointScaleFactor: config.pointScaleFactor, useWebDefaults: config.useWebDefaults,
                errata: config.errata, experimental: config.experimentalFeatures,
                configVersion: configVersion, generation: generation,
                measureFunction: measureFunction, baselineFunction: baselineFunction,
                childPlacementFunction: childPlacementFunction)
            configured.memo = memo.map(Unmanaged.passUnretained)
            configured.roundings = roundings.isEmpty ? nil : roundings.baseAddress
            configured.skipsUntouchedRoundings = skipsUntouchedRoundings && !roundings.isEmpty
            configured.records = records
            configured.recordsRoundedAnew = !roundings.isEmpty
            if logsRequests {
                configured.requestLogs = logs.baseAddress
                configured.requestLogStates = logStates.baseAddress
                configured.relayoutDiverged = diverged
            }
            let pass = configured
            if depth > LargeStack.depthThreshold {
                LargeStack.run(stackSize: LargeStack.stackSize(forDepth: depth)) {
                    answeredAsBefore.pointee = pass.layoutRoot(root, width, height, ownerWidth, ownerHeight, direction,
                                                               performLayout: performLayout, boundaries: boundaries)
                }
            } else {
                answeredAsBefore.pointee = pass.layoutRoot(root, width, height, ownerWidth, ownerHeight, direction,
                                                           performLayout: performLayout, boundaries: boundaries)
            }
        }}}}}}}}}}}}}}}
        return answeredAsBefore
    }

    /// Gives every node of the subtree at `root` the state of a new node (keeping its frame).
    mutating func resetLayouts(under root: Int) {
        layouts.withUnsafeMutableBufferPointer { layouts in
            Self.walkSubtree(from: root, firstChildren, nextSiblings, parents) { n, _ in
                let frame = layouts[n].frame
                layouts[n] = NodeLayout()
                layouts[n].frame = frame
            }
        }
    }

    /// Gives the subtree at `root` the layout state of new nodes: no results, caches, request
    /// logs or pixel roundings, and dirty.
    mutating func forgetLayouts(under root: Int) {
        Self.walkSubtree(from: root, firstChildren, nextSiblings, parents) { n, _ in
            layouts[n] = NodeLayout()
            if n < requestLogStates.count { requestLogStates[n] = RequestLogState() }
            if n < pixelRoundings.count { pixelRoundings[n] = .none }
        }
    }

    /// The depth of the subtree at `root`, remembered until the structure changes.
    mutating func treeDepth(from root: Int) -> Int {
        if depthCache.root == Int32(root) && depthCache.version == structureVersion { return depthCache.depth }
        var maxDepth = 1
        Self.walkSubtree(from: root, firstChildren, nextSiblings, parents) { _, depth in
            if depth > maxDepth { maxDepth = depth }
        }
        depthCache = (Int32(root), structureVersion, maxDepth)
        return maxDepth
    }

    /// Visits the subtree at `root` in pre-order with each node's depth (the root's is 1),
    /// walking the sibling links without recursion or allocation.
    @inline(__always) static func walkSubtree(from root: Int, _ firstChildren: [NodeID], _ nextSiblings: [NodeID],
                                              _ parents: [NodeID], _ visit: (_ node: Int, _ depth: Int) -> Void) {
        walkSubtree(from: root, firstChild: { firstChildren[$0] }, nextSibling: { nextSiblings[$0] },
                    parent: { parents[$0] }, visit)
    }

    /// The walk above over links read through closures, so the layout pass's raw storage shares it.
    @inline(__always) static func walkSubtree(from root: Int, firstChild: (Int) -> NodeID, nextSibling: (Int) -> NodeID,
                                              parent: (Int) -> NodeID, _ visit: (_ node: Int, _ depth: Int) -> Void) {
        var depth = 1
        var n = root
        walk: while true {
            visit(n, depth)
            let first = Int(firstChild(n).index)
            if first >= 0 {
                n = first
                depth += 1
                continue
            }
            while n != root {
                let next = Int(nextSibling(n).index)
                if next >= 0 {
                    n = next
                    continue walk
                }
                n = Int(parent(n).index)
                depth -= 1
            }
            break
        }
    }
}

extension LayoutPass {
    /// Yoga's `calculateLayout` after the root's constraints are known; with `boundaries`,
    /// only those subtrees instead, returning whether they answered as before (see
    /// LayoutTree+RelayoutBoundaries.swift).
    func layoutRoot(_ root: Int, _ width: (size: Float, mode: SizingMode), _ height: (size: Float, mode: SizingMode),
                    _ ownerWidth: Float, _ ownerHeight: Float, _ direction: Direction, performLayout: Bool,
                    boundaries: [Int32]) -> Bool {
        if !boundaries.isEmpty { return relayoutBoundaries(boundaries, under: root) }
        let computed = calculateLayoutInternal(root, width.size, height.size, direction, width.mode, height.mode,
                                               ownerWidth, ownerHeight, performLayout, 0)
        if performLayout && computed {
            setPosition(root, layouts[root].direction, ownerWidth, ownerHeight)
            roundLayoutResultsToPixelGrid(root, 0, 0)
        }
        return false
    }
}
