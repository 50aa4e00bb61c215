// §9.7 resolving flexible lengths (§9.3 step 6), as Yoga approximates it in two passes
// (Yoga's resolveFlexibleLength and distributeFreeSpace*). Yoga does not loop until no item
// violates its min/max as the spec does: the first pass freezes the items whose clamp
// triggers, the second sizes every item once.

extension LayoutPass {
    /// §9.7 steps 1–4 (first pass): freeze items whose min/max clamp triggers and take their
    /// size out of the free space.
    func distributeFreeSpaceFirstPass(_ flex: FlexContainer, _ line: inout FlexLine) {
        let (direction, mainAxis) = (flex.direction, flex.mainAxis)
        let (ownerWidth, mainAxisOwnerSize) = (flex.ownerWidth, flex.mainAxisOwnerSize)
        let node = flex.node
        var deltaFreeSpace: Float = 0
        var c = nextItem(line, after: -1, node)
        while c >= 0 {
            defer { c = nextItem(line, after: c, node) }
            let childFlexBasis = boundItemWithinMinAndMax(c, direction, mainAxis, layouts[c].computedFlexBasis,
                                                          mainAxisOwnerSize, ownerWidth)
            if line.remainingFreeSpace < 0 {
                let flexShrinkScaledFactor = -resolveFlexShrink(c) * childFlexBasis
                if !flexShrinkScaledFactor.isNaN && flexShrinkScaledFactor != 0 {
                    let baseMainSize = childFlexBasis
                        + line.remainingFreeSpace / line.totalFlexShrinkScaledFactors * flexShrinkScaledFactor
                    let boundMainSize = boundItemMainSize(flex, line, c, baseMainSize)
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
                    let boundMainSize = boundItemMainSize(flex, line, c, baseMainSize)
                    if !baseMainSize.isNaN && !boundMainSize.isNaN && baseMainSize != boundMainSize {
                        deltaFreeSpace += boundMainSize - childFlexBasis
                        line.totalFlexGrowFactors -= flexGrowFactor
                    }
                }
            }
        }
        line.remainingFreeSpace -= deltaFreeSpace
    }

