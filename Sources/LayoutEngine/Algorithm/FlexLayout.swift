// The flexbox algorithm for one container (Yoga's calculateLayoutImpl), following the steps
// of CSS Flexbox §9. Sizes include padding and border but not margins.
//
// When an available size is undefined (NaN) its sizing mode must be `.maxContent`.

extension LayoutPass {
    func calculateLayoutImpl(_ node: Int, _ availableWidth: Float, _ availableHeight: Float,
                             _ ownerDirection: Direction,
                             _ widthModeIn: SizingMode, _ heightModeIn: SizingMode,
                             _ ownerWidth: Float, _ ownerHeight: Float,
                             _ performLayout: Bool, _ depth: Int) {
        let ns = style(node)
        let nl = layouts + node

        // Resolve direction, margins, border and padding into the layout.
        let direction = resolveDirection(node, ownerDirection)
        nl.pointee.direction = direction
        let flexRowDirection = FlexDirection.row.resolved(direction)
        let flexColumnDirection = FlexDirection.column
        let startEdge: PhysicalEdge = direction == .ltr ? .left : .right
        let endEdge: PhysicalEdge = direction == .ltr ? .right : .left

        var marginAxisRow: Float = 0
        var marginAxisColumn: Float = 0
        let nodeFlags = flags[node]
        if nodeFlags.contains(.margin) {
            let rowReference = marginReference(node, flexRowDirection, ownerWidth)
            let marginRowLeading = ns.pointee.inlineStartMargin(flexRowDirection, direction, rowReference)
            let marginRowTrailing = ns.pointee.inlineEndMargin(flexRowDirection, direction, rowReference)
            let columnReference = marginReference(node, flexColumnDirection, ownerWidth)
            let marginColumnLeading = ns.pointee.inlineStartMargin(flexColumnDirection, direction, columnReference)
            let marginColumnTrailing = ns.pointee.inlineEndMargin(flexColumnDirection, direction, columnReference)
            nl.pointee.margin[startEdge] = marginRowLeading
            nl.pointee.margin[endEdge] = marginRowTrailing
            nl.pointee.margin.top = marginColumnLeading
            nl.pointee.margin.bottom = marginColumnTrailing
            marginAxisRow = marginRowLeading + marginRowTrailing
            marginAxisColumn = marginColumnLeading + marginColumnTrailing
        } else {
            nl.pointee.margin = EdgeValues()
        }
        if nodeFlags.contains(.paddingOrBorder) {
            nl.pointee.border[startEdge] = ns.pointee.border(flexRowDirection.inlineStartEdge(direction), direction)
            nl.pointee.border[endEdge] = ns.pointee.border(flexRowDirection.inlineEndEdge(direction), direction)
            nl.pointee.border.top = ns.pointee.border(.top, direction)
            nl.pointee.border.bottom = ns.pointee.border(.bottom, direction)
            nl.pointee.padding[startEdge] = ns.pointee.padding(flexRowDirection.inlineStartEdge(direction), direction, ownerWidth)
            nl.pointee.padding[endEdge] = ns.pointee.padding(flexRowDirection.inlineEndEdge(direction), direction, ownerWidth)
            nl.pointee.padding.top = ns.pointee.padding(.top, direction, ownerWidth)
            nl.pointee.padding.bottom = ns.pointee.padding(.bottom, direction, ownerWidth)
        } else {
            nl.pointee.border = EdgeValues()
            nl.pointee.padding = EdgeValues()
        }

        if hasMeasureFunc(node) {
            measureNodeWithMeasureFunc(node, direction, availableWidth - marginAxisRow, availableHeight - marginAxisColumn,
                                       widthModeIn, heightModeIn, ownerWidth, ownerHeight)
            cleanupContentsNodesRecursively(node)
            if performLayout && firstChildren[node].index >= 0 {
                placeChildrenOfMeasuredNode(node, direction, depth)
            }
            return
        }
        let firstChild = firstLayoutChild(node)
        if firstChild < 0 {
            measureNodeWithoutChildren(node, direction, availableWidth - marginAxisRow, availableHeight - marginAxisColumn,
                                       widthModeIn, heightModeIn, ownerWidth, ownerHeight)
            cleanupContentsNodesRecursively(node)
            return
        }
        // When only measuring, a container whose size is already known need not be visited.
        if !performLayout && measureNodeWithFixedSize(node, direction, availableWidth - marginAxisRow,
                                                      availableHeight - marginAxisColumn, widthModeIn, heightModeIn,
                                                      ownerWidth, ownerHeight) {
            cleanupContentsNodesRecursively(node)
            return
        }
        nl.pointee.hadOverflow = false
        cleanupContentsNodesRecursively(node)

        // STEP 1: values for the rest of the algorithm.
        let mainAxis = ns.pointee.flexDirection.resolved(direction)
        let crossAxis = mainAxis.crossAxis(direction)
        let isMainAxisRow = mainAxis.isRow
        let isNodeFlexWrap = ns.pointee.flexWrap != .noWrap
        let mainAxisOwnerSize = isMainAxisRow ? ownerWidth : ownerHeight
        let crossAxisOwnerSize = isMainAxisRow ? ownerHeight : ownerWidth
        let paddingAndBorderAxisMain = paddingAndBorderForAxis(node, mainAxis, direction, ownerWidth)
        let paddingAndBorderAxisCross = paddingAndBorderForAxis(node, crossAxis, direction, ownerWidth)
        let leadingPaddingAndBorderCross = nodeFlags.contains(.paddingOrBorder)
            ? ns.pointee.flexStartPaddingAndBorder(crossAxis, direction, ownerWidth) : 0
        var mainMode = isMainAxisRow ? widthModeIn : heightModeIn
        let crossMode = isMainAxisRow ? heightModeIn : widthModeIn
        let paddingAndBorderAxisRow = isMainAxisRow ? paddingAndBorderAxisMain : paddingAndBorderAxisCross
        let paddingAndBorderAxisColumn = isMainAxisRow ? paddingAndBorderAxisCross : paddingAndBorderAxisMain

        // STEP 2 (§9.2): the available main and cross space for the items.
        let availableInnerWidth = calculateAvailableInnerDimension(
            node, direction, true, availableWidth - marginAxisRow, paddingAndBorderAxisRow, ownerWidth, ownerWidth)
        let availableInnerHeight = calculateAvailableInnerDimension(
            node, direction, false, availableHeight - marginAxisColumn, paddingAndBorderAxisColumn, ownerHeight, ownerWidth)
        nl.pointee.marginHeightReference = availableInnerHeight
        var availableInnerMainDim = isMainAxisRow ? availableInnerWidth : availableInnerHeight
        let availableInnerCrossDim = isMainAxisRow ? availableInnerHeight : availableInnerWidth

        // STEP 3 (§9.2 step 3): the flex base size of each item.
        var totalMainDim = computeFlexBasisForChildren(node, availableInnerWidth, availableInnerHeight,
                                                       widthModeIn, heightModeIn, direction, mainAxis,
                                                       performLayout, depth)
        let childCount = layoutChildCount(node)
        if childCount > 1 {
            totalMainDim += ns.pointee.gapForAxis(mainAxis, availableInnerMainDim) * Float(childCount - 1)
        }
        let mainAxisOverflows = mainMode != .maxContent && totalMainDim > availableInnerMainDim
        if isNodeFlexWrap && mainAxisOverflows && mainMode == .fitContent {
            mainMode = .stretchFit
        }

        // STEP 4 (§9.3): collect items into flex lines.
        var lineCount = 0
        var totalLineCrossDim: Float = 0
        let crossAxisGap = ns.pointee.gapForAxis(crossAxis, availableInnerCrossDim)
        var maxLineMainDim: Float = 0
        var axes = ContainerAxes(mainAxis: mainAxis, crossAxis: crossAxis, direction: direction,
                                 availableInnerWidth: availableInnerWidth, availableInnerHeight: availableInnerHeight,
                                 availableInnerMainDim: availableInnerMainDim, availableInnerCrossDim: availableInnerCrossDim,
                                 isNodeFlexWrap: isNodeFlexWrap)
        var lineStart = firstChild
        while lineStart >= 0 {
            var line = calculateFlexLine(node, ownerDirection, ownerWidth, mainAxisOwnerSize, availableInnerWidth,
                                         availableInnerMainDim, lineStart, lineCount)
            lineStart = line.end
            // Without a layout, an exact cross size means the flex step can be skipped.
            let canSkipFlex = !performLayout && crossMode == .stretchFit

            // STEP 5 (§9.7): resolve flexible lengths. Without a definite main size the line's
            // content decides it, so there is no free space to distribute.
            var sizeBasedOnContent = false
            if mainMode != .stretchFit {
                let minInnerWidth = ns.pointee.resolvedMinDimension(true, direction, ownerWidth, ownerWidth) - paddingAndBorderAxisRow
                let maxInnerWidth = ns.pointee.resolvedMaxDimension(true, direction, ownerWidth, ownerWidth) - paddingAndBorderAxisRow
                let minInnerHeight = ns.pointee.resolvedMinDimension(false, direction, ownerHeight, ownerWidth) - paddingAndBorderAxisColumn
                let maxInnerHeight = ns.pointee.resolvedMaxDimension(false, direction, ownerHeight, ownerWidth) - paddingAndBorderAxisColumn
                let minInnerMainDim = isMainAxisRow ? minInnerWidth : minInnerHeight
                let maxInnerMainDim = isMainAxisRow ? maxInnerWidth : maxInnerHeight
                if !minInnerMainDim.isNaN && line.sizeConsumed < minInnerMainDim {
                    availableInnerMainDim = minInnerMainDim
                } else if !maxInnerMainDim.isNaN && line.sizeConsumed > maxInnerMainDim {
                    availableInnerMainDim = maxInnerMainDim
                } else {
                    let useLegacyStretchBehaviour = errata.contains(.stretchFlexBasis)
                    if !useLegacyStretchBehaviour
                        && ((!line.totalFlexGrowFactors.isNaN && line.totalFlexGrowFactors == 0)
                            || resolveFlexGrow(node) == 0) {
                        // Nothing can grow: the space used is all the space needed.
                        availableInnerMainDim = line.sizeConsumed
                    }
                    sizeBasedOnContent = !useLegacyStretchBehaviour
                }
            }
            if !sizeBasedOnContent && !availableInnerMainDim.isNaN {
                line.remainingFreeSpace = availableInnerMainDim - line.sizeConsumed
            } else if line.sizeConsumed < 0 {
                // Content-sized with negative consumption: the node allocates 0 for its content.
                line.remainingFreeSpace = -line.sizeConsumed
            }
            axes.availableInnerMainDim = availableInnerMainDim
            if !canSkipFlex {
                resolveFlexibleLength(node, &line, mainAxis, crossAxis, direction, ownerWidth, mainAxisOwnerSize,
                                      availableInnerMainDim, availableInnerCrossDim, availableInnerWidth,
                                      availableInnerHeight, mainAxisOverflows, crossMode, performLayout, depth)
            }
            if line.remainingFreeSpace < 0 { nl.pointee.hadOverflow = true }

            // STEP 6 (§9.5, §9.4 step 8): main-axis justification and the line's cross size.
            justifyMainAxis(node, &line, mainAxis, crossAxis, direction, mainMode, crossMode, mainAxisOwnerSize,
                            ownerWidth, availableInnerMainDim, availableInnerCrossDim, availableInnerWidth, performLayout)

            var containerCrossAxis = availableInnerCrossDim
            if crossMode == .maxContent || crossMode == .fitContent {
                // The cross size comes from the largest item.
                containerCrossAxis = boundAxis(node, crossAxis, direction, line.crossDim + paddingAndBorderAxisCross,
                                               crossAxisOwnerSize, ownerWidth) - paddingAndBorderAxisCross
            }
            // §9.4 step 15: a single-line container's line fills the container.
            if !isNodeFlexWrap && crossMode == .stretchFit {
                line.crossDim = availableInnerCrossDim
            }
            // §9.4 step 8: a single line's cross size is clamped by the container's min/max.
            if !isNodeFlexWrap {
                line.crossDim = boundAxis(node, crossAxis, direction, line.crossDim + paddingAndBorderAxisCross,
                                          crossAxisOwnerSize, ownerWidth) - paddingAndBorderAxisCross
            }

            // STEP 7 (§9.6, §9.4 step 11): cross-axis alignment within the line.
            if performLayout {
                alignItemsInLine(node, line, axes, leadingPaddingAndBorderCross, containerCrossAxis,
                                 totalLineCrossDim, depth)
            }
            let appliedCrossGap: Float = lineCount != 0 ? crossAxisGap : 0
            totalLineCrossDim += line.crossDim + appliedCrossGap
            maxLineMainDim = maxOrDefined(maxLineMainDim, line.mainDim)
            lineCount += 1
        }

        // STEP 8 (§9.6 step 15): align-content across lines, and baselines.
        if performLayout && (isNodeFlexWrap || isBaselineLayout(node)) {
            alignContent(node, axes, lineCount, crossMode, leadingPaddingAndBorderCross, paddingAndBorderAxisCross,
                         crossAxisOwnerSize, ownerWidth, totalLineCrossDim, crossAxisGap, depth)
        }

        // STEP 9 (§9.4 step 9, §9.3 step 5): the container's final size.
        nl.pointee.measuredWidth = boundAxis(node, .row, direction, availableWidth - marginAxisRow, ownerWidth, ownerWidth)
        nl.pointee.measuredHeight = boundAxis(node, .column, direction, availableHeight - marginAxisColumn, ownerHeight, ownerWidth)
        let overflow = ns.pointee.overflow
        if mainMode == .maxContent || (overflow != .scroll && mainMode == .fitContent) {
            // Size by content, clamped by min/max and never below padding and border.
            nl.pointee.setMeasured(mainAxis, boundAxis(node, mainAxis, direction, maxLineMainDim, mainAxisOwnerSize, ownerWidth))
        } else if mainMode == .fitContent && overflow == .scroll {
            nl.pointee.setMeasured(mainAxis, maxOrDefined(
                minOrDefined(availableInnerMainDim + paddingAndBorderAxisMain,
                             boundAxisWithinMinAndMax(node, direction, mainAxis, maxLineMainDim, mainAxisOwnerSize, ownerWidth)),
                paddingAndBorderAxisMain))
        }
        if crossMode == .maxContent || (overflow != .scroll && crossMode == .fitContent) {
            nl.pointee.setMeasured(crossAxis, boundAxis(node, crossAxis, direction, totalLineCrossDim + paddingAndBorderAxisCross,
                                                        crossAxisOwnerSize, ownerWidth))
        } else if crossMode == .fitContent && overflow == .scroll {
            nl.pointee.setMeasured(crossAxis, maxOrDefined(
                minOrDefined(availableInnerCrossDim + paddingAndBorderAxisCross,
                             boundAxisWithinMinAndMax(node, direction, crossAxis, totalLineCrossDim + paddingAndBorderAxisCross,
                                                      crossAxisOwnerSize, ownerWidth)),
                paddingAndBorderAxisCross))
        }

        // Lines were placed top-down: mirror them for wrap-reverse. (Yoga mirrors display: none
        // children too, which gives hidden nodes a position; they stay at 0 here.)
        if performLayout && ns.pointee.flexWrap == .wrapReverse {
            let crossStart = crossAxis.flexStartEdge
            var c = firstChild
            while c >= 0 {
                if isInFlow(c) {
                    let cl = layouts + c
                    cl.pointee.position[crossStart] = nl.pointee.measured(crossAxis) - cl.pointee.position[crossStart]
                        - cl.pointee.measured(crossAxis)
                }
                c = nextLayoutChild(c, node)
            }
        }

        if performLayout {
            // STEP 10: trailing positions for reversed axes.
            let needsMainTrailing = mainAxis.needsTrailingPosition
            let needsCrossTrailing = crossAxis.needsTrailingPosition
            if needsMainTrailing || needsCrossTrailing {
                var c = firstChild
                while c >= 0 {
                    let cs = style(c)
                    if cs.pointee.display != .none && cs.pointee.positionType != .absolute {
                        if needsMainTrailing { setChildTrailingPosition(node, c, mainAxis) }
                        if needsCrossTrailing { setChildTrailingPosition(node, c, crossAxis) }
                    }
                    c = nextLayoutChild(c, node)
                }
            }
            // STEP 11: a containing block lays out its absolute descendants.
            if ns.pointee.positionType != .static || depth == 1 {
                layoutAbsoluteDescendants(node, node, isMainAxisRow ? mainMode : crossMode, direction, depth,
                                          0, 0, availableInnerWidth, availableInnerHeight)
            }
        }
    }

    /// §9.2 step 2: the space inside padding and border, clamped by min/max.
    @inline(__always) func calculateAvailableInnerDimension(_ node: Int, _ direction: Direction, _ row: Bool,
                                                           _ availableDim: Float, _ paddingAndBorder: Float,
                                                           _ ownerDim: Float, _ ownerWidth: Float) -> Float {
        var availableInnerDim = availableDim - paddingAndBorder
        if !availableInnerDim.isNaN {
            let s = style(node)
            let minDim = s.pointee.resolvedMinDimension(row, direction, ownerDim, ownerWidth)
            let minInnerDim: Float = minDim.isNaN ? 0 : minDim - paddingAndBorder
            let maxDim = s.pointee.resolvedMaxDimension(row, direction, ownerDim, ownerWidth)
            let maxInnerDim: Float = maxDim.isNaN ? .greatestFiniteMagnitude : maxDim - paddingAndBorder
            availableInnerDim = maxOrDefined(minOrDefined(availableInnerDim, maxInnerDim), minInnerDim)
        }
        return availableInnerDim
    }
}
