extension LayoutTree {
    /// A 128-bit hash of everything that decides the layout of the subtree at `root`: the
    /// config, the available size, the owner direction, and each node's style, content and
    /// children in order. Caller-side identity (node ids, `NodeID` numbering) is not part of
    /// it, so two requests that differ only in ids share a hash. Keyed (SipHash-2-4-128): the
    /// same under the same `key` in any process; the default key is random per process, so
    /// pass a configured one where hashes must agree across processes (a shared cache).
    public func structuralHash(root: NodeID, available: AvailableSize = AvailableSize(),
                               direction: Direction = .ltr,
                               key: StructuralHashKey = .processRandom) -> StructuralHash {
        var hasher = StructuralHasher(key: key)
        // Format version: bump when the stream changes. 2: styles stream only non-default
        // fields behind a mask, and a node's content kind shares a word with its child count.
        hasher.combine(UInt64(0x4C41_594F_5554_0002))
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
            hasher.combine(style: styles[i], flags: styleFlags[i])
            hasher.combine(content: contents[i], childCount: childCounts[i])
            if isRoot {
                isRoot = false // the root's own siblings are not part of its subtree
            } else if nextSiblings[i] != .none {
                stack.append(nextSiblings[i])
            }
            if firstChildren[i] != .none { stack.append(firstChildren[i]) }
        }
        if !references.list.isEmpty { combineReferences(into: &hasher, root: root) }
        return hasher.finalize()
    }

    /// The size references, each node named by its pre-order position under `root` (not its
    /// `NodeID`, which the hash leaves out); -1 for a node outside the subtree.
    private func combineReferences(into hasher: inout StructuralHasher, root: NodeID) {
        let positions = preorderPositions(root: root)
        hasher.combine(UInt64(references.list.count))
        for reference in references.list {
            hasher.combine(UInt64(bitPattern: Int64(positions[Int(reference.node.index)])))
            hasher.combine(UInt64(bitPattern: Int64(positions[Int(reference.source.index)])))
            hasher.combine(UInt64(reference.dimension.rawValue))
            hasher.combine(reference.multiplier)
        }
    }
}

