import LayoutEngine
import Testing

// The engine rule behind StackViewLayout's vertical percentage margins
// (`Style.percentMarginsAgainstContainerSize`), on plain engine trees.

@Suite struct StackViewMarginRuleTests {
    /// A 300×400 column (padding 10: inner 280×380; plus `border`) with one 50×50 child whose
    /// margins are percentages; returns the child's frame.
    private func childFrame(againstHeight: Bool, direction: FlexDirection = .column, border: Float = 0) throws -> Frame {
        var tree = LayoutTree()
        var parentStyle = Style()
        parentStyle.flexDirection = direction
        parentStyle.width = .points(300)
        parentStyle.height = .points(400)
        parentStyle.padding.all = .points(10)
        parentStyle.border.all = .points(border)
        parentStyle.alignItems = .flexStart
        let parent = try tree.addNode(style: parentStyle)
        var childStyle = Style()
        childStyle.width = .points(50)
        childStyle.height = .points(50)
        childStyle.margin.top = .percent(10)
        childStyle.margin.left = .percent(10)
        childStyle.percentMarginsAgainstContainerSize = againstHeight
        let child = try tree.addNode(style: childStyle)
        tree.appendChild(child, to: parent)
        tree.computeLayout(root: parent)
        return tree.frame(of: child)
    }

    @Test func flexboxResolvesVerticalPercentMarginsAgainstTheWidth() throws {
        // 10 % of the inner width 280 = 28 on both edges: (10 + 28, 10 + 28).
        #expect(try childFrame(againstHeight: false) == Frame(left: 38, top: 38, width: 50, height: 50))
    }

    @Test(arguments: [FlexDirection.column, .row])
    func theRuleResolvesThemAgainstTheFullSize(_ direction: FlexDirection) throws {
        // Padding included: top 10 % of the height 400 = 40 → y 50; left 10 % of the width
        // 300 = 30 → x 40.
        #expect(try childFrame(againstHeight: true, direction: direction) == Frame(left: 40, top: 50, width: 50, height: 50))
    }

    @Test func theFullSizeIncludesTheBorder() throws {
        // Border 5 and padding 10 inside the 300×400: the margins stay 30 and 40 (of the full
        // size), after the 15 of border and padding.
        #expect(try childFrame(againstHeight: true, border: 5) == Frame(left: 45, top: 55, width: 50, height: 50))
    }

    @Test func theRuleIsPartOfTheStructuralHash() throws {
        func hash(_ flag: Bool) throws -> StructuralHash {
            var tree = LayoutTree()
            var style = Style()
            style.margin.top = .percent(10)
            style.percentMarginsAgainstContainerSize = flag
            let root = try tree.addNode(style: style)
            return tree.structuralHash(root: root)
        }
        #expect(try hash(true) != hash(false))
    }
}
