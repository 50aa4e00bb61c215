// Positions that depend on the container's final size: lines of a wrap-reverse container
// mirrored across the cross axis, and the far-edge positions of items on reversed axes
// (Yoga's wrap-reverse pass and STEP 10).

extension LayoutPass {
    /// `flex-wrap: wrap-reverse`: the lines were placed from the cross-start edge; mirror them
    /// inside the container's final cross size. (Yoga mirrors `display: none` children too,
    /// which gives hidden nodes a position; they stay at 0 here.)
    @inline(always) func reverseWrappedLines(_ flex: FlexContainer) {
        let node = flex.node
        let crossAxis = flex.crossAxis
        let crossStart = crossAxis.flexStartEdge
        let containerCrossSize = layouts[node].measured(crossAxis)
        var c = flex.firstChild
        while c >= 0 {
            if isInFlow(c) {
                let cl = layouts + c
                cl.pointee.position[crossStart] = containerCrossSize - cl.pointee.position[crossStart]
                    - cl.pointee.measured(crossAxis)
            }
            c = nextLayoutChild(c, node)
        }
    }

    /// Gives the in-flow items of a reversed main or cross axis their positions from the far
    /// edge, now that the container's size is known.
    @inline(always) func setTrailingPositions(_ flex: FlexContainer) {
        let node = flex.node
        let needsMainTrailing = flex.mainAxis.needsTrailingPosition
        let needsCrossTrailing = flex.crossAxis.needsTrailingPosition
        guard needsMainTrailing || needsCrossTrailing else { return }
        var c = flex.firstChild
        while c >= 0 {
            if isInFlow(c) {
                if needsMainTrailing { setChildTrailingPosition(node, c, flex.mainAxis) }
                if needsCrossTrailing { setChildTrailingPosition(node, c, flex.crossAxis) }
            }
            c = nextLayoutChild(c, node)
        }
    }

    /// Yoga's `getPositionOfOppositeEdge`.
    @inline(__always) func positionOfOppositeEdge(_ position: Float, _ axis: FlexDirection, _ container: Int, _ child: Int) -> Float {
        layouts[container].measured(axis) - layouts[child].measured(axis) - position
    }

    /// Yoga's `setChildTrailingPosition`: mirror the flex-start position onto the far edge.
    @inline(__always) func setChildTrailingPosition(_ node: Int, _ child: Int, _ axis: FlexDirection) {
        let start = layouts[child].position[axis.flexStartEdge]
        layouts[child].position[axis.flexEndEdge] = positionOfOppositeEdge(start, axis, node, child)
    }
}
