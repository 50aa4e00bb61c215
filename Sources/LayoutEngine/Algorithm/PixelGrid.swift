// Snapping frames to the pixel grid (Yoga's PixelGrid.cpp). Edges are rounded in absolute
// coordinates, so adjacent boxes stay adjacent; the rounded frame is stored apart from the
// unrounded layout, so rounding never feeds back into later layouts.

@inline(__always) func roundValueToPixelGrid(_ value: Double, _ pointScaleFactor: Double,
                                            _ forceCeil: Bool, _ forceFloor: Bool) -> Float {
    var scaled = value * pointScaleFactor
    // fractional part such that floor(scaled) == scaled - fractional, also for negatives.
    var fractional = scaled - scaled.rounded(.towardZero)  // fmod(scaled, 1), exactly
    if fractional < 0 { fractional += 1 }
    if inexactEquals(fractional, 0) {
        scaled = scaled - fractional
    } else if inexactEquals(fractional, 1.0) {
        scaled = scaled - fractional + 1.0
    } else if forceCeil {
        scaled = scaled - fractional + 1.0
    } else if forceFloor {
        scaled = scaled - fractional
    } else {
        scaled = scaled - fractional + (!fractional.isNaN && (fractional > 0.5 || inexactEquals(fractional, 0.5)) ? 1.0 : 0.0)
    }
    if scaled.isNaN || pointScaleFactor.isNaN { return .nan }
    return Float(scaled / pointScaleFactor)
}

extension LayoutPass {
    /// Writes every node's rounded frame below and including `n`.
    func roundLayoutResultsToPixelGrid(_ n: Int, _ absoluteLeft: Double, _ absoluteTop: Double) {
        let l = layouts + n
        let nodeLeft = Double(l.pointee.position.left)
        let nodeTop = Double(l.pointee.position.top)
        let nodeWidth = Double(l.pointee.width)
        let nodeHeight = Double(l.pointee.height)
        let absoluteNodeLeft = absoluteLeft + nodeLeft
        let absoluteNodeTop = absoluteTop + nodeTop
        let absoluteNodeRight = absoluteNodeLeft + nodeWidth
        let absoluteNodeBottom = absoluteNodeTop + nodeHeight

        if pointScaleFactor != 0 {
            let scale = Double(pointScaleFactor)
            // Never round a measured leaf's size down: its text could get truncated.
            let textRounding = hasMeasureFunc(n)
            let left = roundValueToPixelGrid(nodeLeft, scale, false, textRounding)
            let top = roundValueToPixelGrid(nodeTop, scale, false, textRounding)
            let scaledWidth = nodeWidth * scale
            let scaledHeight = nodeHeight * scale
            let fracW = scaledWidth - scaledWidth.rounded(.towardZero)
            let fracH = scaledHeight - scaledHeight.rounded(.towardZero)
            let hasFractionalWidth = !inexactEquals(fracW, 0) && !inexactEquals(fracW, 1.0)
            let hasFractionalHeight = !inexactEquals(fracH, 0) && !inexactEquals(fracH, 1.0)
            let width = roundValueToPixelGrid(absoluteNodeRight, scale, textRounding && hasFractionalWidth,
                                              textRounding && !hasFractionalWidth)
                - roundValueToPixelGrid(absoluteNodeLeft, scale, false, textRounding)
            let height = roundValueToPixelGrid(absoluteNodeBottom, scale, textRounding && hasFractionalHeight,
                                               textRounding && !hasFractionalHeight)
                - roundValueToPixelGrid(absoluteNodeTop, scale, false, textRounding)
            l.pointee.frame = Frame(left: left, top: top, width: width, height: height)
        } else {
            l.pointee.frame = Frame(left: l.pointee.position.left, top: l.pointee.position.top,
                                    width: l.pointee.width, height: l.pointee.height)
        }

        var c = Int(firstChildren[n].index)
        while c >= 0 {
            roundLayoutResultsToPixelGrid(c, absoluteNodeLeft, absoluteNodeTop)
            c = Int(nextSiblings[c].index)
        }
    }
}
