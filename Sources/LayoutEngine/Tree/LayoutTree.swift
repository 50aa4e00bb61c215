/// A handle to one node of a `LayoutTree`: its index in the tree's storage.
public struct NodeID: Hashable, Sendable, Comparable {
    public let index: Int32
    @inlinable public init(_ index: Int32) { self.index = index }
    @inlinable public init(_ index: Int) { self.index = Int32(truncatingIfNeeded: index) }
    @inlinable public static func < (a: NodeID, b: NodeID) -> Bool { a.index < b.index }
    /// The "no node" sentinel used in links. Computed and inlinable: a stored `static let` is
    /// read through an accessor call from other modules, once per node in their tree walks.
    @inlinable public static var none: NodeID { NodeID(Int32(-1)) }
}

/// A tree of boxes in contiguous storage: build it with `addNode` and `appendChild`, lay it out
/// with `computeLayout`, read frames with `frame(of:)`. Nodes are never freed individually;
/// build a new tree for a new document.
///
/// Storage is structure-of-arrays indexed by `NodeID.index`, so a layout pass walks flat
/// arrays of value types and allocates nothing per node.
public struct LayoutTree {
    /// Settings for every layout call on this tree.
    public var config: LayoutConfig

    @usableFromInline var styles: [Style] = []
    @usableFromInline var contents: [NodeContent] = []
    // Links: children in order as a singly linked list with a tail pointer.
    @usableFromInline var parents: [NodeID] = []
    @usableFromInline var firstChildren: [NodeID] = []
    @usableFromInline var lastChildren: [NodeID] = []
    @usableFromInline var nextSiblings: [NodeID] = []
    @usableFromInline var childCounts: [Int32] = []

