// §9.3 collecting items into flex lines, §9.7 resolving flexible lengths and §9.5 main-axis
// alignment (Yoga's FlexLine.cpp, resolveFlexibleLength and justifyMainAxis).

/// One flex line: a run of the container's layout children plus its running totals.
/// Items are the in-flow children from `first` up to (not including) `end`.
struct FlexLine {
    var first: Int
    var end: Int = -1
    var itemCount = 0
    var lastItem = -1
    var sizeConsumed: Float = 0
    var numberOfAutoMargins = 0
    var totalFlexGrowFactors: Float = 0
    var totalFlexShrinkScaledFactors: Float = 0
    var remainingFreeSpace: Float = 0
    var mainDim: Float = 0
    var crossDim: Float = 0

    init(first: Int) { self.first = first }
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

    /// §9.3 step 5: collect items into a line until the next one would overflow (when wrapping).
    func calculateFlexLine(_ node: Int, _ ownerDirection: Direction, _ ownerWidth: Float,
                           _ mainAxisOwnerSize: Float, _ availableInnerWidth: Float,
                           _ availableInnerMainDim: Float, _ start: Int, _ lineCount: Int) -> FlexLine {
        var line = FlexLine(first: start)
        let ns = style(node)
        var sizeConsumedIncludingMinConstraint: Float = 0
        let direction = resolveDirection(node, ownerDirection)
        let mainAxis = ns.pointee.flexDirection.resolved(direction)
        let isNodeFlexWrap = ns.pointee.flexWrap != .noWrap
        let gap = ns.pointee.gapForAxis(mainAxis, availableInnerMainDim)

        var c = start
        while c >= 0 {
            if !isInFlow(c) {
                c = nextLayoutChild(c, node)
                continue
            }
            let cs = style(c)
            // Yoga counts auto margins (and sets the line index) before deciding to break.
            if cs.pointee.flexStartMarginIsAuto(mainAxis, ownerDirection) { line.numberOfAutoMargins += 1 }
            if cs.pointee.flexEndMarginIsAuto(mainAxis, ownerDirection) { line.numberOfAutoMargins += 1 }
            layouts[c].lineIndex = Int32(truncatingIfNeeded: lineCount)
            let isFirstElementInLine = line.itemCount == 0
            let childMarginMainAxis = marginForAxis(c, mainAxis, availableInnerWidth)
            let childLeadingGap: Float = isFirstElementInLine ? 0 : gap
            let flexBasisWithMinAndMax = boundAxisWithinMinAndMax(c, direction, mainAxis, layouts[c].computedFlexBasis,
                                                                  mainAxisOwnerSize, ownerWidth)
            // A wrapping container starts a new line when this item would overflow.
            if sizeConsumedIncludingMinConstraint + flexBasisWithMinAndMax + childMarginMainAxis + childLeadingGap
                > availableInnerMainDim && isNodeFlexWrap && line.itemCount > 0 {
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

    /// §9.7 steps 1–4 (first pass): freeze items whose min/max clamp triggers and take their
    /// size out of the free space.
    func distributeFreeSpaceFirstPass(_ line: inout FlexLine, _ direction: Direction, _ mainAxis: FlexDirection,
                                      _ ownerWidth: Float, _ mainAxisOwnerSize: Float,
                                      _ availableInnerMainDim: Float, _ availableInnerWidth: Float, _ node: Int) {
        var deltaFreeSpace: Float = 0
        var c = nextItem(line, after: -1, node)
        while c >= 0 {
            defer { c = nextItem(line, after: c, node) }
            let childFlexBasis = boundAxisWithinMinAndMax(c, direction, mainAxis, layouts[c].computedFlexBasis,
                                                          mainAxisOwnerSize, ownerWidth)
            if line.remainingFreeSpace < 0 {
                let flexShrinkScaledFactor = -resolveFlexShrink(c) * childFlexBasis
                if !flexShrinkScaledFactor.isNaN && flexShrinkScaledFactor != 0 {
                    let baseMainSize = childFlexBasis
                        + line.remainingFreeSpace / line.totalFlexShrinkScaledFactors * flexShrinkScaledFactor
                    let boundMainSize = boundAxis(c, mainAxis, direction, baseMainSize, availableInnerMainDim, availableInnerWidth)
                    if !baseMainSize.isNaN && !boundMainSize.isNaN && baseMainSize != boundMainSize {
                        // Exclude this item's size and factor so the second pass clamps it the same way.
                        deltaFreeSpace += boundMainSize - childFlexBasis
                        line.totalFlexShrinkScaledFactors -= -resolveFlexShrink(c) * layouts[c].computedFlexBasis
                    }
                }
            } else if !line.remainingFreeSpace.isNaN && line.remainingFreeSpace > 0 {
                let flexGrowFactor = resolveFlexGrow(c)
                if !flexGrowFactor.isNaN && flexGrowFactor != 0 {
                    let baseMainSize = childFlexBasis + line.remainingFreeSpace / line.totalFlexGrowFactors * flexGrowFactor
                    let boundMainSize = boundAxis(c, mainAxis, direction, baseMainSize, availableInnerMainDim, availableInnerWidth)
                    if !baseMainSize.isNaN && !boundMainSize.isNaN && baseMainSize != boundMainSize {
                        deltaFreeSpace += boundMainSize - childFlexBasis
                        line.totalFlexGrowFactors -= flexGrowFactor
                    }
                }
            }
        }
        line.remainingFreeSpace -= deltaFreeSpace
    }

    /// §9.7 step 5 (second pass): size every item and lay it out with its final main size.
    /// Returns the space actually distributed.
    func distributeFreeSpaceSecondPass(_ line: inout FlexLine, _ node: Int, _ mainAxis: FlexDirection,
                                       _ crossAxis: FlexDirection, _ direction: Direction,
                                       _ ownerWidth: Float, _ mainAxisOwnerSize: Float,
                                       _ availableInnerMainDim: Float, _ availableInnerCrossDim: Float,
                                       _ availableInnerWidth: Float, _ availableInnerHeight: Float,
                                       _ mainAxisOverflows: Bool, _ crossMode: SizingMode,
                                       _ performLayout: Bool, _ depth: Int) -> Float {
        var deltaFreeSpace: Float = 0
        let isMainAxisRow = mainAxis.isRow
        let ns = style(node)
        let isNodeFlexWrap = ns.pointee.flexWrap != .noWrap
        let crossIsRow = crossAxis.isRow

        var c = nextItem(line, after: -1, node)
        while c >= 0 {
            defer { c = nextItem(line, after: c, node) }
            let cs = style(c)
            let childFlexBasis = boundAxisWithinMinAndMax(c, direction, mainAxis, layouts[c].computedFlexBasis,
                                                          mainAxisOwnerSize, ownerWidth)
            var updatedMainSize = childFlexBasis

            if !line.remainingFreeSpace.isNaN && line.remainingFreeSpace < 0 {
                let flexShrinkScaledFactor = -resolveFlexShrink(c) * childFlexBasis
                if flexShrinkScaledFactor != 0 {
                    let childSize: Float
                    if !line.totalFlexShrinkScaledFactors.isNaN && line.totalFlexShrinkScaledFactors == 0 {
                        childSize = childFlexBasis + flexShrinkScaledFactor
                    } else {
                        childSize = childFlexBasis
                            + (line.remainingFreeSpace / line.totalFlexShrinkScaledFactors) * flexShrinkScaledFactor
                    }
                    updatedMainSize = boundAxis(c, mainAxis, direction, childSize, availableInnerMainDim, availableInnerWidth)
                }
            } else if !line.remainingFreeSpace.isNaN && line.remainingFreeSpace > 0 {
                let flexGrowFactor = resolveFlexGrow(c)
                if !flexGrowFactor.isNaN && flexGrowFactor != 0 {
                    updatedMainSize = boundAxis(
                        c, mainAxis, direction,
                        childFlexBasis + line.remainingFreeSpace / line.totalFlexGrowFactors * flexGrowFactor,
                        availableInnerMainDim, availableInnerWidth)
                }
            }
            deltaFreeSpace += updatedMainSize - childFlexBasis

            let marginMain = marginForAxis(c, mainAxis, availableInnerWidth)
            let marginCross = marginForAxis(c, crossAxis, availableInnerWidth)
            var childCrossSize: Float = .nan
            var childMainSize = updatedMainSize + marginMain
            var childCrossMode: SizingMode
            var childMainMode = SizingMode.stretchFit

            let aspectRatio = cs.pointee.resolvedAspectRatio
            let crossDefinite = cs.pointee.hasDefiniteLength(crossIsRow, availableInnerCrossDim)
            let stretches = childAlignment(node, c) == .stretch
                && !cs.pointee.flexStartMarginIsAuto(crossAxis, direction)
                && !cs.pointee.flexEndMarginIsAuto(crossAxis, direction)
            if !aspectRatio.isNaN {
                childCrossSize = isMainAxisRow ? (childMainSize - marginMain) / aspectRatio
                                               : (childMainSize - marginMain) * aspectRatio
                childCrossMode = .stretchFit
                childCrossSize += marginCross
            } else if !availableInnerCrossDim.isNaN && !crossDefinite && crossMode == .stretchFit
                        && !(isNodeFlexWrap && mainAxisOverflows) && stretches {
                // §9.4 step 11 ahead of time: a stretched item takes the line's cross size.
                childCrossSize = availableInnerCrossDim
                childCrossMode = .stretchFit
            } else if !crossDefinite {
                childCrossSize = availableInnerCrossDim
                childCrossMode = childCrossSize.isNaN ? .maxContent : .fitContent
            } else {
                childCrossSize = cs.pointee.resolvedDimension(crossIsRow, direction, availableInnerCrossDim, availableInnerWidth)
                    + marginCross
                let isLoosePercentageMeasurement = cs.pointee.processedDimension(crossIsRow).unit == .percent
                    && crossMode != .stretchFit
                childCrossMode = childCrossSize.isNaN || isLoosePercentageMeasurement ? .maxContent : .stretchFit
            }

            constrainMaxSizeForMode(c, direction, mainAxis, availableInnerMainDim, availableInnerWidth,
                                    &childMainMode, &childMainSize)
            constrainMaxSizeForMode(c, direction, crossAxis, availableInnerCrossDim, availableInnerWidth,
                                    &childCrossMode, &childCrossSize)

            let requiresStretchLayout = !crossDefinite && stretches
            let childWidth = isMainAxisRow ? childMainSize : childCrossSize
            let childHeight = !isMainAxisRow ? childMainSize : childCrossSize
            let childWidthMode = isMainAxisRow ? childMainMode : childCrossMode
            let childHeightMode = !isMainAxisRow ? childMainMode : childCrossMode
            let isLayoutPass = performLayout && !requiresStretchLayout
            // Lay the item out with its resolved main size.
            calculateLayoutInternal(c, childWidth, childHeight, layouts[node].direction, childWidthMode, childHeightMode,
                                    availableInnerWidth, availableInnerHeight, isLayoutPass, depth)
            if layouts[c].hadOverflow { layouts[node].hadOverflow = true }
        }
        return deltaFreeSpace
    }

    /// §9.7: Yoga's two-pass approximation of resolving flexible lengths.
    func resolveFlexibleLength(_ node: Int, _ line: inout FlexLine, _ mainAxis: FlexDirection,
                               _ crossAxis: FlexDirection, _ direction: Direction,
                               _ ownerWidth: Float, _ mainAxisOwnerSize: Float,
                               _ availableInnerMainDim: Float, _ availableInnerCrossDim: Float,
                               _ availableInnerWidth: Float, _ availableInnerHeight: Float,
                               _ mainAxisOverflows: Bool, _ crossMode: SizingMode,
                               _ performLayout: Bool, _ depth: Int) {
        let originalFreeSpace = line.remainingFreeSpace
        distributeFreeSpaceFirstPass(&line, direction, mainAxis, ownerWidth, mainAxisOwnerSize,
                                     availableInnerMainDim, availableInnerWidth, node)
        let distributed = distributeFreeSpaceSecondPass(
            &line, node, mainAxis, crossAxis, direction, ownerWidth, mainAxisOwnerSize,
            availableInnerMainDim, availableInnerCrossDim, availableInnerWidth, availableInnerHeight,
            mainAxisOverflows, crossMode, performLayout, depth)
        line.remainingFreeSpace = originalFreeSpace - distributed
    }
}
