import LayoutEngine
import LayoutTestSupport
import Testing

// Stacks inside stacks, stacks inside flexbox containers and flexbox containers inside
// stacks: one tree, one layout pass. Frames worked out by hand.

private typealias StackView = StackViewLayout.StackView
private typealias StackItem = StackViewLayout.StackItem

@Suite struct StackViewNestingTests {
    @Test func stackInsideAStack() throws {
        // Outer column 300 wide, height fitted. A 40-tall button, then a row stretched to
        // 300 holding two 100×30 items spaced between (x 0 and 200), 30 tall at y 40.
        let row = StackView(direction: .row, justifyContent: .spaceBetween,
                            items: [StackItem(width: 100, height: 30), StackItem(width: 100, height: 30)])
        let outer = StackView(items: [StackItem(width: 100, height: 40), StackItem(stack: row)])
        let frames = try outer.layout(width: 300, height: nil)
        #expect(frames.frame == frame(0, 0, 300, 70))
        #expect(frames.items[1].frame == frame(0, 40, 300, 30))
        #expect(frames.items[1].items.map(\.frame) == [frame(0, 0, 100, 30), frame(200, 0, 100, 30)])
    }

    @Test func nestedStackTakesItemProperties() throws {
        // The nested stack is an item too: margin left 20 and grow 1 in a 300×200 column
        // after a 40-tall button: x 20, 280 wide, 160 tall; its item stretches to 280.
        var nested = StackItem(stack: StackView(items: [StackItem(width: 50, height: 50)]))
        nested.margin.left = .points(20)
        nested.grow = 1
        let frames = try StackView(items: [StackItem(width: 100, height: 40), nested]).layout(width: 300, height: 200)
        #expect(frames.items[1].frame == frame(20, 40, 280, 160))
        #expect(frames.items[1].items.map(\.frame) == [frame(0, 0, 280, 50)])
    }

    @Test func stackInsideAFlexContainer() throws {
        // A 200×100 flexbox row holds the stack: the stack is as wide as its 60-wide item
        // and stretched to 100 tall; its item stretches across the stack's 60.
        var tree = LayoutTree()
        var rowStyle = Style()
        rowStyle.flexDirection = .row
        rowStyle.width = .points(200)
        rowStyle.height = .points(100)
        let root = try tree.addNode(style: rowStyle)
        let stack = try StackView(items: [StackItem(width: 60, height: 30)]).append(to: &tree)
        tree.appendChild(stack, to: root)
        tree.computeLayout(root: root)
        #expect(tree.frame(of: stack) == frame(0, 0, 60, 100))
        let items = Array(tree.children(of: stack))
        #expect(items.count == 1)
        #expect(tree.frame(of: items[0]) == frame(0, 0, 60, 30))
    }

    @Test func flexContainerInsideAStack() throws {
        // A flexbox row of two 50×20 boxes becomes the stack's second item with a top
        // margin of 10: stretched to 300, 20 tall, at y 40 + 10.
        var tree = LayoutTree()
        var rowStyle = Style()
        rowStyle.flexDirection = .row
        let flexRow = try tree.addNode(style: rowStyle)
        var boxStyle = Style()
        boxStyle.width = .points(50)
        boxStyle.height = .points(20)
        let a = try tree.addNode(style: boxStyle)
        let b = try tree.addNode(style: boxStyle)
        tree.appendChild(a, to: flexRow)
        tree.appendChild(b, to: flexRow)
        let stack = StackView(items: [StackItem(width: 100, height: 40), StackItem(.node(flexRow)).marginTop(10)])
        let root = try stack.append(to: &tree)
        tree.computeLayout(root: root, available: AvailableSize(width: 300, height: 400))
        #expect(tree.frame(of: flexRow) == frame(0, 50, 300, 20))
        #expect(tree.frame(of: b) == frame(50, 0, 50, 20))
        #expect(tree.style(of: flexRow).flexDirection == .row)
    }

    @Test func nodeItemMustBeDetachedAndInTheTree() throws {
        var tree = LayoutTree()
        let parent = try tree.addNode()
        let child = try tree.addNode()
        tree.appendChild(child, to: parent)
        #expect(throws: StyleError.self) {
            try StackView(items: [StackItem(.node(child))]).append(to: &tree)
        }
        #expect(throws: StyleError.self) {
            try StackView(items: [StackItem(.node(NodeID(999)))]).append(to: &tree)
        }
    }
}
