// Baselines for align-items/align-self: baseline (Yoga's Baseline.cpp).

extension LayoutPass {
    /// Distance from the top of `n` to its baseline: the hook's answer for a measured leaf that
    /// has one, else the baseline of its first baseline-aligned (or first) child on line 0,
    /// else its height.
    ///
    /// `hiddenIsUndefined`: Yoga's calculateBaseline (Baseline.cpp) may pick a `display: none`
    /// child, whose measured height Yoga leaves undefined (zeroOutLayoutRecursively resets the
    /// layout to `LayoutResults{}`, measured dimensions NaN), so the baseline is NaN. Line
    /// cross sizes (justifyMainAxis, multi-line align-content) take it that way: their
    /// `maxOrDefined` then drops that item's ascent and descent, and the line is only as tall
    /// as its other items. Positions keep a finite baseline (0 for a hidden child): where Yoga
    /// places a baseline-aligned item by a NaN baseline its frame is NaN.
    func calculateBaseline(_ n: Int, hiddenIsUndefined: Bool = false) -> Float {
        if hiddenIsUndefined && styles[n].display == .none { return .nan }
        if hasMeasureFunc(n), let baselineFunction, case .custom = contents[n] {
            let l = layouts[n]
            // Yoga's hook gets the width and height only; this one also gets the content box, so
            // a leaf with percentage padding need not resolve it again (the node's last layout
            // resolved it against its owner's width).
            let left = l.padding.left + l.border.left, top = l.padding.top + l.border.top
            let content = Frame(left: left, top: top,
                                width: max(0, l.measuredWidth - left - l.padding.right - l.border.right),
                                height: max(0, l.measuredHeight - top - l.padding.bottom - l.border.bottom))
            let baseline = baselineFunction(NodeID(n), l.measuredWidth, l.measuredHeight, content)
            // Yoga asserts on NaN; use the height instead of trapping.
            return baseline.isFinite ? baseline : l.measuredHeight
        }
        var baselineChild = -1
        var c = firstLayoutChild(n)
        while c >= 0 {
            defer { c = nextLayoutChild(c, n) }
            if layouts[c].lineIndex > 0 { break }
            if styles[c].positionType == .absolute { continue }
            if childAlignment(n, c) == .baseline {
                baselineChild = c
                break
            }
            if baselineChild < 0 { baselineChild = c }
        }
        if baselineChild < 0 { return layouts[n].measuredHeight }
        return calculateBaseline(baselineChild, hiddenIsUndefined: hiddenIsUndefined)
            + layouts[baselineChild].position.top
    }

    /// True when a row container aligns any in-flow child by baseline.
    func isBaselineLayout(_ n: Int) -> Bool {
        let s = style(n)
        if s.pointee.flexDirection.isColumn { return false }
        if s.pointee.alignItems == .baseline { return true }
        var c = firstLayoutChild(n)
        while c >= 0 {
            if styles[c].positionType != .absolute && styles[c].alignSelf == .baseline { return true }
            c = nextLayoutChild(c, n)
        }
        return false
    }
}