    // Layout results and caches, one `NodeLayout` and `maxCachedMeasurements` entries per node
    // (see Layout/ and Algorithm/).
    @usableFromInline var layouts: [NodeLayout] = []
    @usableFromInline var measureCaches: [CacheEntry] = []
    /// Whether each node's content is measured by a hook (cached from `contents`).
    @usableFromInline var measuredFlags: [Bool] = []
    /// What each node's style sets (see `StyleFlags`), refreshed whenever it changes.
    @usableFromInline var styleFlags: [StyleFlags] = []
    /// How many nodes in storage have the flags every layout call asks the whole tree about
    /// (`.outOfFlow`, `.baseline`): kept with `styleFlags`, so a call of a large tree does not
    /// scan every node's flags for them.
    @usableFromInline var flagCounts = StyleFlagCounts()
    /// Bumped by every layout call, so each call visits dirty nodes at least once.
    @usableFromInline var generation: UInt32 = 0
    /// Bumped when `config` changes between layout calls, which invalidates every cache.
    @usableFromInline var configVersion: UInt32 = 1
    @usableFromInline var lastConfig: LayoutConfig? = nil
    /// The root and constraints of the last layout call (see `runRoot`).
    @usableFromInline var lastRootInputs: RootInputs? = nil
    /// Bumped by structural changes (a child added, removed or moved); the cached tree depth,
    /// and whatever else describes the tree's shape, is valid for one version.
    public internal(set) var structureVersion: UInt32 = 0
    @usableFromInline var depthCache: (root: Int32, version: UInt32, depth: Int) = (-1, 0, 0)
    /// Sizes taken from other nodes' frames (see `setSizeReferences`).
    var references = SizeReferences()
    /// Copies the layout of repeated subtrees instead of computing each (see `SubtreeReuse`);
    /// nil (the default) computes every node.
    public var subtreeReuse: SubtreeReuse? = nil
    /// Keeps each node's pixel rounding with its inputs, so that a relayout rounds again only
    /// the nodes whose unrounded box or absolute position changed (the frames are the same:
    /// rounding is a pure function of those inputs). For trees laid out again after small
    /// edits; it costs a record per node (`heapBytes` counts it) and a comparison per node.
    public var memoizesPixelRounding = false {
        didSet {
            if !memoizesPixelRounding {
                pixelRoundings = []
                records = PassRecords()
            }
        }
    }
    /// Makes every relayout give the frames of laying the edited tree out fresh, which Yoga's
    /// relayout does not promise (see RequestLog.swift): each node keeps the questions of the
    /// last call that computed it, and a relayout answers an untouched node from them only
    /// while it is asked the same ones in the same order; when it cannot, the call is laid out
    /// again from a fresh state. For trees laid out again after edits whose frames must equal
    /// a whole layout (the service's patches); it costs a log per node (`heapBytes` counts it).
    /// Turning it on makes the next layout call a fresh one.
    public var relayoutsExactly = false {
        didSet {
            guard relayoutsExactly != oldValue else { return }
            requestLogs = []
            requestLogStates = []
            if relayoutsExactly { startsFresh = true }
        }
    }
    /// With `relayoutsExactly`: whether the last layout call was laid out from a fresh state
    /// (the first, one after new root constraints or config, or one whose replay could not
    /// follow a fresh call) rather than incrementally.
    public internal(set) var lastLayoutStartedFresh = false
    /// The logs of `relayoutsExactly`: `maxLoggedRequests` questions per node, and where each
    /// node's log stands (empty when off).
    @usableFromInline var requestLogs: [LoggedRequest] = []
    @usableFromInline var requestLogStates: [RequestLogState] = []
    /// The next layout call starts from a fresh state.
    @usableFromInline var startsFresh = false
    /// With `relayoutsExactly`: the nodes edited since the last layout call, for its relayout
    /// boundaries (LayoutTree+RelayoutBoundaries.swift), unless there were too many.
    @usableFromInline var editedNodes: [Int32] = []
    @usableFromInline var editsOverflowed = false
    /// With `relayoutsExactly`: how many subtrees the last layout call laid out at their
    /// relayout boundary instead of laying out from the root (0 when it laid out from the root).
    public internal(set) var boundaryRelayouts = 0
    /// Whether the last layout call tried relayout boundaries that answered otherwise than
    /// before, and so laid out from the root after all.
    var boundariesAnsweredOtherwise = false
    /// Tries the nearest ancestor of an edit as its relayout boundary whatever its style (for
    /// tests of the answers' check: see LayoutTree+RelayoutBoundaries.swift).
    var triesAnyAncestorAsBoundary = false
    /// The records of `memoizesPixelRounding`, by node index (empty when off).
    @usableFromInline var pixelRoundings: [PixelGridRounding] = []
    /// Nodes the last layout call rounded anew and replayed (see `PassRecords`).
    @usableFromInline var records = PassRecords()
    /// Each node's pre-order position under a root, kept until the structure changes (see
    /// `updatePreorderFrames`).
    @usableFromInline var preorderCache = PreorderCache()
    /// What subtree reuse did in the last layout call.
    public internal(set) var subtreeReuseStatistics = SubtreeReuseStatistics()
    /// Nodes that stand for copies of earlier subtrees without storing them (see
    /// SubtreeInstances.swift); empty unless a decoder added some.
    public internal(set) var instances = SubtreeInstances()

    /// The hook for `.custom` content.
    public var measureFunction: MeasureFunction?
    /// The baseline hook for `.custom` content; without it a leaf's baseline is its height.
    public var baselineFunction: BaselineFunction?
    /// Places the children of `.custom` nodes that have children (see `ChildPlacementFunction`);
    /// without it such children are not laid out.
    public var childPlacementFunction: ChildPlacementFunction?

    public init(config: LayoutConfig = LayoutConfig()) {
        self.config = config
    }

    /// The number of nodes ever added.
    @inlinable public var nodeCount: Int { styles.count }

