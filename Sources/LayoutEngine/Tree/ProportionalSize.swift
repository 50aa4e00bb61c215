/// A leaf size computed from the size its container offers it, one linear term per axis:
/// `multiplier × offered + constant`. It is Core Layout's `.relative` closure in the forms its
/// README uses ("my parent's width minus 20", "half the parent's height"), as data a service
/// can evaluate safely. The offered size is what the flex engine hands a measure function
/// (Core Layout's `options.containerSize`): the space its container leaves the node, inside
/// the node's own padding and border.
public struct ProportionalSize: Hashable, Sendable {
    /// `multiplier × offered + constant` on one axis.
    public struct Term: Hashable, Sendable {
        public var multiplier: Float
        public var constant: Float

        public init(multiplier: Float = 1, constant: Float = 0) {
            self.multiplier = multiplier
            self.constant = constant
        }

        /// The term's value for an offer; an axis the container leaves open (no size offered
        /// yet) counts as 0, leaving the constant. Never negative.
        @inlinable func value(offered: Float, _ mode: MeasureMode) -> Float {
            let base: Float = mode == .undefined || offered.isNaN ? 0 : offered
            let result = multiplier == 0 ? constant : multiplier * base + constant
            return result > 0 ? result : 0
        }
    }

    /// Nil: 0 on that axis (the container may still stretch the node).
    public var width: Term?
    public var height: Term?
    /// Rounds the measured size up to whole points, as Core Layout rounds what its closures
    /// return.
    public var roundsUp: Bool

    public init(width: Term? = nil, height: Term? = nil, roundsUp: Bool = false) {
        self.width = width
        self.height = height
        self.roundsUp = roundsUp
    }

    /// The measured size for an offer, as the engine's measure step asks for it.
    @inlinable public func measure(_ width: Float, _ widthMode: MeasureMode,
                                   _ height: Float, _ heightMode: MeasureMode) -> Size {
        let size = Size(width: self.width?.value(offered: width, widthMode) ?? 0,
                        height: self.height?.value(offered: height, heightMode) ?? 0)
        return roundsUp ? Size(width: size.width.rounded(.up), height: size.height.rounded(.up)) : size
    }
}
