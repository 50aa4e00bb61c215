// Constraint containers inside the flexbox pass (content `.constraints`, see
// Tree/ConstraintContainer.swift). To its parent such a node is a measured leaf whose size is
// its constraint layout solved in the offered space; when it is laid out, the child placement
// step (ChildPlacement.swift) asks `constraintChildFrames` for its items' frames at its final
// inner size and lays each child out there.

extension LayoutPass {
    /// The content size of a constraint container for a measure request (inner sizes): exact
    /// axes are fixed, undefined axes fit the content, at-most axes fit and are solved again at
    /// the limit when the fit overflows it.
    func measureConstraintContainer(_ n: Int, _ container: ConstraintContainer,
                                    _ width: Float, _ widthMode: MeasureMode,
                                    _ height: Float, _ heightMode: MeasureMode) -> Size {
        let layout = constraintLayoutWithChildSizes(n, container)
        let rtl = layouts[n].direction == .rtl
        var w: Double? = widthMode == .exactly ? Double(width) : nil
        var h: Double? = heightMode == .exactly ? Double(height) : nil
        guard var result = Self.solve(layout, container.limits, rtl, w, h) else { return .zero }
        var again = false
        if widthMode == .atMost && result.containerWidth > Double(width) { w = Double(width); again = true }
        if heightMode == .atMost && result.containerHeight > Double(height) { h = Double(height); again = true }
        if again, let capped = Self.solve(layout, container.limits, rtl, w, h) { result = capped }
        return Size(width: Float(result.containerWidth), height: Float(result.containerHeight))
    }

    /// The frames of the container's items (its children, in order) at its inner size, relative
    /// to its content box; nil when the layout cannot be solved.
    func constraintChildFrames(_ n: Int, _ container: ConstraintContainer, _ inner: Size) -> [Frame]? {
        let layout = constraintLayoutWithChildSizes(n, container)
        let rtl = layouts[n].direction == .rtl
        return Self.solve(layout, container.limits, rtl, Double(inner.width), Double(inner.height))?.frames
    }

    /// The container's layout with each item that takes its intrinsic size from its child given
    /// that child's max-content size (margins included).
    private func constraintLayoutWithChildSizes(_ n: Int, _ container: ConstraintContainer) -> ConstraintLayout {
        guard container.intrinsicFromChild.contains(where: { !$0.isEmpty }) else { return container.layout }
        var layout = container.layout
        let direction = layouts[n].direction
        var c = Int(firstChildren[n].index)
        var item = 0
        while c >= 0 && item < layout.items.count {
            let axes = item < container.intrinsicFromChild.count ? container.intrinsicFromChild[item] : []
            if !axes.isEmpty {
                calculateLayoutInternal(c, .nan, .nan, direction, .maxContent, .maxContent, .nan, .nan, false, 1)
                // A size that is not a finite number (percent margins of an unknown width) stays unset.
                let width = Double(layouts[c].measuredWidth + marginForAxis(c, .row, .nan))
                let height = Double(layouts[c].measuredHeight + marginForAxis(c, .column, .nan))
                if axes.contains(.width) && width.isFinite && width >= 0 { layout.items[item].intrinsicWidth = width }
                if axes.contains(.height) && height.isFinite && height >= 0 { layout.items[item].intrinsicHeight = height }
            }
            c = Int(nextSiblings[c].index)
            item += 1
        }
        return layout
    }

    /// Solves at a size; when the required constraints cannot hold at that size, the size gives
    /// way (as Auto Layout breaks a constraint): first the width, then the height, then both.
    /// nil only when the layout cannot be solved at all.
    static func solve(_ layout: ConstraintLayout, _ limits: SolverLimits, _ rtl: Bool,
                      _ width: Double?, _ height: Double?) -> ConstraintLayoutResult? {
        let direction: ReadingDirection = rtl ? .rightToLeft : .leftToRight
        let attempts: [(Double?, Double?)] = [(width, height), (nil, height), (width, nil), (nil, nil)]
        for (k, size) in attempts.enumerated() {
            // Skip attempts that repeat an earlier one.
            if k == 1 && width == nil { continue }
            if k == 2 && height == nil { continue }
            if k == 3 && (width == nil || height == nil) { continue }
            if let result = try? layout.solve(containerSize: ConstraintContainerSize(width: size.0, height: size.1),
                                              direction: direction, limits: limits) {
                return result
            }
        }
        return nil
    }
}
