/// One layout call over a `LayoutTree`: raw views of the tree's storage plus the call's
/// settings. Every algorithm step is a method on it, so the recursion walks flat memory with
/// no copies, allocation or reference counting per node. Only valid while the tree's storage
/// is pinned by `LayoutTree.withLayoutPass`.
@usableFromInline struct LayoutPass {
    let styles: UnsafePointer<Style>
    let contents: UnsafePointer<NodeContent>
    let measured: UnsafePointer<Bool>
    let flags: UnsafePointer<StyleFlags>
    let parents: UnsafePointer<NodeID>
    let firstChildren: UnsafePointer<NodeID>
    let nextSiblings: UnsafePointer<NodeID>
    let layouts: UnsafeMutablePointer<NodeLayout>
    /// `maxCachedMeasurements` entries per node.
    let caches: UnsafeMutablePointer<CacheEntry>

    let pointScaleFactor: Float
    let useWebDefaults: Bool
    let errata: Errata
    let experimental: ExperimentalFeatures
    let configVersion: UInt32
    let generation: UInt32
    let measureFunction: MeasureFunction?
    let baselineFunction: BaselineFunction?
    let childPlacementFunction: ChildPlacementFunction?
    /// The subtree memo of this call (see SubtreeMemo.swift); nil when subtree reuse is off.
    // Unmanaged: the call's owner (`LayoutTree.runRoot`) holds the memo for the whole call,
    // so the pass never outlives it, and each call takes it at +0 (`_withUnsafeGuaranteedRef`).
    // An `unowned(unsafe)` optional bound with `if let` was retained and released per call.
    var memo: Unmanaged<SubtreeMemoState>? = nil
    /// Each node's last pixel rounding (see `LayoutTree.memoizesPixelRounding`); nil when off.
    var roundings: UnsafeMutablePointer<PixelGridRounding>? = nil
    /// With `roundings`: the rounding walk skips the subtree of a node this call never laid
    /// out or measured under a parent whose rounding was reused (see PixelGrid.swift). Only
    /// where every node is laid out by its parent's call: no out-of-flow node, child placement
    /// hook, subtree memo or size reference.
    var skipsUntouchedRoundings = false
    /// The tree's lists of this pass (see `PassRecords`).
    var records: UnsafeMutablePointer<PassRecords>? = nil
    /// With `roundings`: each node whose frame is rounded anew (not taken from its last
    /// rounding) is listed (see `LayoutTree.updatePreorderFrames`).
    var recordsRoundedAnew = false
    /// Each node's questions of its last computed call and where this call stands in them
    /// (`LayoutTree.relayoutsExactly`, RequestLog.swift); nil when off.
    var requestLogs: UnsafeMutablePointer<LoggedRequest>? = nil
    var requestLogStates: UnsafeMutablePointer<RequestLogState>? = nil
    /// Set when this call cannot give the frames of a fresh call (see RequestLog.swift).
    var relayoutDiverged: UnsafeMutablePointer<Bool>? = nil

    // MARK: node access

    @inline(__always) func style(_ n: Int) -> UnsafePointer<Style> { styles + n }

    /// Both margins of `n` on `axis` (0 without margins).
    @inline(__always) func marginForAxis(_ n: Int, _ axis: FlexDirection, _ widthSize: Float) -> Float {
        flags[n].contains(.margin) ? resolvedMarginForAxis(n, axis, widthSize) : 0
    }

    // Read in place: `styles[n].marginForAxis` loaded all nine margins first, half of the
    // instructions of this function, which a layout calls about ten times per node.
    @inline(never) func resolvedMarginForAxis(_ n: Int, _ axis: FlexDirection, _ widthSize: Float) -> Float {
        let reference = marginReference(n, axis, widthSize)
        let margins = edges(n, \.margin)
        return axis.isRow
            ? Style.margin(.left, .ltr, reference, in: margins) + Style.margin(.right, .ltr, reference, in: margins)
            : Style.margin(.top, .ltr, reference, in: margins) + Style.margin(.bottom, .ltr, reference, in: margins)
    }

    /// One set of edges (`\.margin`, `\.padding`, ...) of `n`'s style, in place. Inlined, the
    /// key path is a literal and the pointer a constant offset.
    @inline(__always) func edges(_ n: Int, _ set: KeyPath<Style, Edges>) -> UnsafePointer<Edges> {
        (styles + n).pointer(to: set)!
    }

