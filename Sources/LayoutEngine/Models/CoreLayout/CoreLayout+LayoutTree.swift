// How a Core Layout tree maps onto the flex engine, property by property as Core Layout maps
// onto Yoga: one node per layout, in the same order.

extension CoreLayout.Layout {
    /// Appends this layout and its children (recursively) to `tree` as a detached subtree
    /// and returns its node.
    public func append(to tree: inout LayoutTree) throws(StyleError) -> NodeID {
        var style = Style()
        let content = self.style(into: &style)
        let node = try tree.addNode(style: style, content: content)
        for child in children {
            let childNode = try child.append(to: &tree)
            tree.appendChild(childNode, to: node)
        }
        return node
    }

    /// This layout's own node, children aside: its style (on top of `base`) and the content
    /// it measures. For decoders that add the children themselves.
    public func engineNode(base: Style = Style()) -> (style: Style, content: NodeContent) {
        var style = base
        let content = self.style(into: &style)
        return (style, content)
    }

    /// Writes this layout's own properties into `style`; returns its measured content.
    func style(into style: inout Style) -> NodeContent {
        container?.apply(to: &style)
        let content = size.apply(to: &style)
        switch overriddenPosition {
        case .relative(let edges)?:
            style.positionType = .relative
            style.position = edges.engineEdges
        case .absolute(let edges)?:
            style.positionType = .absolute
            style.position = edges.engineEdges
        case nil:
            style.positionType = .relative
        }
        style.display = isIncludedInLayout ? .flex : .none
        if let margin { style.margin = margin.engineEdges }
        if let padding { style.padding = padding.engineEdges }
        if let border { style.border = border.engineEdges }
        style.alignSelf = overriddenSecondaryAxisDistribution?.align ?? .auto
        return content
    }
}