    /// §9.7 step 5 (second pass): size every item and lay it out with its final main size
    /// (Yoga's share of the free space, or on a line that `resolvesLikeCSS`, its target).
    /// Returns the space actually distributed.
    func distributeFreeSpaceSecondPass(_ flex: FlexContainer, _ line: inout FlexLine) -> Float {
        let (direction, mainAxis, crossAxis) = (flex.direction, flex.mainAxis, flex.crossAxis)
        let (ownerWidth, mainAxisOwnerSize) = (flex.ownerWidth, flex.mainAxisOwnerSize)
        let (availableInnerWidth, availableInnerHeight) = (flex.availableInnerWidth, flex.availableInnerHeight)
        let availableInnerCrossDim = flex.availableInnerCrossDim
        var deltaFreeSpace: Float = 0
        let node = flex.node
        let isMainAxisRow = mainAxis.isRow
        let crossIsRow = crossAxis.isRow

        var c = nextItem(line, after: -1, node)
        while c >= 0 {
            defer { c = nextItem(line, after: c, node) }
            let cs = style(c)
            let childFlexBasis = boundItemWithinMinAndMax(c, direction, mainAxis, layouts[c].computedFlexBasis,
                                                          mainAxisOwnerSize, ownerWidth)
            var updatedMainSize = childFlexBasis

            if line.resolvesLikeCSS {
                // §9.7 step 5: the target `resolveFlexibleLengthsLikeCSS` froze it at.
                updatedMainSize = layouts[c].flexTarget
            } else if !line.remainingFreeSpace.isNaN && line.remainingFreeSpace < 0 {
                let flexShrinkScaledFactor = -resolveFlexShrink(c) * childFlexBasis
                if flexShrinkScaledFactor != 0 {
                    let childSize: Float
                    if !line.totalFlexShrinkScaledFactors.isNaN && line.totalFlexShrinkScaledFactors == 0 {
                        childSize = childFlexBasis + flexShrinkScaledFactor
                    } else {
                        childSize = childFlexBasis
                            + (line.remainingFreeSpace / line.totalFlexShrinkScaledFactors) * flexShrinkScaledFactor
                    }
                    updatedMainSize = boundItemMainSize(flex, line, c, childSize)
                }
            } else if !line.remainingFreeSpace.isNaN && line.remainingFreeSpace > 0 {
                let flexGrowFactor = resolveFlexGrow(c)
                if !flexGrowFactor.isNaN && flexGrowFactor != 0 {
                    updatedMainSize = boundItemMainSize(
                        flex, line, c, childFlexBasis + line.remainingFreeSpace / line.totalFlexGrowFactors * flexGrowFactor)
                    // When the first pass froze every growing item, the total factor is 0 and the
                    // share above is +inf: an item frozen at its max clamps back to it, but one
                    // frozen at its min (no max) stays infinite, and Yoga (3.2.1 and main, which
                    // divide the same way in distributeFreeSpaceSecondPass) gives NaN frames. Such
                    // an item keeps its first-pass size, the min: §9.7 step 4, a frozen item keeps
                    // its clamped size.
                    if updatedMainSize.isInfinite { updatedMainSize = boundItemMainSize(flex, line, c, childFlexBasis) }
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
            } else if !availableInnerCrossDim.isNaN && !crossDefinite && flex.crossMode == .stretchFit
                        && !(flex.isWrap && flex.mainAxisOverflows) && stretches {
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
                    && flex.crossMode != .stretchFit
                childCrossMode = childCrossSize.isNaN || isLoosePercentageMeasurement ? .maxContent : .stretchFit
            }

            constrainMaxSizeForMode(c, direction, mainAxis, line.availableInnerMainDim, availableInnerWidth,
                                    &childMainMode, &childMainSize)
            constrainMaxSizeForMode(c, direction, crossAxis, availableInnerCrossDim, availableInnerWidth,
                                    &childCrossMode, &childCrossSize)

            let requiresStretchLayout = !crossDefinite && stretches
            let childWidth = isMainAxisRow ? childMainSize : childCrossSize
            let childHeight = !isMainAxisRow ? childMainSize : childCrossSize
            let childWidthMode = isMainAxisRow ? childMainMode : childCrossMode
            let childHeightMode = !isMainAxisRow ? childMainMode : childCrossMode
            let isLayoutPass = flex.performLayout && !requiresStretchLayout
            // Lay the item out with its resolved main size.
            calculateLayoutInternal(c, childWidth, childHeight, layouts[node].direction, childWidthMode, childHeightMode,
                                    availableInnerWidth, availableInnerHeight, isLayoutPass, flex.depth)
            if layouts[c].hadOverflow { layouts[node].hadOverflow = true }
        }
        return deltaFreeSpace
    }

    /// An item's main size clamped by its min/max (percentages against the line's main space)
    /// and its automatic minimum size (§4.5, §9.7 step 4: an item is frozen at its min).
    @inline(__always) private func boundItemMainSize(_ flex: FlexContainer, _ line: FlexLine, _ item: Int,
                                                     _ size: Float) -> Float {
        maxOrDefined(boundAxis(item, flex.mainAxis, flex.direction, size, line.availableInnerMainDim, flex.availableInnerWidth),
                     layouts[item].automaticMinimum)
    }

    /// §9.3 step 6 (§9.7) and §9.4 step 7 for one line: Yoga's two-pass approximation of
    /// resolving flexible lengths, which lays each item out at its resolved main size (its
    /// hypothetical cross size). Skipped when only measuring under an imposed cross size.
    /// Leaves in `line.remainingFreeSpace` what the items did not take.
    @inline(always) func resolveFlexibleLengths(_ flex: FlexContainer, _ line: inout FlexLine) {
        if !flex.canSkipFlex {
            let originalFreeSpace = line.remainingFreeSpace
            if line.resolvesLikeCSS {
                resolveFlexibleLengthsLikeCSS(flex, line)
            } else {
                distributeFreeSpaceFirstPass(flex, &line)
            }
            let distributed = distributeFreeSpaceSecondPass(flex, &line)
            line.remainingFreeSpace = originalFreeSpace - distributed
        } else if line.resolvesLikeCSS {
            // Only measuring: no item is laid out, but the line's main size (justifyMainAxis)
            // is its items' §9.7 targets, not their bases (a text item's is max-content).
            resolveFlexibleLengthsLikeCSS(flex, line)
            var c = nextItem(line, after: -1, flex.node)
            while c >= 0 {
                line.remainingFreeSpace -= layouts[c].flexTarget - boundItemWithinMinAndMax(
                    c, flex.direction, flex.mainAxis, layouts[c].computedFlexBasis, flex.mainAxisOwnerSize, flex.ownerWidth)
                c = nextItem(line, after: c, flex.node)
            }
        }
        if line.remainingFreeSpace < 0 { layouts[flex.node].hadOverflow = true }
    }
}