    /// Reserves storage for `count` nodes, so building a tree of known size does not regrow.
    public mutating func reserveCapacity(_ count: Int) {
        styles.reserveCapacity(count)
        contents.reserveCapacity(count)
        parents.reserveCapacity(count)
        firstChildren.reserveCapacity(count)
        lastChildren.reserveCapacity(count)
        nextSiblings.reserveCapacity(count)
        childCounts.reserveCapacity(count)
        layouts.reserveCapacity(count)
        measureCaches.reserveCapacity(count * maxCachedMeasurements)
        measuredFlags.reserveCapacity(count)
        styleFlags.reserveCapacity(count)
    }

    /// Adds a detached node. Throws when the style holds a value the engine refuses.
    @discardableResult
    public mutating func addNode(style: Style = Style(), content: NodeContent = .none) throws(StyleError) -> NodeID {
        try style.validate()
        try Self.validate(content)
        return appendNode(style: style, content: content)
    }

    /// `addNode` for a decoder that has already checked every value of `style` and `content`
    /// as `addNode` would (LayoutWire's request decoder): skips the second validation pass,
    /// about 2 % of an uncached request. Debug builds still validate and trap on a miss.
    @_spi(Decoding)
    public mutating func addNode(prevalidatedStyle style: Style, content: NodeContent) -> NodeID {
        assert((try? style.validate()) != nil && (try? Self.validate(content)) != nil,
               "a prevalidated node failed validation")
        return appendNode(style: style, content: content)
    }

    /// `addNode(prevalidatedStyle:content:)` for a decoder that writes the style and content
    /// straight into the tree's storage: `base` is stored, then `fill` edits it in place (a
    /// `Style` is a few hundred bytes; this saves copying it through a scratch node). When
    /// `fill` throws, the tree is left as it was.
    @_spi(Decoding)
    public mutating func addNode<E: Error>(
        base: Style, prevalidatedBy fill: (inout Style, inout NodeContent) throws(E) -> Void
    ) throws(E) -> NodeID {
        try addNode(base: base, reportsGroups: false) { (style, content, _) throws(E) in try fill(&style, &content) }
    }

    /// `addNode(base:prevalidatedBy:)` for a decoder that also reports the length groups it
    /// set (`base` sets none: no margin, padding, border, inset, minimum or maximum), so the
    /// node's summary flags are not read back from its style. With `parent`, the node becomes
    /// its last child, as `appendChild` would make it (a decoder adds nodes in document order,
    /// each under a parent it added before).
    @_spi(Decoding)
    public mutating func addNode<E: Error>(
        base: Style, under parent: NodeID? = nil,
        reportingGroups fill: (inout Style, inout NodeContent, inout SetStyleGroups) throws(E) -> Void
    ) throws(E) -> NodeID {
        try addNode(base: base, reportsGroups: true, under: parent, fill)
    }

    private mutating func addNode<E: Error>(
        base: Style, reportsGroups: Bool, under parent: NodeID? = nil,
        _ fill: (inout Style, inout NodeContent, inout SetStyleGroups) throws(E) -> Void
    ) throws(E) -> NodeID {
        let index = styles.count
        styles.append(base)
        contents.append(.none)
        var groups: SetStyleGroups = []
        do {
            try fill(&styles[index], &contents[index], &groups)
        } catch {
            styles.removeLast()
            contents.removeLast()
            throw error
        }
        assert((try? styles[index].validate()) != nil && (try? Self.validate(contents[index])) != nil,
               "a prevalidated node failed validation")
        let node = nodeStored(groups: reportsGroups ? groups : nil)
        if let parent {
            // A new node has no parent and no children: it cannot close a cycle, so
            // `appendChild`'s checks are not needed; a parent added in this build is dirty.
            link(node, under: parent)
            if !layouts[Int(parent.index)].isDirty { markDirty(parent) }
        }
        return node
    }

