extension StackViewLayout {
    /// One item of a stack: its content and its item properties, with StackViewLayout's
    /// defaults (grow 0, shrink 0, alignSelf auto, visible, included in layout).
    public struct StackItem: Hashable, Sendable {
        /// What the item shows; its size is what the stack asks of it (`sizeThatFits`).
        public indirect enum Content: Hashable, Sendable {
            /// A view whose `sizeThatFits` answer is this size (it shrinks to an offer
            /// smaller than it, like a label).
            case size(Size)
            /// Any content the engine can measure (text, a custom measure hook, ...).
            case content(NodeContent)
            /// A nested stack: the item is that stack's container.
            case stack(StackView)
            /// A subtree already added to the same `LayoutTree` (for example a flexbox
            /// container): the item properties are applied on top of its root's style.
            case node(NodeID)
        }

        public var content: Content
        /// `isHidden`: a hidden item is not laid out and takes no space.
        public var isHidden: Bool = false
        /// `isIncludedInLayout`: an excluded item is not laid out and takes no space.
        public var isIncludedInLayout: Bool = true
        public var grow: Float = 0
        public var shrink: Float = 0
        public var alignSelf: AlignSelf = .auto
        public var width: Length?
        public var height: Length?
        public var minWidth: Length?
        public var maxWidth: Length?
        public var minHeight: Length?
        public var maxHeight: Length?
        /// Margins. Percentages of top and bottom resolve against the container's height
        /// (StackViewLayout's difference from flexbox); left/right/start/end against its width.
        public var margin: Insets = Insets()
        /// Width divided by height; nil when not set.
        public var aspectRatio: Float?

        public init(_ content: Content) {
            self.content = content
        }

        /// An item whose content answers `sizeThatFits` with `width` × `height`.
        public init(width: Float, height: Float) {
            self.content = .size(Size(width: width, height: height))
        }

        /// An item holding a nested stack.
        public init(stack: StackView) {
            self.content = .stack(stack)
        }

        public func grow(_ value: Float) -> StackItem { with { $0.grow = value } }
        public func shrink(_ value: Float) -> StackItem { with { $0.shrink = value } }
        public func alignSelf(_ value: AlignSelf) -> StackItem { with { $0.alignSelf = value } }
        public func isHidden(_ value: Bool) -> StackItem { with { $0.isHidden = value } }
        public func isIncludedInLayout(_ value: Bool) -> StackItem { with { $0.isIncludedInLayout = value } }
        public func aspectRatio(_ value: Float?) -> StackItem { with { $0.aspectRatio = value } }

        public func width(_ value: Length?) -> StackItem { with { $0.width = value } }
        public func height(_ value: Length?) -> StackItem { with { $0.height = value } }
        public func width(_ points: Float) -> StackItem { with { $0.width = .points(points) } }
        public func height(_ points: Float) -> StackItem { with { $0.height = .points(points) } }
        /// A square of `sideLength` points (`size(_ sideLength:)`).
        public func size(_ sideLength: Float) -> StackItem {
            with { $0.width = .points(sideLength); $0.height = .points(sideLength) }
        }
        public func minWidth(_ value: Length?) -> StackItem { with { $0.minWidth = value } }
        public func maxWidth(_ value: Length?) -> StackItem { with { $0.maxWidth = value } }
        public func minHeight(_ value: Length?) -> StackItem { with { $0.minHeight = value } }
        public func maxHeight(_ value: Length?) -> StackItem { with { $0.maxHeight = value } }

        public func margin(_ value: Insets) -> StackItem { with { $0.margin = value } }
        /// The same margin on every edge.
        public func margin(_ value: Length) -> StackItem { with { $0.margin = .all(value) } }
        public func marginTop(_ value: Length) -> StackItem { with { $0.margin.top = value } }
        public func marginLeft(_ value: Length) -> StackItem { with { $0.margin.left = value } }
        public func marginBottom(_ value: Length) -> StackItem { with { $0.margin.bottom = value } }
        public func marginRight(_ value: Length) -> StackItem { with { $0.margin.right = value } }
        public func marginStart(_ value: Length) -> StackItem { with { $0.margin.start = value } }
        public func marginEnd(_ value: Length) -> StackItem { with { $0.margin.end = value } }
        /// Left, right, start and end margins.
        public func marginHorizontal(_ value: Length) -> StackItem {
            with {
                $0.margin.left = value; $0.margin.right = value
                $0.margin.start = value; $0.margin.end = value
            }
        }
        /// Top and bottom margins.
        public func marginVertical(_ value: Length) -> StackItem {
            with { $0.margin.top = value; $0.margin.bottom = value }
        }
        public func marginTop(_ points: Float) -> StackItem { marginTop(.points(points)) }
        public func marginLeft(_ points: Float) -> StackItem { marginLeft(.points(points)) }
        public func marginBottom(_ points: Float) -> StackItem { marginBottom(.points(points)) }
        public func marginRight(_ points: Float) -> StackItem { marginRight(.points(points)) }

        private func with(_ change: (inout StackItem) -> Void) -> StackItem {
            var copy = self
            change(&copy)
            return copy
        }
    }
}
