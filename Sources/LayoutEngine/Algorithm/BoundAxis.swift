// Clamping sizes to min/max and to the padding-and-border floor (Yoga's BoundAxis.h).

extension LayoutPass {
    @inline(__always) func paddingAndBorderForAxis(_ n: Int, _ axis: FlexDirection, _ direction: Direction, _ widthSize: Float) -> Float {
        flags[n].contains(.paddingOrBorder) ? resolvedPaddingAndBorderForAxis(n, axis, direction, widthSize) : 0
    }

    // Read in place, as `resolvedMarginForAxis`.
    @inline(never) func resolvedPaddingAndBorderForAxis(_ n: Int, _ axis: FlexDirection, _ direction: Direction, _ widthSize: Float) -> Float {
        Style.paddingAndBorderForAxis(axis.isRow, direction, widthSize, padding: edges(n, \.padding),
                                      border: edges(n, \.border))
    }

    /// Clamps `value` to the node's min and max on `axis` (percentages against `axisSize`).
    @inline(__always) func boundAxisWithinMinAndMax(_ n: Int, _ direction: Direction, _ axis: FlexDirection,
                                                    _ value: Float, _ axisSize: Float, _ widthSize: Float) -> Float {
        flags[n].contains(.minOrMax) ? clampToMinAndMax(n, direction, axis, value, axisSize, widthSize) : value
    }

    @inline(never) func clampToMinAndMax(_ n: Int, _ direction: Direction, _ axis: FlexDirection,
                                         _ value: Float, _ axisSize: Float, _ widthSize: Float) -> Float {
        let s = style(n)
        let row = axis.isRow
        let minV = s.pointee.resolvedMinDimension(row, direction, axisSize, widthSize)
        let maxV = s.pointee.resolvedMaxDimension(row, direction, axisSize, widthSize)
        if maxV >= 0 && value > maxV { return maxV }
        if minV >= 0 && value < minV { return minV }
        return value
    }

    /// `boundAxisWithinMinAndMax` for a flex item in its container's main axis, also never below
    /// its automatic minimum size (§4.5; set only for items sized by `FlexItemSizing.css`): the
    /// hypothetical main size of §9.2 step 3 and the clamp of §9.7 step 4.
    @inline(__always) func boundItemWithinMinAndMax(_ c: Int, _ direction: Direction, _ mainAxis: FlexDirection,
                                                    _ value: Float, _ axisSize: Float, _ widthSize: Float) -> Float {
        maxOrDefined(boundAxisWithinMinAndMax(c, direction, mainAxis, value, axisSize, widthSize), layouts[c].automaticMinimum)
    }

    /// Like `boundAxisWithinMinAndMax`, and never below padding plus border.
    @inline(__always) func boundAxis(_ n: Int, _ axis: FlexDirection, _ direction: Direction,
                                     _ value: Float, _ axisSize: Float, _ widthSize: Float) -> Float {
        maxOrDefined(boundAxisWithinMinAndMax(n, direction, axis, value, axisSize, widthSize),
                     paddingAndBorderForAxis(n, axis, direction, widthSize))
    }

    /// Yoga's `constrainMaxSizeForMode`: an offered size may not exceed max (plus margins); an
    /// unconstrained axis with a max becomes fit-content at that max.
    @inline(__always) func constrainMaxSizeForMode(_ n: Int, _ direction: Direction, _ axis: FlexDirection,
                                                   _ ownerAxisSize: Float, _ ownerWidth: Float,
                                                   _ mode: inout SizingMode, _ size: inout Float) {
        // Without a max size nothing changes.
        if flags[n].contains(.max) { constrainToMax(n, direction, axis, ownerAxisSize, ownerWidth, &mode, &size) }
    }

    @inline(never) func constrainToMax(_ n: Int, _ direction: Direction, _ axis: FlexDirection,
                                       _ ownerAxisSize: Float, _ ownerWidth: Float,
                                       _ mode: inout SizingMode, _ size: inout Float) {
        let maxSize = styles[n].resolvedMaxDimension(axis.isRow, direction, ownerAxisSize, ownerWidth)
            + marginForAxis(n, axis, ownerWidth)
        switch mode {
        case .stretchFit, .fitContent:
            if !maxSize.isNaN && !(size < maxSize) { size = maxSize }
        case .maxContent:
            if !maxSize.isNaN {
                mode = .fitContent
                size = maxSize
            }
        }
    }
}