    /// New nodes copying the subtree whose nodes are `source` (a node and its descendants, all
    /// of them and nothing else, as a decoder adds them: depth first), as the last child of
    /// `parent`; returns the copy of its root. Styles, contents, flags and links are copied, so
    /// nothing is checked or worked out again: for a decoder that met a subtree it decoded
    /// before again, byte for byte but for its ids.
    // Appends to every per-node array as `nodeStored` and `nodeAdded` do, in one loop: a new
    // per-node array must be added here too (the assertion below catches a forgotten one).
    @_spi(Decoding)
    public mutating func addNodes(copying source: Range<Int>, under parent: NodeID) -> NodeID {
        let first = styles.count
        let offset = Int32(first - source.lowerBound)
        @inline(__always) func moved(_ link: NodeID) -> NodeID {
            assert(link == .none || source.contains(Int(link.index)), "a link out of the copied subtree")
            return link == .none ? .none : NodeID(link.index + offset)
        }
        for k in source {
            styles.append(styles[k])
            contents.append(contents[k])
            // The root's parent and next sibling are outside: it is linked below.
            let isRoot = k == source.lowerBound
            parents.append(isRoot ? .none : moved(parents[k]))
            firstChildren.append(moved(firstChildren[k]))
            lastChildren.append(moved(lastChildren[k]))
            nextSiblings.append(isRoot ? .none : moved(nextSiblings[k]))
            childCounts.append(childCounts[k])
            layouts.append(NodeLayout())
            measuredFlags.append(measuredFlags[k])
            styleFlags.append(styleFlags[k])
            flagCounts.replace([], with: styleFlags[k])
        }
        let entry = CacheEntry()
        for _ in 0..<source.count * maxCachedMeasurements { measureCaches.append(entry) }
        assert([contents.count, parents.count, firstChildren.count, lastChildren.count, nextSiblings.count,
                childCounts.count, layouts.count, measuredFlags.count, styleFlags.count,
                measureCaches.count / maxCachedMeasurements].allSatisfy { $0 == styles.count },
               "a per-node array was not appended to")
        let root = NodeID(first)
        link(root, under: parent)
        if !layouts[Int(parent.index)].isDirty { markDirty(parent) }
        return root
    }

    /// Stores a node whose values have been checked.
    private mutating func appendNode(style: Style, content: NodeContent) -> NodeID {
        styles.append(style)
        contents.append(content)
        return nodeStored()
    }

    /// Adds the links and layout state of the node whose style and content were just appended
    /// (with `groups`, the length groups its decoder set; nil: read from the style).
    private mutating func nodeStored(groups: SetStyleGroups? = nil) -> NodeID {
        let id = NodeID(styles.count - 1)
        parents.append(.none)
        firstChildren.append(.none)
        lastChildren.append(.none)
        nextSiblings.append(.none)
        childCounts.append(0)
        nodeAdded(id, groups: groups)
        return id
    }

    /// Appends `child` (which must have no parent yet) to `parent`'s children.
    public mutating func appendChild(_ child: NodeID, to parent: NodeID) {
        checkAdoptable(child, by: parent)
        link(child, under: parent)
        markDirty(parent)
    }

    /// Traps unless `child` has no parent and is not `parent` or one of its ancestors.
    private func checkAdoptable(_ child: NodeID, by parent: NodeID) {
        precondition(parents[Int(child.index)] == .none && child != parent, "node already has a parent")
        // A child with children of its own must not be an ancestor of `parent` (a cycle would
        // make layout recurse forever). Childless children, the usual case, need no walk.
        if firstChildren[Int(child.index)] != .none {
            var n = parent
            while n != .none {
                precondition(n != child, "adding a node to its own descendant")
                n = parents[Int(n.index)]
            }
        }
    }

    /// Inserts `child` (which must have no parent yet) among `parent`'s children so that it
    /// becomes child number `index` (`childCount(of: parent)` appends), and marks `parent` and
    /// every ancestor for relayout, as Yoga's `YGNodeInsertChild`. A subtree taken out by
    /// `removeChild` and inserted here (a move) is laid out here as new nodes are.
    public mutating func insertChild(_ child: NodeID, into parent: NodeID, at index: Int) {
        let count = Int(childCounts[Int(parent.index)])
        precondition(index >= 0 && index <= count, "child index out of range")
        checkAdoptable(child, by: parent)
        let p = Int(parent.index)
        if index == count {
            link(child, under: parent)
        } else {
            if index == 0 {
                nextSiblings[Int(child.index)] = firstChildren[p]
                firstChildren[p] = child
            } else {
                let before = Int(self.child(at: index - 1, of: parent).index)
                nextSiblings[Int(child.index)] = nextSiblings[before]
                nextSiblings[before] = child
            }
            parents[Int(child.index)] = parent
            childCounts[p] += 1
            structureVersion &+= 1
        }
        markDirty(parent, toRoot: true)
    }

