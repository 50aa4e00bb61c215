import LayoutEngine

/// A frame written as the tests' comments work it out: x, y, width, height.
public func frame(_ x: Float, _ y: Float, _ w: Float, _ h: Float) -> Frame {
    Frame(left: x, top: y, width: w, height: h)
}

/// Whether two frames agree to a hundredth of a point on every edge.
public func near(_ a: Frame, _ b: Frame) -> Bool {
    abs(a.left - b.left) <= 0.01 && abs(a.top - b.top) <= 0.01 && abs(a.width - b.width) <= 0.01
        && abs(a.height - b.height) <= 0.01
}

/// The frames of a stack's items, in order.
public func itemFrames(_ frames: StackViewLayout.StackFrames) -> [Frame] {
    frames.items.map(\.frame)
}
