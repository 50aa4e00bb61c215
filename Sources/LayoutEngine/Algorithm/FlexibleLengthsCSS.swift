// §9.7 resolving flexible lengths as the spec runs it, for a line holding an item sized by
// `FlexItemSizing.css` (text). Yoga's two passes (FlexibleLengths.swift) freeze an item against
// a running total of the factors and never look again, which an automatic minimum size (§4.5)
// makes common: items that fit get frozen and the line overflows. Lines without such items keep
// Yoga's passes, so Yoga conformance is untouched.

extension LayoutPass {
    /// §9.7 steps 1–5 for `line`: leaves each item's target main size (border box) in its
    /// `flexTarget`. The sizes are clamped by min/max and the automatic minimum size; the free
    /// space is shared by flex grow factors, or by flex shrink factors scaled by the items'
    /// inner flex base sizes, frozen items taken out, until no item violates its clamp.
    func resolveFlexibleLengthsLikeCSS(_ flex: FlexContainer, _ line: FlexLine) {
        let node = flex.node
        let freeSpace = line.remainingFreeSpace
        // Step 1: the line's outer hypothetical main sizes (`line.sizeConsumed`) against the
        // space: grow when they leave some, else shrink.
        let growing = freeSpace > 0
        // Step 2: size inflexible items (no factor, or a base the hypothetical size already
        // clamped in the direction of flexing) at their hypothetical main size.
        var c = nextItem(line, after: -1, node)
        var initialFreeSpace = freeSpace
        while c >= 0 {
            let hypothetical = hypotheticalMainSize(flex, c)
            let base = layouts[c].computedFlexBasis
            let factor = growing ? resolveFlexGrow(c) : resolveFlexShrink(c)
            if freeSpace.isNaN || !isNodeFlexible(c) || factor == 0 || (growing ? base > hypothetical : base < hypothetical) {
                layouts[c].flexTarget = hypothetical
            } else {
                layouts[c].flexTarget = .nan
                // Step 3: the initial free space counts unfrozen items at their flex base size.
                initialFreeSpace += hypothetical - base
            }
            c = nextItem(line, after: c, node)
        }
        // Step 4: each round freezes at least one item, so there is at most one per item (and
        // one to find none left); a NaN violation (from an infinite size) freezes them all.
        for _ in 0...line.itemCount {
            // b: the remaining free space, from the frozen items' targets and the others' bases.
            var remaining = freeSpace
            var factors: Float = 0
            var scaledShrinkFactors: Float = 0
            var unfrozen = 0
            c = nextItem(line, after: -1, node)
            while c >= 0 {
                let hypothetical = hypotheticalMainSize(flex, c)
                let target = layouts[c].flexTarget
                if target.isNaN {
                    unfrozen += 1
                    remaining += hypothetical - layouts[c].computedFlexBasis
                    factors += growing ? resolveFlexGrow(c) : resolveFlexShrink(c)
                    scaledShrinkFactors += resolveFlexShrink(c) * innerFlexBaseSize(flex, c)
                } else {
                    remaining += hypothetical - target
                }
                c = nextItem(line, after: c, node)
            }
            // a: every item frozen.
            if unfrozen == 0 { return }
            // b: factors summing below 1 take only that share of the initial free space.
            if factors < 1 {
                let share = initialFreeSpace * factors
                if abs(share) < abs(remaining) { remaining = share }
            }
            // c, d: each unfrozen item's share, clamped; the total violation.
            var violation: Float = 0
            c = nextItem(line, after: -1, node)
            while c >= 0 {
                if layouts[c].flexTarget.isNaN {
                    let target = flexedMainSize(flex, line, c, remaining, growing, factors, scaledShrinkFactors)
                    violation += boundedFlexTarget(flex, line, c, target) - target
                }
                c = nextItem(line, after: c, node)
            }
            // e: freeze every item (no violation), or those clamped by the violation's sign:
            // their min (positive) or their max (negative).
            c = nextItem(line, after: -1, node)
            while c >= 0 {
                if layouts[c].flexTarget.isNaN {
                    let target = flexedMainSize(flex, line, c, remaining, growing, factors, scaledShrinkFactors)
                    let bounded = boundedFlexTarget(flex, line, c, target)
                    if violation == 0 || violation.isNaN || (violation > 0 && bounded > target) || (violation < 0 && bounded < target) {
                        layouts[c].flexTarget = bounded.isNaN ? hypotheticalMainSize(flex, c) : bounded
                    }
                }
                c = nextItem(line, after: c, node)
            }
        }
    }

    /// §9.2 step 3: the item's hypothetical main size, its flex base size clamped (as the line
    /// was collected).
    @inline(__always) private func hypotheticalMainSize(_ flex: FlexContainer, _ c: Int) -> Float {
        boundItemWithinMinAndMax(c, flex.direction, flex.mainAxis, layouts[c].computedFlexBasis, flex.mainAxisOwnerSize,
                                 flex.ownerWidth)
    }

    /// §9.7 step 4 c: the inner (content-box) flex base size, which scales the shrink factor.
    @inline(__always) private func innerFlexBaseSize(_ flex: FlexContainer, _ c: Int) -> Float {
        max(0, layouts[c].computedFlexBasis
            - paddingAndBorderForAxis(c, flex.mainAxis, flex.direction, flex.availableInnerWidth))
    }

    /// §9.7 step 4 c: an unfrozen item's flex base size plus its share of `remaining`.
    @inline(__always) private func flexedMainSize(_ flex: FlexContainer, _ line: FlexLine, _ c: Int, _ remaining: Float,
                                                  _ growing: Bool, _ factors: Float, _ scaledShrinkFactors: Float) -> Float {
        let base = layouts[c].computedFlexBasis
        if growing {
            return factors > 0 ? base + remaining * resolveFlexGrow(c) / factors : base
        }
        guard scaledShrinkFactors > 0 else { return base }
        return base - abs(remaining) * resolveFlexShrink(c) * innerFlexBaseSize(flex, c) / scaledShrinkFactors
    }

    /// §9.7 step 4 d: a target clamped by min/max (percentages against the line's main
    /// space), the automatic minimum size, and padding plus border (a box is never smaller).
    @inline(__always) private func boundedFlexTarget(_ flex: FlexContainer, _ line: FlexLine, _ c: Int,
                                                     _ target: Float) -> Float {
        maxOrDefined(boundAxis(c, flex.mainAxis, flex.direction, target, line.availableInnerMainDim, flex.availableInnerWidth),
                     layouts[c].automaticMinimum)
    }
}
