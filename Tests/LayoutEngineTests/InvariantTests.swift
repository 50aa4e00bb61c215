import Testing
import LayoutEngine

/// Properties every layout must have, checked on random trees from fixed seeds and on small
/// hand-computed examples.
@Suite struct InvariantTests {
    static let seeds: [UInt64] = Array(1...150)

    static func frames(_ tree: LayoutTree, _ nodes: [NodeID]) -> [Frame] { nodes.map { tree.frame(of: $0) } }

    static func available(_ seed: UInt64) -> AvailableSize {
        switch seed % 3 {
        case 0: return AvailableSize()
        case 1: return AvailableSize(width: 300, height: 200)
        default: return AvailableSize(width: 250.5, height: nil)
        }
    }

    @Test(arguments: seeds) func framesAreFinite(seed: UInt64) throws {
        var (tree, root, nodes) = try RandomTrees.make(seed: seed, size: 40)
        tree.computeLayout(root: root, available: Self.available(seed), direction: seed % 2 == 0 ? .ltr : .rtl)
        for (i, frame) in Self.frames(tree, nodes).enumerated() {
            #expect(frame.left.isFinite && frame.top.isFinite && frame.width.isFinite && frame.height.isFinite,
                    "seed \(seed) node \(i): \(frame)")
            #expect(frame.width >= 0 && frame.height >= 0, "seed \(seed) node \(i): \(frame)")
        }
    }

    /// Pixel rounding as Yoga does it: each edge is rounded in absolute coordinates, so the
    /// rounded width is round(absolute right) - round(absolute left), and the rounded left is the
    /// relative left rounded. Checked against the same tree laid out without rounding.
    @Test(arguments: seeds) func roundingSnapsEdgesInAbsoluteCoordinates(seed: UInt64) throws {
        var (rounded, root, nodes) = try RandomTrees.make(seed: seed, size: 30, text: false)
        var exact = rounded
        exact.config.pointScaleFactor = 0
        let available = Self.available(seed)
        rounded.computeLayout(root: root, available: available)
        exact.computeLayout(root: root, available: available)
        func close(_ value: Float, _ target: Double) -> Bool {
            // Yoga rounds halves up and treats values within 1e-4 of a whole number as whole.
            let candidates = [target.rounded(.down), target.rounded(.up)]
            let nearest = (target - target.rounded(.down)) < 0.5 - 1e-3 ? [candidates[0]]
                : (target - target.rounded(.down)) > 0.5 + 1e-3 ? [candidates[1]] : candidates
            return nearest.contains { abs(Double(value) - $0) < 1e-3 }
        }
        var absolute: [NodeID: (x: Double, y: Double)] = [:]
        for node in nodes {
            let e = exact.frame(of: node)
            let r = rounded.frame(of: node)
            let parentOrigin = exact.parent(of: node).flatMap { absolute[$0] } ?? (0, 0)
            let x = parentOrigin.x + Double(e.left)
            let y = parentOrigin.y + Double(e.top)
            absolute[node] = (x, y)
            // Float carries whole pixels exactly only up to 2^24; pathological trees (a shrink
            // factor sum near zero, as in Yoga) can push boxes far beyond that.
            if max(abs(x), abs(y), Double(e.width), Double(e.height)) > 100_000 { continue }
            for value in [r.left, r.top, r.width, r.height] {
                #expect(abs(value - value.rounded()) < 1e-3, "seed \(seed): not on the pixel grid: \(r)")
            }
            #expect(close(r.left, Double(e.left)) && close(r.top, Double(e.top)), "seed \(seed): \(r) vs \(e)")
            let right = (x + Double(e.width)).rounded(.toNearestOrAwayFromZero)
            let bottom = (y + Double(e.height)).rounded(.toNearestOrAwayFromZero)
            let left = x.rounded(.toNearestOrAwayFromZero)
            let top = y.rounded(.toNearestOrAwayFromZero)
            #expect(abs(Double(r.width) - (right - left)) <= 1.001 && abs(Double(r.height) - (bottom - top)) <= 1.001,
                    "seed \(seed): \(r) vs \(e)")
            #expect(abs(r.width - e.width) <= 1.001 && abs(r.height - e.height) <= 1.001, "seed \(seed): \(r) vs \(e)")
        }
    }

    /// Earlier calls with other sizes, directions or measurements must not change the result.
    @Test(arguments: seeds) func layoutIsIndependentOfHistory(seed: UInt64) throws {
        let (fresh, root, nodes) = try RandomTrees.make(seed: seed, size: 40)
        let available = Self.available(seed)
        var direct = fresh
        direct.computeLayout(root: root, available: available)
        let expected = Self.frames(direct, nodes)

        // The same call twice.
        direct.computeLayout(root: root, available: available)
        #expect(Self.frames(direct, nodes) == expected, "seed \(seed): second layout differs")

        // Another direction and size first, then the original call.
        var detour = fresh
        detour.computeLayout(root: root, available: AvailableSize(width: 123, height: 77), direction: .rtl)
        detour.computeLayout(root: root, available: available)
        #expect(Self.frames(detour, nodes) == expected, "seed \(seed): layout after a detour differs")

        // A measurement in between changes nothing.
        _ = direct.sizeThatFits(root: root, proposed: AvailableSize(width: 50, height: nil))
        #expect(Self.frames(direct, nodes) == expected, "seed \(seed): sizeThatFits disturbed frames")
    }

    /// Depths around the switch to a large-stack thread, with wrapping and baselines.
    @Test(arguments: [10, 16, 17, 64, 65, 300]) func moderatelyDeepTreesLayOut(depth: Int) throws {
        var tree = LayoutTree()
        var style = Style()
        style.flexGrow = 1
        style.alignItems = .baseline
        style.flexDirection = .row
        let root = try tree.addNode(style: style)
        var parent = root
        for level in 0..<depth {
            style.flexDirection = level % 2 == 0 ? .column : .row
            style.flexWrap = level % 3 == 0 ? .wrap : .noWrap
            let child = try tree.addNode(style: style)
            tree.appendChild(child, to: parent)
            parent = child
        }
        let leaf = try tree.addNode(style: Style(), content: .intrinsicText("deep text"))
        tree.appendChild(leaf, to: parent)
        tree.computeLayout(root: root, available: AvailableSize(width: 300, height: nil))
        #expect(tree.frame(of: root).width == 300)
        #expect(tree.frame(of: leaf).height == 10)
    }

    @Test func deepTreeDoesNotOverflowTheStack() throws {
        var tree = LayoutTree()
        var style = Style()
        style.padding.left = .points(0.5)
        style.flexDirection = .row
        let root = try tree.addNode(style: style)
        var parent = root
        for _ in 0..<10_000 {
            let child = try tree.addNode(style: style)
            tree.appendChild(child, to: parent)
            parent = child
        }
        let leaf = try tree.addNode(style: Style(), content: .fixed(Size(width: 7, height: 3)))
        tree.appendChild(leaf, to: parent)
        tree.computeLayout(root: root, available: AvailableSize(width: 20_000, height: 100))
        #expect(tree.frame(of: root).width == 20_000)
        // Each level adds half a point of padding: the leaf sits after 5,000.5 points... within
        // its parent it starts at 0.5 and rounds to the pixel grid.
        #expect(tree.frame(of: leaf).width == 7)
        #expect(tree.frame(of: leaf).height == 100 || tree.frame(of: leaf).height == 3)
        #expect(tree.frame(of: parent).left >= 0)
    }

    @Test func childPlacementHookPlacesChildrenOfCustomNodes() throws {
        var tree = LayoutTree()
        var rootStyle = Style()
        rootStyle.padding.all = .points(5)
        rootStyle.border.left = .points(2)
        let root = try tree.addNode(style: rootStyle, content: .custom(tag: 1))
        let a = try tree.addNode(style: Style())
        let b = try tree.addNode(style: Style())
        let grandchild = try tree.addNode(style: Style(), content: .fixed(Size(width: 3, height: 4)))
        tree.appendChild(a, to: root)
        tree.appendChild(b, to: root)
        tree.appendChild(grandchild, to: b)
        tree.measureFunction = { _, _, _, _, _ in Size(width: 100, height: 50) }
        var offered: Size?
        tree.childPlacementFunction = { node, inner in
            offered = inner
            return node == root ? [Frame(left: 0, top: 0, width: 40, height: 10), Frame(left: 40, top: 20, width: 20, height: 30)] : nil
        }
        tree.computeLayout(root: root)
        #expect(tree.frame(of: root) == Frame(left: 0, top: 0, width: 112, height: 60))
        #expect(offered == Size(width: 100, height: 50))
        #expect(tree.frame(of: a) == Frame(left: 7, top: 5, width: 40, height: 10))
        #expect(tree.frame(of: b) == Frame(left: 47, top: 25, width: 20, height: 30))
        // b is an ordinary flex container: its child stretches across it.
        #expect(tree.frame(of: grandchild) == Frame(left: 0, top: 0, width: 20, height: 4))

        // Children of other measured leaves (Yoga forbids them) get empty frames.
        var text = LayoutTree()
        let label = try text.addNode(style: Style(), content: .intrinsicText("hi"))
        let stray = try text.addNode(style: Style())
        text.appendChild(stray, to: label)
        text.computeLayout(root: label)
        #expect(text.frame(of: label) == Frame(left: 0, top: 0, width: 20, height: 10))
        #expect(text.frame(of: stray) == Frame.zero)
    }

    // MARK: layout modes and sizeThatFits, by hand

    static func column() throws -> (LayoutTree, NodeID, NodeID, NodeID) {
        var tree = LayoutTree()
        let root = try tree.addNode(style: Style())
        let a = try tree.addNode(style: Style(), content: .fixed(Size(width: 50, height: 30)))
        let b = try tree.addNode(style: Style(), content: .fixed(Size(width: 70, height: 20)))
        tree.appendChild(a, to: root)
        tree.appendChild(b, to: root)
        return (tree, root, a, b)
    }

    @Test func fitContainerUsesExactlyTheSize() throws {
        var (tree, root, a, b) = try Self.column()
        tree.computeLayout(root: root, size: Size(width: 200, height: 100), mode: .fitContainer)
        #expect(tree.frame(of: root) == Frame(left: 0, top: 0, width: 200, height: 100))
        #expect(tree.frame(of: a) == Frame(left: 0, top: 0, width: 200, height: 30))
        #expect(tree.frame(of: b) == Frame(left: 0, top: 30, width: 200, height: 20))
    }

    @Test func adjustHeightFollowsTheContent() throws {
        var (tree, root, _, b) = try Self.column()
        tree.computeLayout(root: root, size: Size(width: 200, height: 999), mode: .adjustHeight)
        #expect(tree.frame(of: root) == Frame(left: 0, top: 0, width: 200, height: 50))
        #expect(tree.frame(of: b) == Frame(left: 0, top: 30, width: 200, height: 20))
    }

    @Test func adjustWidthFollowsTheContent() throws {
        var (tree, root, a, b) = try Self.column()
        var row = Style()
        row.flexDirection = .row
        try tree.setStyle(row, for: root)
        tree.computeLayout(root: root, size: Size(width: 999, height: 100), mode: .adjustWidth)
        #expect(tree.frame(of: root) == Frame(left: 0, top: 0, width: 120, height: 100))
        #expect(tree.frame(of: a) == Frame(left: 0, top: 0, width: 50, height: 100))
        #expect(tree.frame(of: b) == Frame(left: 50, top: 0, width: 70, height: 100))
    }

    @Test func sizeThatFitsMeasuresWithoutLayingOut() throws {
        var (tree, root, a, _) = try Self.column()
        tree.computeLayout(root: root, size: Size(width: 200, height: 100), mode: .fitContainer)
        let before = tree.frame(of: a)
        #expect(tree.sizeThatFits(root: root, proposed: AvailableSize(width: 300, height: nil)) == Size(width: 70, height: 50))
        #expect(tree.sizeThatFits(root: root, proposed: AvailableSize(width: 60, height: nil)) == Size(width: 60, height: 50))
        #expect(tree.frame(of: a) == before)

        var text = LayoutTree()
        let label = try text.addNode(style: Style(), content: .intrinsicText("hello world"))
        // 110 points of text wrapped at 60: two lines of 10.
        #expect(text.sizeThatFits(root: label, proposed: AvailableSize(width: 60, height: nil)) == Size(width: 60, height: 20))
        #expect(text.sizeThatFits(root: label, proposed: AvailableSize()) == Size(width: 110, height: 10))
        // Words split as C++ getline does: a trailing space adds no empty word (one line).
        let trailing = try text.addNode(style: Style(), content: .intrinsicText("aaaa "))
        #expect(text.sizeThatFits(root: trailing, proposed: AvailableSize(width: 40, height: nil)) == Size(width: 40, height: 10))
    }
}
