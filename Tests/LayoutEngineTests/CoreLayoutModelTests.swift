import LayoutEngine
import Testing

// The Core Layout model itself: edge defaults, the style each property maps to, and the
// printed form of a computed tree. These need no layout pass.

@Suite struct CoreLayoutModelTests {
    @Test func edgesNotGivenAreZero() {
        let edges = CoreLayout.Edges(top: 8)
        #expect(edges == CoreLayout.Edges(top: 8, leading: 0, bottom: 0, trailing: 0))
        #expect(CoreLayout.Edges(top: 1, leading: 2, bottom: 3, trailing: 4, topAndBottom: 5, sides: 6)
            == CoreLayout.Edges(top: 5, leading: 6, bottom: 5, trailing: 6))
        #expect(CoreLayout.Edges(all: 3) == CoreLayout.Edges(top: 3, leading: 3, bottom: 3, trailing: 3))
    }

    @Test func propertiesMapOntoTheEngineStyle() throws {
        let layout = CoreLayout.Layout(
            container: CoreLayout.ContainerBehavior(primaryAxis: .horizontal, primaryAxisDistribution: .spaceBetween,
                                                    secondaryAxisDistribution: .center,
                                                    secondaryAxisDistributionWhenWrapping: .spaceAround,
                                                    shouldWrap: true),
            overriddenSecondaryAxisDistribution: .trailing,
            overriddenPosition: .absolute(CoreLayout.Edges(top: 4, leading: 5)),
            size: .flexible(units: 3, minWidth: 10, maxHeight: 90),
            margin: CoreLayout.Edges(leading: 7),
            isIncludedInLayout: false)
        var tree = LayoutTree()
        let node = try layout.append(to: &tree)
        let style = tree.style(of: node)
        #expect(style.flexDirection == .row)
        #expect(style.justifyContent == .spaceBetween)
        #expect(style.alignItems == .center)
        #expect(style.alignContent == .spaceAround)
        #expect(style.flexWrap == .wrap)
        #expect(style.alignSelf == .flexEnd)
        #expect(style.positionType == .absolute)
        #expect(style.position.top == .points(4) && style.position.start == .points(5))
        #expect(style.position.end == .points(0) && style.position.bottom == .points(0))
        #expect(style.flex == 3)
        #expect(style.minWidth == .points(10) && style.maxHeight == .points(90))
        #expect(style.minHeight == .undefined)
        #expect(style.margin.start == .points(7) && style.margin.top == .points(0))
        #expect(style.display == .none)
    }

    @Test func sizeModesMapToFlex() throws {
        func flex(_ size: CoreLayout.SizeBehavior) throws -> Float? {
            var tree = LayoutTree()
            let node = try CoreLayout.Layout(size: size).append(to: &tree)
            return tree.style(of: node).flex
        }
        #expect(try flex(.flexibleShrinksButDoesntGrow) == -1)
        #expect(try flex(.flexible()) == 1)
        #expect(try flex(.absolute(width: 3)) == 0)
        #expect(try flex(.relative(.fixed(Size(width: 1, height: 1)))) == 0)
        var tree = LayoutTree()
        let node = try CoreLayout.Layout(size: .relative(.fixed(Size(width: 2.1, height: 3)))).append(to: &tree)
        #expect(tree.content(of: node) == .fixed(Size(width: 3, height: 3)))
    }

    @Test func refusedValuesThrow() {
        var tree = LayoutTree()
        #expect(throws: StyleError.self) {
            try CoreLayout.Layout(size: .absolute(width: -1)).append(to: &tree)
        }
        #expect(throws: StyleError.self) {
            try CoreLayout.Layout(padding: CoreLayout.Edges(all: .nan)).append(to: &tree)
        }
    }

    @Test func printsNestedTreesAsInitializers() {
        let computed = CoreLayout.ComputedLayout(
            identifier: "root \"1\"",
            frame: Frame(left: 0, top: 0, width: 160, height: 284),
            children: [
                CoreLayout.ComputedLayout(frame: Frame(left: 8, top: 8, width: 144, height: 46), children: [
                    CoreLayout.ComputedLayout(frame: Frame(left: 0, top: 0, width: 30, height: 30)),
                    CoreLayout.ComputedLayout(frame: Frame(left: 38, top: 8, width: 63.5, height: 14)),
                ]),
                CoreLayout.ComputedLayout(identifier: "dot", frame: Frame(left: 128, top: 19, width: 8, height: 8)),
            ])
        #expect(computed.description == """
            ComputedLayout(
              identifier: "root \\"1\\"", frame: CGRect(x: 0.0, y: 0.0, width: 160.0, height: 284.0),
              children: [
                ComputedLayout(
                  frame: CGRect(x: 8.0, y: 8.0, width: 144.0, height: 46.0),
                  children: [
                    ComputedLayout(frame: CGRect(x: 0.0, y: 0.0, width: 30.0, height: 30.0)),
                    ComputedLayout(frame: CGRect(x: 38.0, y: 8.0, width: 63.5, height: 14.0))
                  ]
                ),
                ComputedLayout(identifier: "dot", frame: CGRect(x: 128.0, y: 19.0, width: 8.0, height: 8.0))
              ]
            )
            """)
    }
}
