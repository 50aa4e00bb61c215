import LayoutEngine
import Testing

/// Trees found by the libFuzzer harness in Fuzz/Sources/FuzzEngine (random valid trees), kept
/// as regression tests: every frame must be finite.
@Suite struct FuzzRegressionTests {
    private func frames(_ tree: LayoutTree) -> [Frame] {
        (0..<tree.nodeCount).map { tree.frame(of: NodeID($0)) }
    }

    private func isFinite(_ f: Frame) -> Bool {
        f.left.isFinite && f.top.isFinite && f.width.isFinite && f.height.isFinite
    }

    /// A row with a definite width and an aspect ratio; one child whose percentage min-width
    /// exceeds its max-width, then plain siblings, laid out with owner direction `.inherit`
    /// (the root's own direction is ltr). Found (fuzz input Fuzz/.work/engine/min-nan) as NaN
    /// left and width on the siblings; with owner direction `.ltr` all is finite.
    /// Fixed: the engine reads an owner direction of `.inherit` as `.ltr`.
    @Test(arguments: [(1, Direction.ltr), (37, .ltr), (1, .inherit), (37, .inherit)])
    func aspectRatioRowWithMinOverMaxChildStaysFinite(siblings: Int, direction: Direction) throws {
        var config = LayoutConfig()
        config.errata = .absolutePercentAgainstInnerSize
        var tree = LayoutTree(config: config)
        var root = Style()
        root.direction = .ltr
        root.flexDirection = .row
        root.overflow = .scroll
        root.flexGrow = 1.5
        root.flexBasis = .points(13.37)
        root.width = .points(100)
        root.aspectRatio = 0.25
        let r = try tree.addNode(style: root)
        var first = Style()
        first.margin.left = .percent(-0.0)
        first.margin.end = .auto
        first.minWidth = .percent(333.333)
        first.maxWidth = .points(13.37)
        first.maxHeight = .stretch
        let c = try tree.addNode(style: first, content: .fixed(Size(width: 0, height: 0)))
        tree.appendChild(c, to: r)
        for _ in 0..<siblings {
            let s = try tree.addNode(style: Style(), content: .fixed(Size(width: 0, height: 0)))
            tree.appendChild(s, to: r)
        }
        tree.computeLayout(root: r, direction: direction)
        let all = frames(tree)
        for (i, f) in all.enumerated() { #expect(self.isFinite(f), "node \(i): \(f)") }
    }

    /// A wrap-reverse column root with min sizes and no available size (errata .all); a child
    /// with larger min sizes and align-items space-between; a display:none grandchild. Found
    /// (fuzz input Fuzz/.work/engine/found/min2) as NaN top and height on the child. Reachable
    /// through the wire format (all of these are wire keys; errata "all").
    @Test(arguments: [StyleValue.undefined, .auto])
    func wrapReverseColumnWithMinSizesStaysFinite(rootFlexBasis: StyleValue) throws {
        var config = LayoutConfig()
        config.errata = .all
        var tree = LayoutTree(config: config)
        var root = Style()
        root.direction = .ltr
        root.justifyContent = .spaceEvenly
        root.alignSelf = .center
        root.positionType = .static
        root.flexWrap = .wrapReverse
        root.flexGrow = 0
        root.flexBasis = rootFlexBasis
        root.minWidth = .points(10)
        root.minHeight = .points(4096)
        let r = try tree.addNode(style: root)
        var child = Style()
        child.justifyContent = .spaceAround
        child.alignItems = .spaceBetween
        child.alignSelf = .flexEnd
        child.minWidth = .points(4096)
        child.minHeight = .points(100)
        let c = try tree.addNode(style: child)
        tree.appendChild(c, to: r)
        var hidden = Style()
        hidden.alignContent = .flexEnd
        hidden.alignItems = .auto
        hidden.flexWrap = .wrap
        hidden.display = .none
        tree.appendChild(try tree.addNode(style: hidden), to: c)
        tree.computeLayout(root: r, direction: .ltr)
        let all = frames(tree)
        // Fixed: justify-content space-around on a line without items no longer divides by 0.
        for (i, f) in all.enumerated() { #expect(isFinite(f), "node \(i): \(f)") }
    }

    /// A wrapping child with a 200-point border, a large min-height and flex-grow, holding an
    /// absolute wrapping grandchild. Found (Fuzz/.work/engine/found/min3) as a NaN height on
    /// the root and NaN top/height on the grandchild by an engine of 21:45; finite with the
    /// engine of 21:55. Reachable through the wire with flexBasis "auto".
    @Test(arguments: [StyleValue.undefined, .auto])
    func wrappingChildWithBorderAndMinHeightStaysFinite(childFlexBasis: StyleValue) throws {
        var tree = LayoutTree()
        let r = try tree.addNode(style: Style())
        var child = Style()
        child.direction = .rtl
        child.justifyContent = .spaceAround
        child.alignContent = .baseline
        child.alignSelf = .flexEnd
        child.flexWrap = .wrap
        child.flexGrow = 1
        child.flexBasis = childFlexBasis
        child.border.all = .points(200)
        child.minHeight = .points(4096)
        let c = try tree.addNode(style: child)
        tree.appendChild(c, to: r)
        var grandchild = Style()
        grandchild.positionType = .absolute
        grandchild.flexWrap = .wrap
        tree.appendChild(try tree.addNode(style: grandchild), to: c)
        tree.computeLayout(root: r, direction: .ltr)
        let all = frames(tree)
        for (i, f) in all.enumerated() { #expect(isFinite(f), "node \(i): \(f)") }
    }

    /// An rtl wrapping row with percentage max sizes and no available size; a first child with
    /// min sizes and auto/negative/start margins, then 32 plain leaves. Found
    /// (Fuzz/.work/engine/found/min4) as a NaN width on the root. `undefined` width/height are
    /// what the fuzzer generated; `auto` is what the wire format produces.
    @Test(arguments: [StyleValue.undefined, .auto])
    func rtlWrappingRowWithPercentMaxAndMarginsStaysFinite(size: StyleValue) throws {
        var tree = LayoutTree()
        var root = Style()
        root.direction = .rtl
        root.flexDirection = .row
        root.justifyContent = .spaceBetween
        root.flexWrap = .wrap
        root.height = size
        root.maxWidth = .percent(0)
        root.maxHeight = .percent(0)
        root.flex = 0
        root.flexGrow = 0
        let r = try tree.addNode(style: root)
        var first = Style()
        first.direction = .rtl
        first.flexDirection = .row
        first.justifyContent = .spaceEvenly
        first.positionType = .static
        first.boxSizing = .contentBox
        first.width = size
        first.minWidth = .points(50)
        first.minHeight = .points(4096)
        first.flexGrow = 0
        first.flexShrink = 0
        first.margin.left = .auto
        first.margin.right = .points(-3375.375)
        first.margin.start = .points(333.333)
        tree.appendChild(try tree.addNode(style: first, content: .fixed(Size(width: 0, height: 0))), to: r)
        for _ in 0..<32 {
            tree.appendChild(try tree.addNode(style: Style(), content: .fixed(Size(width: 0, height: 0))), to: r)
        }
        tree.computeLayout(root: r, direction: .ltr)
        let all = frames(tree)
        // Fixed: auto margins counted 0 times (owner vs node direction) no longer divide by 0.
        for (i, f) in all.enumerated() { #expect(isFinite(f), "node \(i): \(f)") }
    }

    /// A row with a definite width and no available size; a `flex: 2` item whose percentage
    /// min-width does not bound its flex basis (the root's owner width is undefined) but does
    /// bound its size (against the row's width), and a growing item with a max-width and a large
    /// negative margin. The first pass of §9.7 freezes both (one at its min, one at its max), so
    /// the second pass divides the free space by a total grow factor of 0: +inf, which the max
    /// clamps but the min does not. Found by the engine fuzzer (Fuzz/findings crash-def20ed6…
    /// and crash-bbabc74f…, both this case) as NaN frames. Yoga 3.2.1 and Yoga main give NaN on
    /// this tree too; the engine now keeps the frozen item at its min.
    @Test(arguments: [Direction.ltr, .rtl])
    func growWhenEveryGrowingItemIsFrozenStaysFinite(direction: Direction) throws {
        var tree = LayoutTree()
        var root = Style()
        root.flexDirection = .row
        root.width = .points(1030.125)
        let r = try tree.addNode(style: root)
        var atMin = Style()
        atMin.minWidth = .percent(333.333)
        atMin.flex = 2
        let a = try tree.addNode(style: atMin)
        tree.appendChild(a, to: r)
        var atMax = Style()
        atMax.maxWidth = .points(2.5)
        atMax.flexGrow = 1.5
        atMax.margin.left = .percent(-0.0)
        atMax.margin.horizontal = .points(-4096)
        let b = try tree.addNode(style: atMax)
        tree.appendChild(b, to: r)
        tree.computeLayout(root: r, direction: direction)
        let first = frames(tree)
        for (i, f) in first.enumerated() { #expect(isFinite(f), "node \(i): \(f)") }
        // Each item keeps the size it was frozen at: 333.333 % of 1030.125 = 3433.7, and 2.5
        // (pixel-rounded).
        #expect(abs(tree.frame(of: a).width - 1030.125 * 3.33333) < 1)
        #expect(tree.frame(of: b).width <= 3)
        tree.computeLayout(root: r, direction: direction)
        #expect(frames(tree) == first)
    }
}
