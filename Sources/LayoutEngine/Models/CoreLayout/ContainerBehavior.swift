extension CoreLayout {
    /// How a layout arranges its children. A layout without one keeps the engine's defaults.
    public struct ContainerBehavior: Hashable, Sendable {
        public var primaryAxis: Axis
        public var primaryAxisDistribution: PrimaryAxisDistribution
        public var secondaryAxisDistribution: SecondaryAxisDistribution
        /// Only matters when `shouldWrap` is true and the children span several lines.
        public var secondaryAxisDistributionWhenWrapping: SecondaryAxisDistributionWhenWrapping
        public var shouldWrap: Bool
        public var overflow: Overflow

        public init(primaryAxis: Axis = .vertical,
                    primaryAxisDistribution: PrimaryAxisDistribution = .leading,
                    secondaryAxisDistribution: SecondaryAxisDistribution = .stretch,
                    secondaryAxisDistributionWhenWrapping: SecondaryAxisDistributionWhenWrapping = .stretch,
                    shouldWrap: Bool = false,
                    overflow: Overflow = .visible) {
            self.primaryAxis = primaryAxis
            self.primaryAxisDistribution = primaryAxisDistribution
            self.secondaryAxisDistribution = secondaryAxisDistribution
            self.secondaryAxisDistributionWhenWrapping = secondaryAxisDistributionWhenWrapping
            self.shouldWrap = shouldWrap
            self.overflow = overflow
        }

        /// Writes the container properties into `style`.
        func apply(to style: inout Style) {
            style.flexDirection = primaryAxis == .horizontal ? .row : .column
            style.justifyContent = primaryAxisDistribution.justify
            style.alignItems = secondaryAxisDistribution.align
            style.alignContent = secondaryAxisDistributionWhenWrapping.align
            style.flexWrap = shouldWrap ? .wrap : .noWrap
            style.overflow = overflow
        }
    }
}
