extension CoreLayout {
    /// How a layout is sized: a mode plus optional minimum and maximum sizes.
    public struct SizeBehavior: Hashable, Sendable {
        public enum Mode: Hashable, Sendable {
            /// The default: shrinks if needed, never grows (Yoga `flex: -1`).
            case flexibleShrinksButDoesntGrow
            /// Grows to fill the primary axis in proportion to `units` (Yoga `flex: units`).
            case flexible(units: UInt32)
            /// Fixed width and/or height in points (Yoga `flex: 0` plus the sizes).
            case absolute(width: Float?, height: Float?)
            /// Sized by measured content, as Core Layout's `.relative` closure: `.fixed` for a
            /// size measured by the caller, `.intrinsicText`, `.proportional` for a linear
            /// function of the container's size ("the parent's width minus 20"), or
            /// `.custom(tag:)` answered by the `measure` closure given to `compute`. Measured
            /// sizes are rounded up.
            case relative(NodeContent)
        }

        public var mode: Mode
        public var minimum: WidthAndOrHeight?
        public var maximum: WidthAndOrHeight?

        public init(mode: Mode = .flexibleShrinksButDoesntGrow, minimum: WidthAndOrHeight? = nil,
                    maximum: WidthAndOrHeight? = nil) {
            self.mode = mode
            self.minimum = minimum
            self.maximum = maximum
        }

        public init(mode: Mode = .flexibleShrinksButDoesntGrow, minWidth: Float? = nil, maxWidth: Float? = nil,
                    minHeight: Float? = nil, maxHeight: Float? = nil) {
            self.init(mode: mode, minimum: WidthAndOrHeight(width: minWidth, height: minHeight),
                      maximum: WidthAndOrHeight(width: maxWidth, height: maxHeight))
        }

        public static let flexibleShrinksButDoesntGrow = SizeBehavior()

        public static func flexible(units: UInt32 = 1, minWidth: Float? = nil, maxWidth: Float? = nil,
                                    minHeight: Float? = nil, maxHeight: Float? = nil) -> SizeBehavior {
            SizeBehavior(mode: .flexible(units: units), minWidth: minWidth, maxWidth: maxWidth,
                         minHeight: minHeight, maxHeight: maxHeight)
        }

        public static func absolute(width: Float? = nil, height: Float? = nil) -> SizeBehavior {
            SizeBehavior(mode: .absolute(width: width, height: height))
        }

        public static func relative(_ content: NodeContent) -> SizeBehavior {
            SizeBehavior(mode: .relative(content))
        }

        /// A relative size as a linear function of the container's size (Core Layout's
        /// `options.containerSize`) on each axis: `multiplier × container + constant`.
        public static func relative(width: ProportionalSize.Term?, height: ProportionalSize.Term?) -> SizeBehavior {
            SizeBehavior(mode: .relative(.proportional(ProportionalSize(width: width, height: height))))
        }

        /// Writes the size properties into `style`; returns the content the node measures.
        func apply(to style: inout Style) -> NodeContent {
            var content = NodeContent.none
            switch mode {
            case .flexibleShrinksButDoesntGrow:
                style.flex = -1
            case .flexible(let units):
                style.flex = Float(units)
            case .absolute(let width, let height):
                style.flex = 0
                if let width { style.width = .points(width) }
                if let height { style.height = .points(height) }
            case .relative(let measured):
                style.flex = 0
                content = measured.roundedUp
            }
            if let width = minimum?.width { style.minWidth = .points(width) }
            if let height = minimum?.height { style.minHeight = .points(height) }
            if let width = maximum?.width { style.maxWidth = .points(width) }
            if let height = maximum?.height { style.maxHeight = .points(height) }
            return content
        }
    }
}

extension NodeContent {
    /// Core Layout rounds measured sizes up to whole points.
    fileprivate var roundedUp: NodeContent {
        switch self {
        case .fixed(let size):
            return .fixed(Size(width: size.width.rounded(.up), height: size.height.rounded(.up)))
        case .proportional(var size):
            size.roundsUp = true
            return .proportional(size)
        default:
            return self
        }
    }
}