    /// What percentages of `n`'s margins on `axis` resolve against: `widthSize` (flexbox: the
    /// layout parent's inner width), or for a style with `percentMarginsAgainstContainerSize`
    /// the parent's full width or height on `axis`.
    @inline(__always) func marginReference(_ n: Int, _ axis: FlexDirection, _ widthSize: Float) -> Float {
        guard flags[n].contains(.marginPercentOfContainerSize) else { return widthSize }
        return containerSizeReference(n, axis.isRow, widthSize)
    }

    /// The full width (`widthSize` is its inner width) or height of `n`'s layout parent:
    /// StackViewLayout resolves an item's margin percentages against the stack's frame,
    /// padding and border included.
    @inline(never) func containerSizeReference(_ n: Int, _ row: Bool, _ widthSize: Float) -> Float {
        var p = Int(parents[n].index)
        while p >= 0 && styles[p].display == .contents { p = Int(parents[p].index) }
        guard p >= 0 else { return row ? widthSize : .nan }
        let pl = layouts + p
        if row {
            return widthSize + pl.pointee.padding.left + pl.pointee.padding.right
                + pl.pointee.border.left + pl.pointee.border.right
        }
        return pl.pointee.marginHeightReference + pl.pointee.padding.top + pl.pointee.padding.bottom
            + pl.pointee.border.top + pl.pointee.border.bottom
    }

    @inline(__always) func hasParent(_ n: Int) -> Bool { parents[n].index >= 0 }

    @inline(__always) func hasMeasureFunc(_ n: Int) -> Bool { measured[n] }

    // MARK: layout children (display: contents flattened, as Yoga's LayoutableChildren)

    /// The first child that takes part in layout, descending into `display: contents`
    /// children; -1 when there is none.
    @inline(__always) func firstLayoutChild(_ node: Int) -> Int {
        flattenContents(Int(firstChildren[node].index), node)
    }

    /// The layout child after `child` under `node`; -1 at the end.
    @inline(__always) func nextLayoutChild(_ child: Int, _ node: Int) -> Int {
        flattenContents(siblingOrAncestorSibling(child, node), node)
    }

    @inline(__always) private func flattenContents(_ start: Int, _ node: Int) -> Int {
        var c = start
        while c >= 0 && styles[c].display == .contents {
            let first = Int(firstChildren[c].index)
            c = first >= 0 ? first : siblingOrAncestorSibling(c, node)
        }
        return c
    }

    /// The next sibling of `c`, climbing out of `display: contents` parents below `node`.
    @inline(__always) private func siblingOrAncestorSibling(_ start: Int, _ node: Int) -> Int {
        var c = start
        while true {
            let next = Int(nextSiblings[c].index)
            if next >= 0 { return next }
            let p = Int(parents[c].index)
            if p == node || p < 0 { return -1 }
            c = p
        }
    }

    @inline(__always) func layoutChildCount(_ node: Int) -> Int {
        var count = 0
        var c = firstLayoutChild(node)
        while c >= 0 {
            count += 1
            c = nextLayoutChild(c, node)
        }
        return count
    }

    // MARK: per-node resolution (Yoga's Node.cpp)

    @inline(__always) func resolveDirection(_ n: Int, _ ownerDirection: Direction) -> Direction {
        let d = styles[n].direction
        if d == .inherit { return ownerDirection != .inherit ? ownerDirection : .ltr }
        return d
    }

    /// Yoga's `resolveFlexGrow`: a root never grows.
    @inline(__always) func resolveFlexGrow(_ n: Int) -> Float {
        if !hasParent(n) { return 0 }
        let s = style(n)
        if let g = s.pointee.flexGrow { return g }
        if let f = s.pointee.flex, f > 0 { return f }
        return 0
    }

    /// Yoga's `resolveFlexShrink`: web defaults shrink by 1.
    @inline(__always) func resolveFlexShrink(_ n: Int) -> Float {
        if !hasParent(n) { return 0 }
        let s = style(n)
        if let v = s.pointee.flexShrink { return v }
        if !useWebDefaults, let f = s.pointee.flex, f < 0 { return -f }
        return useWebDefaults ? 1 : 0
    }

    @inline(__always) func isNodeFlexible(_ n: Int) -> Bool {
        styles[n].positionType != .absolute && (resolveFlexGrow(n) != 0 || resolveFlexShrink(n) != 0)
    }

