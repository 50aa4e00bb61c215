// How a StackViewLayout stack maps onto the flex engine: one node per stack and one per item
// (a nested stack is a single node holding both its item and container properties).

extension StackViewLayout.StackView {
    /// Appends this stack and its items (recursively) to `tree` as a detached subtree and
    /// returns the stack's node, so it can become the root or a child of any container.
    public func append(to tree: inout LayoutTree) throws(StyleError) -> NodeID {
        try append(to: &tree, style: Style())
    }

    /// Appends the stack with its container properties set on top of `base`.
    func append(to tree: inout LayoutTree, style base: Style) throws(StyleError) -> NodeID {
        let node = try tree.addNode(style: containerStyle(base))
        for item in items {
            let child = try item.append(to: &tree)
            tree.appendChild(child, to: node)
        }
        return node
    }

    /// `base` with this stack's container properties applied.
    public func containerStyle(_ base: Style = Style()) -> Style {
        var style = base
        style.flexDirection = direction.flexDirection
        style.justifyContent = justifyContent.justify
        style.alignItems = alignItems.align
        style.flexWrap = .noWrap
        style.padding = padding.edges
        return style
    }
}

extension StackViewLayout.StackItem {
    /// Appends this item (and its nested stack, if any) to `tree`; returns its node.
    /// Throws when a value is refused, or when `.node` names a node that is not in the tree
    /// or already has a parent.
    public func append(to tree: inout LayoutTree) throws(StyleError) -> NodeID {
        switch content {
        case .size(let size):
            return try tree.addNode(style: itemStyle(), content: .fixed(size))
        case .content(let content):
            return try tree.addNode(style: itemStyle(), content: content)
        case .stack(let stack):
            return try stack.append(to: &tree, style: itemStyle())
        case .node(let node):
            guard node.index >= 0, Int(node.index) < tree.nodeCount else {
                throw StyleError(property: "node", reason: "no node \(node.index) in this tree")
            }
            guard tree.parent(of: node) == nil else {
                throw StyleError(property: "node", reason: "node \(node.index) already has a parent")
            }
            let style = itemStyle(tree.style(of: node))
            try tree.setStyle(style, for: node)
            return node
        }
    }

    /// `base` with this item's properties applied. Grow and shrink are always written, so
    /// the stack's 0/0 defaults hold whatever the config's defaults are.
    public func itemStyle(_ base: Style = Style()) -> Style {
        var style = base
        style.display = (isHidden || !isIncludedInLayout) ? .none : .flex
        style.flex = nil
        style.flexGrow = grow
        style.flexShrink = shrink
        style.alignSelf = alignSelf.align
        if let width { style.width = width.styleValue }
        if let height { style.height = height.styleValue }
        if let minWidth { style.minWidth = minWidth.styleValue }
        if let maxWidth { style.maxWidth = maxWidth.styleValue }
        if let minHeight { style.minHeight = minHeight.styleValue }
        if let maxHeight { style.maxHeight = maxHeight.styleValue }
        style.margin = margin.edges
        style.percentMarginsAgainstContainerSize = true
        if let aspectRatio { style.aspectRatio = aspectRatio }
        return style
    }
}