    /// Takes child number `index` out of `parent`'s children and marks `parent` for relayout,
    /// as Yoga's `YGNodeRemoveChild`. The child and its subtree stay in the tree's storage,
    /// reachable from no root, until inserted again; they still count in `nodeCount`. Their
    /// layout state is that of new nodes (Yoga resets the child's): inserted elsewhere (a
    /// move), they are laid out there from scratch, not answered from their old place's logs.
    @discardableResult
    public mutating func removeChild(at index: Int, of parent: NodeID) -> NodeID {
        let p = Int(parent.index)
        precondition(index >= 0 && index < Int(childCounts[p]), "child index out of range")
        let child = self.child(at: index, of: parent)
        let c = Int(child.index)
        let before = index == 0 ? NodeID.none : self.child(at: index - 1, of: parent)
        if before == .none { firstChildren[p] = nextSiblings[c] } else { nextSiblings[Int(before.index)] = nextSiblings[c] }
        if lastChildren[p] == child { lastChildren[p] = before }
        nextSiblings[c] = .none
        parents[c] = .none
        childCounts[p] -= 1
        structureVersion &+= 1
        markDirty(parent, toRoot: true)
        forgetLayouts(under: c)
        return child
    }

    /// Child number `index` of `parent` (which must have that many), found along the sibling links.
    public func child(at index: Int, of parent: NodeID) -> NodeID {
        var node = firstChildren[Int(parent.index)]
        for _ in 0..<index { node = nextSiblings[Int(node.index)] }
        return node
    }

    /// The parent-to-child links of every node, as they are now (the arrays are shared until
    /// the tree's structure changes, then copied).
    public struct Links: Sendable {
        @usableFromInline let firstChildren: [NodeID]
        @usableFromInline let nextSiblings: [NodeID]
        let parents: [NodeID]

        /// As `LayoutTree.firstChild(of:)`.
        @inlinable public func firstChild(of node: NodeID) -> NodeID { firstChildren[Int(node.index)] }
        /// As `LayoutTree.nextSibling(of:)`.
        @inlinable public func nextSibling(of node: NodeID) -> NodeID { nextSiblings[Int(node.index)] }

        /// The child indices from `root` down to `node`, or nil when `node` was not under
        /// `root` (or not in the tree) when these links were taken.
        public func path(to node: NodeID, from root: NodeID) -> [Int]? {
            guard Int(node.index) < parents.count else { return nil }
            var path: [Int] = []
            var n = node
            while n != root {
                let parent = parents[Int(n.index)]
                guard parent != .none else { return nil }
                var index = 0
                var sibling = firstChildren[Int(parent.index)]
                while sibling != n {
                    sibling = nextSiblings[Int(sibling.index)]
                    index += 1
                }
                path.append(index)
                n = parent
            }
            return path.reversed()
        }
    }

    /// The tree's links now, kept apart from later edits.
    public var links: Links { Links(firstChildren: firstChildren, nextSiblings: nextSiblings, parents: parents) }

    /// Makes `child` the last child of `parent` (the links only).
    mutating func link(_ child: NodeID, under parent: NodeID) {
        let p = Int(parent.index)
        parents[Int(child.index)] = parent
        if lastChildren[p] == .none {
            firstChildren[p] = child
        } else {
            nextSiblings[Int(lastChildren[p].index)] = child
        }
        lastChildren[p] = child
        childCounts[p] += 1
        structureVersion &+= 1
    }

