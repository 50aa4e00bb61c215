import LayoutEngine
import Testing

// The engine rule behind StackViewLayout's vertical percentage margins
// (`Style.percentVerticalMarginsAgainstHeight`), on plain engine trees.

@Suite struct StackViewMarginRuleTests {
    /// A 300×400 column (padding 10: inner 280×380) with one 50×50 child whose margins are
    /// percentages; returns the child's frame.
    private func childFrame(againstHeight: Bool, direction: FlexDirection = .column) throws -> Frame {
        var tree = LayoutTree()
        var parentStyle = Style()
        parentStyle.flexDirection = direction
        parentStyle.width = .points(300)
        parentStyle.height = .points(400)
        parentStyle.padding.all = .points(10)
        parentStyle.alignItems = .flexStart
        let parent = try tree.addNode(style: parentStyle)
        var childStyle = Style()
        childStyle.width = .points(50)
        childStyle.height = .points(50)
        childStyle.margin.top = .percent(10)
        childStyle.margin.left = .percent(10)
        childStyle.percentVerticalMarginsAgainstHeight = againstHeight
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
    func theRuleResolvesThemAgainstTheHeight(_ direction: FlexDirection) throws {
        // Top: 10 % of the inner height 380 = 38 → y 48; left stays 10 % of 280 → x 38.
        #expect(try childFrame(againstHeight: true, direction: direction) == Frame(left: 38, top: 48, width: 50, height: 50))
    }

    @Test func theRuleIsPartOfTheStructuralHash() throws {
        func hash(_ flag: Bool) throws -> StructuralHash {
            var tree = LayoutTree()
            var style = Style()
            style.margin.top = .percent(10)
            style.percentVerticalMarginsAgainstHeight = flag
            let root = try tree.addNode(style: style)
            return tree.structuralHash(root: root)
        }
        #expect(try hash(true) != hash(false))
    }
}
