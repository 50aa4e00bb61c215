// §9.3 step 5, collecting items into flex lines (Yoga's FlexLine.cpp), and §9.4 step 8, the
// cross size of a line.

/// One flex line: a run of the container's layout children plus what the per-line steps
/// find out about it. Items are the in-flow children from `first` up to (not including) `end`.
struct FlexLine {
    var first: Int
    /// The main space the line's items flex into: the container's, or (step 4) the line's
    /// content size when the container's main size is not definite.
    var availableInnerMainDim: Float
    /// The layout child that starts the next line (-1 after the last line).
    var end: Int = -1
    var itemCount = 0
    var lastItem = -1
    /// Step 5: the items' outer hypothetical main sizes plus the gaps between them.
    var sizeConsumed: Float = 0
    /// Step 5: auto margins on the main axis, which take the free space before justify-content.
    var numberOfAutoMargins = 0
    /// Step 5 sums the flex factors (the shrink factors scaled by the items' bases, each sum
    /// floored to 1 when below it); step 6 takes out the factors of items it freezes.
    var totalFlexGrowFactors: Float = 0
    var totalFlexShrinkScaledFactors: Float = 0
    /// Step 4 sets the line's free space, step 6 leaves what the items did not take, and
    /// step 12 shares it out.
    var remainingFreeSpace: Float = 0
    /// Step 12: the line's main size, the container's padding and border included.
    var mainDim: Float = 0
    /// Step 8: the line's cross size.
    var crossDim: Float = 0
    /// The line's container `laysOutLikeCSS`: step 6 runs §9.7 as the spec does
    /// (`resolveFlexibleLengthsLikeCSS`), not Yoga's two passes.
    var resolvesLikeCSS = false
    /// §9.2 step 4 on such a line: the inner main size CSS gives a fit-content container
    /// offered less than the line's hypothetical sizes (its min-content size or the space
    /// offered, the larger), which items that cannot shrink may overflow; NaN where the line's
    /// extent is the container's size.
    var fitContentMainSize: Float = .nan

    init(first: Int, availableInnerMainDim: Float) {
        self.first = first
        self.availableInnerMainDim = availableInnerMainDim
    }
}

extension LayoutPass {
    @inline(__always) func isInFlow(_ c: Int) -> Bool {
        let s = style(c)
        return s.pointee.display != .none && s.pointee.positionType != .absolute
    }

    /// The next in-flow item of `line` after `c` (or the first when `c` is -1); -1 at the end.
    @inline(__always) func nextItem(_ line: FlexLine, after c: Int, _ node: Int) -> Int {
        var i = c < 0 ? line.first : nextLayoutChild(c, node)
        while i >= 0 && i != line.end {
            if isInFlow(i) { return i }
            i = nextLayoutChild(i, node)
        }
        return -1
    }

    /// §9.3 step 5: collect items from `start` into the line after `lines` until the next one
    /// would overflow (when wrapping), adding up their outer hypothetical main sizes and flex
    /// factors.
    func collectFlexLine(_ flex: FlexContainer, _ lines: FlexLineTotals, from start: Int) -> FlexLine {
        let (direction, mainAxis) = (flex.direction, flex.mainAxis)
        let (ownerWidth, mainAxisOwnerSize) = (flex.ownerWidth, flex.mainAxisOwnerSize)
        let availableInnerWidth = flex.availableInnerWidth
        let lineCount = lines.count
        var line = FlexLine(first: start, availableInnerMainDim: lines.availableInnerMainDim)
        line.resolvesLikeCSS = flex.laysOutLikeCSS
        let node = flex.node
        let ns = style(node)
        var sizeConsumedIncludingMinConstraint: Float = 0
        let gap = ns.pointee.gapForAxis(mainAxis, line.availableInnerMainDim)

        var c = start
        while c >= 0 {
            if !isInFlow(c) {
                c = nextLayoutChild(c, node)
                continue
            }
            let cs = style(c)
            // Yoga counts auto margins (and sets the line index) before deciding to break.
            if cs.pointee.flexStartMarginIsAuto(mainAxis, flex.ownerDirection) { line.numberOfAutoMargins += 1 }
            if cs.pointee.flexEndMarginIsAuto(mainAxis, flex.ownerDirection) { line.numberOfAutoMargins += 1 }
            layouts[c].lineIndex = Int32(truncatingIfNeeded: lineCount)
            let isFirstElementInLine = line.itemCount == 0
            let childMarginMainAxis = marginForAxis(c, mainAxis, availableInnerWidth)
            let childLeadingGap: Float = isFirstElementInLine ? 0 : gap
            let flexBasisWithMinAndMax = boundItemWithinMinAndMax(c, direction, mainAxis, layouts[c].computedFlexBasis,
                                                                  mainAxisOwnerSize, ownerWidth)
            // A wrapping container starts a new line when this item would overflow.
            if sizeConsumedIncludingMinConstraint + flexBasisWithMinAndMax + childMarginMainAxis + childLeadingGap
                > line.availableInnerMainDim && flex.isWrap && line.itemCount > 0 {
                break
            }
            sizeConsumedIncludingMinConstraint += flexBasisWithMinAndMax + childMarginMainAxis + childLeadingGap
            line.sizeConsumed += flexBasisWithMinAndMax + childMarginMainAxis + childLeadingGap
            if isNodeFlexible(c) {
                line.totalFlexGrowFactors += resolveFlexGrow(c)
                // Unlike grow, shrink is scaled by the item's basis.
                line.totalFlexShrinkScaledFactors += -resolveFlexShrink(c) * layouts[c].computedFlexBasis
            }
            line.itemCount += 1
            line.lastItem = c
            c = nextLayoutChild(c, node)
        }
        line.end = c
        // Total flex factors below 1 are floored to 1.
        if line.totalFlexGrowFactors > 0 && line.totalFlexGrowFactors < 1 { line.totalFlexGrowFactors = 1 }
        if line.totalFlexShrinkScaledFactors > 0 && line.totalFlexShrinkScaledFactors < 1 {
            line.totalFlexShrinkScaledFactors = 1
        }
        return line
    }

    /// §9.4 step 8: the cross size of `line`. A single-line container with an imposed cross
    /// size gives it to its line; a single line is clamped by the container's min/max. Returns
    /// the cross size items align in: for a content-sized container Yoga uses the line's own
    /// (clamped) size here, not the container's final one.
    @inline(always) func determineLineCrossSize(_ flex: FlexContainer, _ line: inout FlexLine) -> Float {
        let node = flex.node
        var alignmentCrossSize = flex.availableInnerCrossDim
        if flex.crossMode == .maxContent || flex.crossMode == .fitContent {
            // The cross size comes from the largest item.
            alignmentCrossSize = boundAxis(node, flex.crossAxis, flex.direction, line.crossDim + flex.paddingAndBorderCross,
                                           flex.crossAxisOwnerSize, flex.ownerWidth) - flex.paddingAndBorderCross
        }
        if !flex.isWrap && flex.crossMode == .stretchFit {
            line.crossDim = flex.availableInnerCrossDim
        }
        if !flex.isWrap {
            line.crossDim = boundAxis(node, flex.crossAxis, flex.direction, line.crossDim + flex.paddingAndBorderCross,
                                      flex.crossAxisOwnerSize, flex.ownerWidth) - flex.paddingAndBorderCross
        }
        return alignmentCrossSize
    }
}
