extension StackViewLayout {
    /// The computed frames of a stack: its own frame and one entry per item, in item order
    /// (hidden and excluded items included, with the frame the engine gives them).
    public struct StackFrames: Hashable, Sendable {
        /// Relative to the stack's parent (the origin for a root stack).
        public var frame: Frame
        /// One entry per item; a nested stack's entry holds its own items.
        public var items: [StackFrames]

        public init(frame: Frame, items: [StackFrames] = []) {
            self.frame = frame
            self.items = items
        }
    }
}

extension StackViewLayout.StackView {
    /// Lays the stack out as a root in a fresh tree. A nil dimension makes the stack fit its
    /// items on that axis (`sizeThatFits`); a given one is the stack's size.
    public func layout(width: Float?, height: Float?, direction: Direction = .ltr,
                       config: LayoutConfig = LayoutConfig()) throws(StyleError) -> StackViewLayout.StackFrames {
        var tree = LayoutTree(config: config)
        let root = try append(to: &tree)
        tree.computeLayout(root: root, available: AvailableSize(width: width, height: height), direction: direction)
        return Self.frames(of: root, in: tree)
    }

    /// Reads the frames of the subtree at `node` back after a layout.
    public static func frames(of node: NodeID, in tree: LayoutTree) -> StackViewLayout.StackFrames {
        StackViewLayout.StackFrames(frame: tree.frame(of: node),
                                    items: tree.children(of: node).map { frames(of: $0, in: tree) })
    }
}
