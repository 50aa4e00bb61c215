extension StackViewLayout {
    /// A stack container: its direction, distribution, alignment, padding and items, with
    /// StackViewLayout's defaults. Build it with the initializer or the chainable methods
    /// (`StackView().direction(.row).justifyContent(.spaceBetween).addItem(...)`).
    public struct StackView: Hashable, Sendable {
        public var direction: Direction
        public var justifyContent: JustifyContent
        public var alignItems: AlignItems
        /// Space inside the stack's edges.
        public var padding: Insets
        /// The items, in layout order. Hidden or excluded items take no space.
        public var items: [StackItem]

        public init(direction: Direction = .column, justifyContent: JustifyContent = .start,
                    alignItems: AlignItems = .stretch, padding: Insets = Insets(), items: [StackItem] = []) {
            self.direction = direction
            self.justifyContent = justifyContent
            self.alignItems = alignItems
            self.padding = padding
            self.items = items
        }

        public func direction(_ value: Direction) -> StackView { with { $0.direction = value } }
        public func justifyContent(_ value: JustifyContent) -> StackView { with { $0.justifyContent = value } }
        public func alignItems(_ value: AlignItems) -> StackView { with { $0.alignItems = value } }
        public func padding(_ value: Insets) -> StackView { with { $0.padding = value } }
        /// Padding of `value` points on every edge.
        public func padding(_ value: Float) -> StackView { with { $0.padding = .all(.points(value)) } }
        /// Appends an item (`addItem`).
        public func addItem(_ item: StackItem) -> StackView { with { $0.items.append(item) } }
        /// Inserts an item at `index` (`insertItem(_:at:)`); an index past the end appends.
        public func insertItem(_ item: StackItem, at index: Int) -> StackView {
            with { $0.items.insert(item, at: min(max(index, 0), $0.items.count)) }
        }

        private func with(_ change: (inout StackView) -> Void) -> StackView {
            var copy = self
            change(&copy)
            return copy
        }
    }
}