extension StructuralHasher {
    /// A style as few words (format 2): its keywords packed in one word together with a mask
    /// of the 14 numeric fields that differ from their default, those fields' words, then one
    /// word of four 9-bit masks (margin, position, padding, border: the edges that are not
    /// `undefined`) and those edges' words. Most nodes set a handful of the 50 numeric fields,
    /// so this streams ~7 words where format 1 streamed 55.
    // Inlined into the walk, so the hasher's state stays in registers.
    // `flags` (the node's `StyleFlags`) only skips reading edges known to be all undefined:
    // the words streamed are the same.
    @inline(__always)
    mutating func combine(style: Style, flags: StyleFlags) {
        // Keywords packed into one word; each field has its own 4 bits.
        var head = UInt64(style.direction.rawValue)
        head |= UInt64(style.flexDirection.rawValue) << 4
        head |= UInt64(style.justifyContent.rawValue) << 8
        head |= UInt64(style.alignContent.rawValue) << 12
        head |= UInt64(style.alignItems.rawValue) << 16
        head |= UInt64(style.alignSelf.rawValue) << 20
        head |= UInt64(style.positionType.rawValue) << 24
        head |= UInt64(style.flexWrap.rawValue) << 28
        head |= UInt64(style.overflow.rawValue) << 32
        head |= UInt64(style.display.rawValue) << 36
        head |= UInt64(style.boxSizing.rawValue) << 40
        head |= UInt64(style.percentMarginsAgainstContainerSize ? 1 : 0) << 44
        let auto = Self.word(StyleValue.auto), undefined = Self.word(StyleValue.undefined)
        // The numeric fields in declaration order of format 1, bit 48 upward.
        let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            Self.word(style.flex ?? 0), Self.word(style.flexGrow ?? 0), Self.word(style.flexShrink ?? 0),
            Self.word(style.aspectRatio ?? 0), Self.word(style.flexBasis), Self.word(style.width),
            Self.word(style.height), Self.word(style.minWidth), Self.word(style.minHeight),
            Self.word(style.maxWidth), Self.word(style.maxHeight), Self.word(style.columnGap),
            Self.word(style.rowGap), Self.word(style.gap))
        var mask: UInt64 = 0
        if style.flex != nil { mask |= 1 << 0 }
        if style.flexGrow != nil { mask |= 1 << 1 }
        if style.flexShrink != nil { mask |= 1 << 2 }
        if style.aspectRatio != nil { mask |= 1 << 3 }
        if words.4 != auto { mask |= 1 << 4 }
        if words.5 != auto { mask |= 1 << 5 }
        if words.6 != auto { mask |= 1 << 6 }
        if words.7 != undefined { mask |= 1 << 7 }
        if words.8 != undefined { mask |= 1 << 8 }
        if words.9 != undefined { mask |= 1 << 9 }
        if words.10 != undefined { mask |= 1 << 10 }
        if words.11 != undefined { mask |= 1 << 11 }
        if words.12 != undefined { mask |= 1 << 12 }
        if words.13 != undefined { mask |= 1 << 13 }
        combine(head | mask << 48)
        if mask != 0 {
            if mask & (1 << 0) != 0 { combine(words.0) }
            if mask & (1 << 1) != 0 { combine(words.1) }
            if mask & (1 << 2) != 0 { combine(words.2) }
            if mask & (1 << 3) != 0 { combine(words.3) }
            if mask & (1 << 4) != 0 { combine(words.4) }
            if mask & (1 << 5) != 0 { combine(words.5) }
            if mask & (1 << 6) != 0 { combine(words.6) }
            if mask & (1 << 7) != 0 { combine(words.7) }
            if mask & (1 << 8) != 0 { combine(words.8) }
            if mask & (1 << 9) != 0 { combine(words.9) }
            if mask & (1 << 10) != 0 { combine(words.10) }
            if mask & (1 << 11) != 0 { combine(words.11) }
            if mask & (1 << 12) != 0 { combine(words.12) }
            if mask & (1 << 13) != 0 { combine(words.13) }
        }
        let margin = flags.contains(.margin) ? Self.setMask(style.margin) : 0
        let position = flags.contains(.insets) ? Self.setMask(style.position) : 0
        let paddingOrBorder = flags.contains(.paddingOrBorder)
        let padding = paddingOrBorder ? Self.setMask(style.padding) : 0
        let border = paddingOrBorder ? Self.setMask(style.border) : 0
        combine(margin | position << 9 | padding << 18 | border << 27)
        combine(edges: style.margin, mask: margin)
        combine(edges: style.position, mask: position)
        combine(edges: style.padding, mask: padding)
        combine(edges: style.border, mask: border)
    }

    /// Bit k set when edge k (left, top, right, bottom, start, end, horizontal, vertical, all)
    /// is not `undefined`.
    @inline(__always)
    static func setMask(_ e: Edges) -> UInt64 {
        let undefined = word(StyleValue.undefined)
        var m: UInt64 = 0
        if word(e.left) != undefined { m |= 1 << 0 }
        if word(e.top) != undefined { m |= 1 << 1 }
        if word(e.right) != undefined { m |= 1 << 2 }
        if word(e.bottom) != undefined { m |= 1 << 3 }
        if word(e.start) != undefined { m |= 1 << 4 }
        if word(e.end) != undefined { m |= 1 << 5 }
        if word(e.horizontal) != undefined { m |= 1 << 6 }
        if word(e.vertical) != undefined { m |= 1 << 7 }
        if word(e.all) != undefined { m |= 1 << 8 }
        return m
    }

    /// The words of the edges in `mask` (see `setMask`), in edge order.
    @inline(__always)
    mutating func combine(edges e: Edges, mask: UInt64) {
        guard mask != 0 else { return }
        if mask & (1 << 0) != 0 { combine(e.left) }
        if mask & (1 << 1) != 0 { combine(e.top) }
        if mask & (1 << 2) != 0 { combine(e.right) }
        if mask & (1 << 3) != 0 { combine(e.bottom) }
        if mask & (1 << 4) != 0 { combine(e.start) }
        if mask & (1 << 5) != 0 { combine(e.end) }
        if mask & (1 << 6) != 0 { combine(e.horizontal) }
        if mask & (1 << 7) != 0 { combine(e.vertical) }
        if mask & (1 << 8) != 0 { combine(e.all) }
    }

    /// A node's content kind and child count in one word, then the content's own words.
    mutating func combine(content: NodeContent, childCount: Int32) {
        let count = UInt64(UInt32(bitPattern: childCount)) << 8
        switch content {
        case .none:
            combine(0 | count)
        case .fixed(let size):
            combine(1 | count)
            combine(size.width)
            combine(size.height)
        case .intrinsicText(let text):
            combine(2 | count)
            combine(text)
        case .benchmarkLeaf(let size):
            combine(3 | count)
            combine(size.width)
            combine(size.height)
        case .custom(let tag):
            combine(4 | count)
            combine(UInt64(bitPattern: Int64(tag)))
        case .constraints(let container):
            combine(5 | count)
            combine(constraintContainer: container)
        case .proportional(let size):
            combine(6 | count)
            combine(size.width?.multiplier)
            combine(size.width?.constant)
            combine(size.height?.multiplier)
            combine(size.height?.constant)
            combine(UInt64(size.roundsUp ? 1 : 0))
        }
    }
}
