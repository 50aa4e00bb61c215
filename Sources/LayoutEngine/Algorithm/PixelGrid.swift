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
    /// Writes every node's rounded frame below and including `n`; with `roundings`, a node
    /// whose inputs are those of its last rounding takes that rounding's frame (the frame it
    /// holds already), and the others are listed in `PassRecords.roundedAnew`.
    func roundLayoutResultsToPixelGrid(_ n: Int, _ absoluteLeft: Double, _ absoluteTop: Double) {
        let l = layouts + n
        let nodeLeft = Double(l.pointee.position.left)
        let nodeTop = Double(l.pointee.position.top)
        let nodeWidth = Double(l.pointee.width)
        let nodeHeight = Double(l.pointee.height)
        let absoluteNodeLeft = absoluteLeft + nodeLeft
        let absoluteNodeTop = absoluteTop + nodeTop

        // Whether this node's rounding inputs are those of its last rounding.
        var reused = false
        if pointScaleFactor != 0 {
            // Never round a measured leaf's size down: its text could get truncated.
            let textRounding = hasMeasureFunc(n)
            if let roundings {
                // A relayout moves few nodes: the others keep their frame without the arithmetic.
                let inputs = PixelGridRounding.Inputs(nodeLeft: l.pointee.position.left, nodeTop: l.pointee.position.top,
                                                      width: l.pointee.width, height: l.pointee.height,
                                                      absoluteLeft: absoluteNodeLeft, absoluteTop: absoluteNodeTop,
                                                      scale: pointScaleFactor, textRounding: textRounding)
                let memo = roundings + n
                if memo.pointee.inputs == inputs {
                    l.pointee.frame = memo.pointee.frame
                    reused = true
                } else {
                    l.pointee.frame = roundedFrame(nodeLeft, nodeTop, nodeWidth, nodeHeight, absoluteNodeLeft,
                                                   absoluteNodeTop, textRounding)
                    memo.pointee = PixelGridRounding(inputs: inputs, frame: l.pointee.frame)
                    if recordsRoundedAnew { noteRoundedAnew(n) }
                }
            } else {
                l.pointee.frame = roundedFrame(nodeLeft, nodeTop, nodeWidth, nodeHeight, absoluteNodeLeft,
                                               absoluteNodeTop, textRounding)
            }
        } else {
            l.pointee.frame = Frame(left: l.pointee.position.left, top: l.pointee.position.top,
                                    width: l.pointee.width, height: l.pointee.height)
            if recordsRoundedAnew { noteRoundedAnew(n) }
        }

        // Yoga rounds every node after every layout. A child this call never reached (its
        // parent's layout came from the cache) kept its box, and so did its subtree
        // (`skipsUntouchedRoundings` rules out every other writer); under a node at the same
        // absolute position, every frame below it is what its last rounding gave, and is
        // still there: the same frames without the walk.
        let skipsUntouched = reused && skipsUntouchedRoundings
        var c = Int(firstChildren[n].index)
        while c >= 0 {
            if !(skipsUntouched && layouts[c].generationCount != generation) {
                roundLayoutResultsToPixelGrid(c, absoluteNodeLeft, absoluteNodeTop)
            }
            c = Int(nextSiblings[c].index)
        }
    }

    /// Yoga's rounding of one node: its edges in absolute coordinates, its size from them.
    @inline(__always)
    func roundedFrame(_ nodeLeft: Double, _ nodeTop: Double, _ nodeWidth: Double, _ nodeHeight: Double,
                      _ absoluteNodeLeft: Double, _ absoluteNodeTop: Double, _ textRounding: Bool) -> Frame {
        Self.roundedFrame(nodeLeft, nodeTop, nodeWidth, nodeHeight, absoluteNodeLeft, absoluteNodeTop, textRounding,
                          scale: Double(pointScaleFactor))
    }

    /// `roundedFrame` at point scale factor `scale` (for frames rounded outside a pass: the
    /// descendants of instances, see LayoutTree+Instances.swift).
    @inline(__always)
    static func roundedFrame(_ nodeLeft: Double, _ nodeTop: Double, _ nodeWidth: Double, _ nodeHeight: Double,
                             _ absoluteNodeLeft: Double, _ absoluteNodeTop: Double, _ textRounding: Bool,
                             scale: Double) -> Frame {
        let absoluteNodeRight = absoluteNodeLeft + nodeWidth
        let absoluteNodeBottom = absoluteNodeTop + nodeHeight
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
        return Frame(left: left, top: top, width: width, height: height)
    }
}

/// One node's rounded frame with everything it was computed from (see
/// `LayoutTree.memoizesPixelRounding`): rounding is a pure function of these inputs, so equal
/// inputs (bit for bit) give the stored frame exactly.
@usableFromInline struct PixelGridRounding: Sendable {
    @usableFromInline struct Inputs: Equatable, Sendable {
        var position: UInt64
        var size: UInt64
        var absoluteLeft: UInt64
        var absoluteTop: UInt64
        var scaleAndFlag: UInt64

        @inline(__always)
        init(nodeLeft: Float, nodeTop: Float, width: Float, height: Float, absoluteLeft: Double, absoluteTop: Double,
             scale: Float, textRounding: Bool) {
            position = UInt64(nodeLeft.bitPattern) << 32 | UInt64(nodeTop.bitPattern)
            size = UInt64(width.bitPattern) << 32 | UInt64(height.bitPattern)
            self.absoluteLeft = absoluteLeft.bitPattern
            self.absoluteTop = absoluteTop.bitPattern
            scaleAndFlag = UInt64(scale.bitPattern) << 1 | (textRounding ? 1 : 0)
        }

        private init(none: Void) {
            (position, size, absoluteLeft, absoluteTop) = (0, 0, 0, 0)
            scaleAndFlag = .max
        }

        /// Inputs no rounding has (`scaleAndFlag` is at most 33 bits).
        static let none = Inputs(none: ())
    }

    var inputs: Inputs
    var frame: Frame

    static let none = PixelGridRounding(inputs: .none, frame: .zero)
}