    /// Yoga's `resolveFlexBasis`: the `flex` shorthand implies a basis of 0 (auto under web
    /// defaults); content-box adds padding and border.
    @inline(__always) func resolveFlexBasis(_ n: Int, _ direction: Direction, _ mainAxis: FlexDirection,
                                            _ reference: Float, _ ownerWidth: Float) -> Float {
        let s = style(n)
        var basis = s.pointee.flexBasis
        if basis.isAuto || basis.isUndefined {
            if let f = s.pointee.flex, f > 0 {
                basis = useWebDefaults ? .auto : .points(0)
            } else {
                basis = .auto
            }
        }
        let v = basis.resolveNaN(reference)
        if s.pointee.boxSizing == .borderBox || v.isNaN { return v }
        return v + s.pointee.paddingAndBorderForAxis(mainAxis.isRow ? .row : .column, direction, ownerWidth)
    }

    /// Yoga's `relativePosition`: start inset wins, else minus the end inset; static ignores both.
    @inline(__always) func relativePosition(_ n: Int, _ axis: FlexDirection, _ direction: Direction, _ axisSize: Float) -> Float {
        if styles[n].positionType == .static { return 0 }
        let insets = edges(n, \.position)
        let startEdge = axis.inlineStartEdge(direction)
        if Style.isPositionDefinite(startEdge, direction, in: insets) {
            return Style.position(startEdge, direction, axisSize, in: insets)
        }
        return -Style.position(axis.inlineEndEdge(direction), direction, axisSize, in: insets)
    }

    /// Yoga's `Node::setPosition`: margins plus relative offsets on all four edges.
    func setPosition(_ n: Int, _ direction: Direction, _ ownerWidth: Float, _ ownerHeight: Float) {
        let f = flags[n]
        if !f.contains(.margin) && !f.contains(.insets) {
            layouts[n].position = EdgeValues()
            return
        }
        let s = style(n)
        let respectingRoot: Direction = hasParent(n) ? direction : .ltr
        let mainAxis = s.pointee.flexDirection.resolved(respectingRoot)
        let crossAxis = mainAxis.crossAxis(respectingRoot)
        let relMain = relativePosition(n, mainAxis, respectingRoot, mainAxis.isRow ? ownerWidth : ownerHeight)
        let relCross = relativePosition(n, crossAxis, respectingRoot, mainAxis.isRow ? ownerHeight : ownerWidth)
        // The margins read in place (see `resolvedMarginForAxis`).
        let margins = edges(n, \.margin)
        let l = layouts + n
        @inline(__always) func place(_ axis: FlexDirection, _ relative: Float) {
            let reference = marginReference(n, axis, ownerWidth)
            let start = axis.inlineStartEdge(direction), end = axis.inlineEndEdge(direction)
            l.pointee.position[start] = Style.margin(start, direction, reference, in: margins) + relative
            l.pointee.position[end] = Style.margin(end, direction, reference, in: margins) + relative
        }
        place(mainAxis, relMain)
        place(crossAxis, relCross)
    }

    @inline(__always) func dimensionWithMargin(_ n: Int, _ axis: FlexDirection, _ widthSize: Float) -> Float {
        layouts[n].measured(axis) + marginForAxis(n, axis, widthSize)
    }

    @inline(__always) func isLayoutDimensionDefined(_ n: Int, _ axis: FlexDirection) -> Bool {
        let v = layouts[n].measured(axis)
        return !v.isNaN && v >= 0
    }

    /// Yoga's `resolveChildAlignment`: alignSelf or the parent's alignItems; baseline in a
    /// column container means flex-start.
    @inline(__always) func childAlignment(_ node: Int, _ child: Int) -> Align {
        let ns = style(node)
        let selfAlign = styles[child].alignSelf
        let align = selfAlign == .auto ? ns.pointee.alignItems : selfAlign
        if align == .baseline && ns.pointee.flexDirection.isColumn { return .flexStart }
        return align
    }
}

extension LayoutPass {
    // Out of line: an array append inlined into the hot calls of every node (the layout entry,
    // the rounding walk) made them dearer for trees that record nothing.
    /// Lists `n` in `PassRecords.replayed`.
    @inline(never) func noteReplayed(_ n: Int) { records!.pointee.replayed.append(Int32(n)) }
    /// Lists `n` in `PassRecords.roundedAnew`.
    @inline(never) func noteRoundedAnew(_ n: Int) { records!.pointee.roundedAnew.append(Int32(n)) }
}
