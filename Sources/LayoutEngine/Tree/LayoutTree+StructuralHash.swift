extension LayoutTree {
    /// A 128-bit hash of everything that decides the layout of the subtree at `root`: the
    /// config, the available size, the owner direction, and each node's style, content and
    /// children in order. Caller-side identity (node ids, `NodeID` numbering) is not part of
    /// it, so two requests that differ only in ids share a hash. Stable across processes.
    public func structuralHash(root: NodeID, available: AvailableSize = AvailableSize(),
                               direction: Direction = .ltr) -> StructuralHash {
        var hasher = StructuralHasher()
        hasher.combine(UInt64(0x4C41_594F_5554_0001)) // format version: bump when the walk changes
        hasher.combine(config.pointScaleFactor)
        hasher.combine(UInt64(config.useWebDefaults ? 1 : 0))
        hasher.combine(UInt64(config.errata.rawValue) << 32 | UInt64(config.experimentalFeatures.rawValue))
        hasher.combine(available.width)
        hasher.combine(available.height)
        hasher.combine(UInt64(direction.rawValue))

        // Pre-order walk with an explicit stack: trees may be deeper than the thread's stack.
        // Each node contributes its child count, so the shape is recoverable from the stream.
        // The stack holds a node's first child on top of its next sibling, so it never holds
        // more than one pending sibling per level; the sibling links are read by index (no
        // ChildSequence, which would retain the links array per node).
        var stack: [NodeID] = [root]
        var isRoot = true
        while let node = stack.popLast() {
            let i = Int(node.index)
            hasher.combine(style: styles[i])
            hasher.combine(content: contents[i])
            hasher.combine(UInt64(childCounts[i]))
            if isRoot {
                isRoot = false // the root's own siblings are not part of its subtree
            } else if nextSiblings[i] != .none {
                stack.append(nextSiblings[i])
            }
            if firstChildren[i] != .none { stack.append(firstChildren[i]) }
        }
        return hasher.finalize()
    }
}

extension StructuralHasher {
    mutating func combine(style: Style) {
        // Keywords packed into one word; each field has its own byte.
        var keywords = UInt64(style.direction.rawValue)
        keywords |= UInt64(style.flexDirection.rawValue) << 4
        keywords |= UInt64(style.justifyContent.rawValue) << 8
        keywords |= UInt64(style.alignContent.rawValue) << 12
        keywords |= UInt64(style.alignItems.rawValue) << 16
        keywords |= UInt64(style.alignSelf.rawValue) << 20
        keywords |= UInt64(style.positionType.rawValue) << 24
        keywords |= UInt64(style.flexWrap.rawValue) << 28
        keywords |= UInt64(style.overflow.rawValue) << 32
        keywords |= UInt64(style.display.rawValue) << 36
        keywords |= UInt64(style.boxSizing.rawValue) << 40
        keywords |= UInt64(style.percentVerticalMarginsAgainstHeight ? 1 : 0) << 44
        combine(keywords)
        combine(style.flex)
        combine(style.flexGrow)
        combine(style.flexShrink)
        combine(style.aspectRatio)
        combine(style.flexBasis)
        combine(style.width)
        combine(style.height)
        combine(style.minWidth)
        combine(style.minHeight)
        combine(style.maxWidth)
        combine(style.maxHeight)
        combine(style.columnGap)
        combine(style.rowGap)
        combine(style.gap)
        combine(edges: style.margin)
        combine(edges: style.position)
        combine(edges: style.padding)
        combine(edges: style.border)
    }

    mutating func combine(edges: Edges) {
        combine(edges.left)
        combine(edges.top)
        combine(edges.right)
        combine(edges.bottom)
        combine(edges.start)
        combine(edges.end)
        combine(edges.horizontal)
        combine(edges.vertical)
        combine(edges.all)
    }

    mutating func combine(content: NodeContent) {
        switch content {
        case .none:
            combine(UInt64(0))
        case .fixed(let size):
            combine(UInt64(1))
            combine(size.width)
            combine(size.height)
        case .intrinsicText(let text):
            combine(UInt64(2))
            combine(text)
        case .benchmarkLeaf(let size):
            combine(UInt64(3))
            combine(size.width)
            combine(size.height)
        case .custom(let tag):
            combine(UInt64(4))
            combine(UInt64(bitPattern: Int64(tag)))
        case .constraints(let container):
            combine(UInt64(5))
            combine(constraintContainer: container)
        }
    }
}
