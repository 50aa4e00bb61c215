import Testing
@testable import LayoutEngine

// `.constraints` content in the flexbox engine, through the Swift API: sizing as a flex item,
// children placed at the solved frames, relayout, and the structural hash.

@Suite struct ConstraintContainerTests {
    /// A label 60×20 right of a 40×40 icon, 10 from the leading edge; the label's trailing edge
    /// at most 10 from the container's.
    static func row() -> ConstraintContainer {
        var l = ConstraintLayout(items: [ConstraintItem(name: "icon"), ConstraintItem(name: "label", intrinsicWidth: 60, intrinsicHeight: 20)])
        let icon = LayoutItemRef.item(0), label = LayoutItemRef.item(1)
        l.add(icon.leading.constraint(equalTo: .init(.container, .leading), constant: 10),
              icon.width.constraint(equalToConstant: 40), icon.height.constraint(equalToConstant: 40),
              icon.centerY.constraint(equalTo: .init(.container, .centerY)),
              label.leading.constraint(equalTo: icon.trailing, constant: 8),
              label.trailing.constraint(lessThanOrEqualTo: .init(.container, .trailing), constant: -10),
              label.centerY.constraint(equalTo: icon.centerY))
        return ConstraintContainer(layout: l)
    }

    /// row 300×100 [fixed 100×50, container (grow 1, padding 5) with two plain children].
    func tree(_ container: ConstraintContainer) throws -> (LayoutTree, NodeID, NodeID, [NodeID]) {
        var tree = LayoutTree()
        var rowStyle = Style()
        rowStyle.flexDirection = .row
        rowStyle.width = .points(300)
        rowStyle.height = .points(100)
        let root = try tree.addNode(style: rowStyle)
        tree.appendChild(try tree.addNode(content: .fixed(Size(width: 100, height: 50))), to: root)
        var boxStyle = Style()
        boxStyle.flexGrow = 1
        boxStyle.padding.all = .points(5)
        let box = try tree.addNode(style: boxStyle, content: .constraints(container))
        tree.appendChild(box, to: root)
        let items = [try tree.addNode(), try tree.addNode()]
        for item in items { tree.appendChild(item, to: box) }
        return (tree, root, box, items)
    }

    @Test func containerIsAFlexItemAndPlacesItsChildren() throws {
        var (tree, root, box, items) = try tree(Self.row())
        tree.computeLayout(root: root)
        // Basis: fitted width 10 + 40 + 8 + 60 + 10 = 128 plus padding 10 = 138; grows by
        // 300 - 100 - 138 = 62 to 200. Inner size 190×90: icon at (10, 25), label at 58,
        // centered (35); children are offset by the padding (5).
        #expect(tree.frame(of: box) == Frame(left: 100, top: 0, width: 200, height: 100))
        #expect(tree.frame(of: items[0]) == Frame(left: 15, top: 30, width: 40, height: 40))
        #expect(tree.frame(of: items[1]) == Frame(left: 63, top: 40, width: 60, height: 20))
        // Right-to-left: leading is the right edge: icon at 190 - 10 - 40 = 140 (+5).
        tree.computeLayout(root: root, direction: .rtl)
        #expect(tree.frame(of: items[0]) == Frame(left: 145, top: 30, width: 40, height: 40))
        #expect(tree.frame(of: items[1]) == Frame(left: 77, top: 40, width: 60, height: 20))
    }

    @Test func changingTheLayoutRelaysOutAndChangesTheHash() throws {
        var (tree, root, box, items) = try tree(Self.row())
        tree.computeLayout(root: root)
        let before = tree.structuralHash(root: root)
        #expect(try self.tree(Self.row()).0.structuralHash(root: root) == before)
        var wider = Self.row()
        wider.layout.constraints[1].constant = 50
        try tree.setContent(.constraints(wider), for: box)
        #expect(tree.structuralHash(root: root) != before)
        tree.computeLayout(root: root)
        // Icon 50 wide: label at 10 + 50 + 8 = 68 (+5).
        #expect(tree.frame(of: items[0]).width == 50)
        #expect(tree.frame(of: items[1]).left == 73)
    }

    @Test func conflictAtTheFinalSizeLetsTheSizeGiveWay() throws {
        // An item fixed 250 wide between 10-point insets cannot fit 200: the width gives way,
        // the item keeps its required size and overflows.
        var l = ConstraintLayout(items: [ConstraintItem(name: "wide")])
        let wide = LayoutItemRef.item(0)
        l.add(wide.leading.constraint(equalTo: .init(.container, .leading), constant: 10),
              wide.trailing.constraint(equalTo: .init(.container, .trailing), constant: -10),
              wide.width.constraint(equalToConstant: 250), wide.height.constraint(equalToConstant: 10),
              wide.top.constraint(equalTo: .init(.container, .top)))
        var tree = LayoutTree()
        var style = Style()
        style.width = .points(200)
        let root = try tree.addNode(style: style, content: .constraints(ConstraintContainer(layout: l)))
        let item = try tree.addNode()
        tree.appendChild(item, to: root)
        tree.computeLayout(root: root)
        #expect(tree.frame(of: root).width == 200)
        #expect(tree.frame(of: item) == Frame(left: 10, top: 0, width: 250, height: 10))
    }
}