    @inlinable public func style(of node: NodeID) -> Style { styles[Int(node.index)] }

    /// Replaces a node's style and marks it and its ancestors for relayout.
    public mutating func setStyle(_ style: Style, for node: NodeID) throws(StyleError) {
        try style.validate()
        styles[Int(node.index)] = style
        let flags = StyleFlags(style)
        flagCounts.replace(styleFlags[Int(node.index)], with: flags)
        styleFlags[Int(node.index)] = flags
        markDirty(node)
    }

    @inlinable public func content(of node: NodeID) -> NodeContent { contents[Int(node.index)] }

    /// Replaces a node's content and marks it and its ancestors for relayout.
    public mutating func setContent(_ content: NodeContent, for node: NodeID) throws(StyleError) {
        try Self.validate(content)
        contents[Int(node.index)] = content
        measuredFlags[Int(node.index)] = content.isMeasured
        markDirty(node)
    }

    @inlinable public func parent(of node: NodeID) -> NodeID? {
        let p = parents[Int(node.index)]
        return p == .none ? nil : p
    }

    @inlinable public func childCount(of node: NodeID) -> Int { Int(childCounts[Int(node.index)]) }

    /// The first child of `node`, or `.none`. With `nextSibling(of:)`, a walk over children
    /// that holds no copy of the links array (a `ChildSequence` retains it per walk).
    @inlinable public func firstChild(of node: NodeID) -> NodeID { firstChildren[Int(node.index)] }

    /// The next child of `node`'s parent after `node`, or `.none`.
    @inlinable public func nextSibling(of node: NodeID) -> NodeID { nextSiblings[Int(node.index)] }

    /// The children of `node`, in order.
    @inlinable public func children(of node: NodeID) -> ChildSequence {
        ChildSequence(first: firstChildren[Int(node.index)], nextSiblings: nextSiblings)
    }

    /// Each node's position in the pre-order walk of the subtree at `root` (root 0, then each
    /// child's subtree in order: the order of the structural hash and of cached frames), by
    /// `NodeID.index`; -1 for a node outside the subtree.
    public func preorderPositions(root: NodeID) -> [Int] {
        var positions = [Int](repeating: -1, count: nodeCount)
        var next = 0
        // First child above next sibling on the stack; the root's own siblings are not in
        // its subtree.
        var stack: [NodeID] = [root]
        var isRoot = true
        while let node = stack.popLast() {
            let i = Int(node.index)
            positions[i] = next
            next += 1
            if isRoot {
                isRoot = false
            } else if nextSiblings[i] != .none {
                stack.append(nextSiblings[i])
            }
            if firstChildren[i] != .none { stack.append(firstChildren[i]) }
        }
        return positions
    }

    private static func validate(_ content: NodeContent) throws(StyleError) {
        func check(_ size: Size) throws(StyleError) {
            guard size.width.isFinite, size.height.isFinite, size.width >= 0, size.height >= 0 else {
                throw StyleError(property: "measure", reason: "content size must be finite and not negative")
            }
        }
        switch content {
        case .fixed(let size), .benchmarkLeaf(let size): try check(size)
        case .proportional(let size):
            for term in [size.width, size.height] {
                if let term, !(term.multiplier.isFinite && term.constant.isFinite) {
                    throw StyleError(property: "measure", reason: "a relative size's multiplier and constant must be finite")
                }
            }
        case .none, .intrinsicText, .custom, .constraints: break
        }
    }
}

/// The children of one node, walked through the sibling links.
public struct ChildSequence: Sequence, IteratorProtocol {
    @usableFromInline var current: NodeID
    @usableFromInline let nextSiblings: [NodeID]

    @inlinable init(first: NodeID, nextSiblings: [NodeID]) {
        self.current = first
        self.nextSiblings = nextSiblings
    }

    @inlinable public mutating func next() -> NodeID? {
        guard current != .none else { return nil }
        let node = current
        current = nextSiblings[Int(node.index)]
        return node
    }
}
