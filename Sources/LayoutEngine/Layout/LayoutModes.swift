// FlexLayout's layout modes and `sizeThatFits`, on top of the Yoga entry point.

/// How `computeLayout(root:size:mode:)` reads the size it is given (FlexLayout's modes).
public enum LayoutMode: Sendable {
    /// Lay out inside exactly the given width and height.
    case fitContainer
    /// Use the given width; the height follows the content (the given height is ignored).
    case adjustHeight
    /// Use the given height; the width follows the content (the given width is ignored).
    case adjustWidth
}

extension LayoutTree {
    /// Lays out the subtree at `root` as FlexLayout's `layout(mode:)` does: the root's box takes
    /// the given size on the axes the mode fixes, whatever its own style says; on an adjusted
    /// axis its size comes from its style and content.
    public mutating func computeLayout(root: NodeID, size: Size, mode: LayoutMode, direction: Direction = .ltr) {
        let r = Int(root.index)
        guard r >= 0 && r < nodeCount else { return }
        let s = styles[r]
        let dir = s.direction == .inherit ? (direction == .inherit ? Direction.ltr : direction) : s.direction
        beginLayoutCall()
        let ownerWidth: Float = mode == .adjustWidth ? .nan : size.width
        let ownerHeight: Float = mode == .adjustHeight ? .nan : size.height
        let width: (size: Float, mode: SizingMode) = mode == .adjustWidth
            ? Self.rootAxis(s, row: true, dir, ownerWidth, ownerWidth)
            : (Self.finite(size.width) + s.marginForAxis(.row, ownerWidth), .stretchFit)
        let height: (size: Float, mode: SizingMode) = mode == .adjustHeight
            ? Self.rootAxis(s, row: false, dir, ownerHeight, ownerWidth)
            : (Self.finite(size.height) + s.marginForAxis(.column, ownerWidth), .stretchFit)
        runRoot(r, width, height, ownerWidth, ownerHeight, direction, performLayout: true)
    }

    /// The size the subtree at `root` takes when offered `proposed` as a maximum on each axis
    /// (nil: unconstrained), without changing any frame from earlier layouts. A root with a
    /// definite size keeps it.
    public mutating func sizeThatFits(root: NodeID, proposed: AvailableSize, direction: Direction = .ltr) -> Size {
        let r = Int(root.index)
        guard r >= 0 && r < nodeCount else { return .zero }
        let s = styles[r]
        let dir = s.direction == .inherit ? (direction == .inherit ? Direction.ltr : direction) : s.direction
        let ownerWidth = proposed.width.map(Self.finite) ?? .nan
        let ownerHeight = proposed.height.map(Self.finite) ?? .nan
        func axis(_ row: Bool, _ offered: Float) -> (size: Float, mode: SizingMode) {
            if s.hasDefiniteLength(row, offered) {
                return (s.resolvedDimension(row, dir, offered, ownerWidth) + s.marginForAxis(row ? .row : .column, ownerWidth),
                        .stretchFit)
            }
            let maxSize = s.resolvedMaxDimension(row, dir, offered, ownerWidth)
            if offered.isNaN { return maxSize.isNaN ? (.nan, .maxContent) : (maxSize, .fitContent) }
            return (maxSize.isNaN ? offered : Swift.min(offered, maxSize), .fitContent)
        }
        runRoot(r, axis(true, ownerWidth), axis(false, ownerHeight), ownerWidth, ownerHeight, direction,
                performLayout: false)
        let l = layouts[r]
        let scale = Double(config.pointScaleFactor)
        if scale == 0 { return Size(width: l.measuredWidth, height: l.measuredHeight) }
        return Size(width: roundValueToPixelGrid(Double(l.measuredWidth), scale, false, false),
                    height: roundValueToPixelGrid(Double(l.measuredHeight), scale, false, false))
    }

    /// Infinite sizes (UIKit's "no limit") become undefined.
    @inline(__always) static func finite(_ value: Float) -> Float { value.isFinite ? value : .nan }
}
