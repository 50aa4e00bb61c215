extension CoreLayout {
    /// One box of a Core Layout tree: how it sizes itself, how it arranges its children (when
    /// it has a `container`), its edges, and its children.
    public struct Layout: Hashable, Sendable {
        /// Carried through to the computed tree, for the caller to find boxes by.
        public var identifier: String?
        /// How children are arranged; nil keeps the engine's defaults (a vertical stack).
        public var container: ContainerBehavior?
        /// This child's own secondary-axis placement, overriding its container's.
        public var overriddenSecondaryAxisDistribution: SecondaryAxisDistribution?
        public var overriddenPosition: OverriddenPosition?
        public var size: SizeBehavior
        public var margin: Edges?
        public var padding: Edges?
        public var border: Edges?
        /// False removes the layout (and its subtree) from layout, as `display: none`.
        public var isIncludedInLayout: Bool
        public var children: [Layout]

        public init(identifier: String? = nil,
                    container: ContainerBehavior? = nil,
                    overriddenSecondaryAxisDistribution: SecondaryAxisDistribution? = nil,
                    overriddenPosition: OverriddenPosition? = nil,
                    size: SizeBehavior = SizeBehavior(),
                    margin: Edges? = nil,
                    padding: Edges? = nil,
                    border: Edges? = nil,
                    isIncludedInLayout: Bool = true,
                    children: [Layout] = []) {
            self.identifier = identifier
            self.container = container
            self.overriddenSecondaryAxisDistribution = overriddenSecondaryAxisDistribution
            self.overriddenPosition = overriddenPosition
            self.size = size
            self.margin = margin
            self.padding = padding
            self.border = border
            self.isIncludedInLayout = isIncludedInLayout
            self.children = children
        }
    }
}
