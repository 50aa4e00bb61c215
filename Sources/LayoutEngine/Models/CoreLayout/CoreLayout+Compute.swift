extension CoreLayout {
    /// What a `.relative(.custom(tag:))` measure closure is offered (Yoga's measure input).
    public struct MeasureOptions: Hashable, Sendable {
        /// The caller's tag from `.custom(tag:)`.
        public var tag: Int
        public var width: Float
        public var widthMode: MeasureMode
        public var height: Float
        public var heightMode: MeasureMode

        /// The size to measure within: the offered size, or the largest finite number on an
        /// axis without a constraint.
        public var containerSize: Size {
            Size(width: widthMode == .undefined || width.isNaN ? .greatestFiniteMagnitude : width,
                 height: heightMode == .undefined || height.isNaN ? .greatestFiniteMagnitude : height)
        }
    }
}

extension CoreLayout.Layout {
    /// Lays the tree out inside `containerSize` (the root fills it unless its own size says
    /// otherwise) and returns the computed tree. `measure` answers `.relative(.custom(tag:))`
    /// layouts; its sizes are rounded up, as Core Layout does.
    public func compute(with containerSize: Size, direction: Direction = .ltr,
                        config: LayoutConfig = LayoutConfig(),
                        measure: ((CoreLayout.MeasureOptions) -> Size)? = nil) throws(StyleError) -> CoreLayout.ComputedLayout {
        var tree = LayoutTree(config: config)
        let root = try append(to: &tree)
        if let measure {
            var tags = [Int](repeating: 0, count: tree.nodeCount)
            for index in 0..<tree.nodeCount {
                if case .custom(let tag, _) = tree.content(of: NodeID(index)) { tags[index] = tag }
            }
            tree.measureFunction = { node, width, widthMode, height, heightMode in
                let size = measure(CoreLayout.MeasureOptions(tag: tags[Int(node.index)], width: width, widthMode: widthMode,
                                                             height: height, heightMode: heightMode))
                return Size(width: size.width.rounded(.up), height: size.height.rounded(.up))
            }
        }
        tree.computeLayout(root: root,
                           available: AvailableSize(width: containerSize.width, height: containerSize.height),
                           direction: direction)
        return collect(root, in: tree)
    }

    /// The computed tree of the subtree at `node`, after a layout of a tree built by
    /// `append(to:)` from this layout.
    public func collect(_ node: NodeID, in tree: LayoutTree) -> CoreLayout.ComputedLayout {
        var identifiers = [String?](repeating: nil, count: tree.nodeCount)
        recordIdentifiers(node, in: tree, into: &identifiers)
        return CoreLayout.ComputedLayout(collecting: node, in: tree) { identifiers[Int($0.index)] }
    }

    private func recordIdentifiers(_ node: NodeID, in tree: LayoutTree, into identifiers: inout [String?]) {
        identifiers[Int(node.index)] = identifier
        for (child, childNode) in zip(children, tree.children(of: node)) {
            child.recordIdentifiers(childNode, in: tree, into: &identifiers)
        }
    }
}

extension CoreLayout.ComputedLayout {
    /// The computed tree of the subtree at `node` after a layout of `tree`, whatever built the
    /// tree (a `Layout`, a decoded request): frames rounded to whole points, as Core Layout
    /// rounds them, and each box named by `identifier`. `frame` gives each node's frame (by
    /// default its frame in `tree`; a cache may hold them instead).
    public init(collecting node: NodeID, in tree: LayoutTree, frame: ((NodeID) -> Frame)? = nil,
                identifier: (NodeID) -> String?) {
        let f = frame?(node) ?? tree.frame(of: node)
        self.init(identifier: identifier(node),
                  frame: Frame(left: f.left.rounded(), top: f.top.rounded(), width: f.width.rounded(), height: f.height.rounded()))
        for child in tree.children(of: node) {
            children.append(CoreLayout.ComputedLayout(collecting: child, in: tree, frame: frame, identifier: identifier))
        }
    }
}
