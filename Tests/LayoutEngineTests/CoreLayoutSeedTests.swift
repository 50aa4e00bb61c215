import LayoutEngine
import LayoutTestSupport
import Testing

// Every example of the Core Layout README (seed 004), built with the model, computed, and
// checked against frames worked out by hand (arithmetic in the comments). Containers are
// 160×284 (the size the README computes in) unless the example needs free space to show
// anything, then 164×164 or 200×100.

private typealias Layout = CoreLayout.Layout
private typealias ContainerBehavior = CoreLayout.ContainerBehavior
private typealias SizeBehavior = CoreLayout.SizeBehavior
private typealias Edges = CoreLayout.Edges

private func childFrames(_ computed: CoreLayout.ComputedLayout) -> [Frame] {
    computed.children.map(\.frame)
}

@Suite struct CoreLayoutSeedTests {
    @Test func emptyContainerFillsTheSize() throws {
        let layout = Layout(container: ContainerBehavior(primaryAxis: .vertical), padding: Edges(all: 8))
        let computed = try layout.compute(with: Size(width: 160, height: 284))
        #expect(computed == CoreLayout.ComputedLayout(frame: frame(0, 0, 160, 284)))
    }

    @Test func childWithMinimumHeight() throws {
        // Stretched across 160 - 8 - 8 = 144; no content, so its height is its minimum, 44.
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .vertical),
            padding: Edges(all: 8),
            children: [Layout(size: SizeBehavior(minHeight: 44))])
        let computed = try layout.compute(with: Size(width: 160, height: 284))
        #expect(computed == CoreLayout.ComputedLayout(
            frame: frame(0, 0, 160, 284),
            children: [CoreLayout.ComputedLayout(frame: frame(8, 8, 144, 44))]))
    }

    private func threeSquares(_ axis: CoreLayout.Axis) -> Layout {
        Layout(
            container: ContainerBehavior(primaryAxis: axis),
            padding: Edges(all: 8),
            children: (0..<3).map { _ in Layout(size: .absolute(width: 44, height: 44), margin: Edges(bottom: 8)) })
    }

    @Test func primaryAxisVertical() throws {
        // y: 8, 8 + 44 + 8 = 60, 60 + 52 = 112.
        let computed = try threeSquares(.vertical).compute(with: Size(width: 160, height: 284))
        #expect(childFrames(computed) == [frame(8, 8, 44, 44), frame(8, 60, 44, 44), frame(8, 112, 44, 44)])
    }

    @Test func primaryAxisHorizontal() throws {
        // x: 8, 52, 96 (bottom margins do not separate a row).
        let computed = try threeSquares(.horizontal).compute(with: Size(width: 160, height: 284))
        #expect(childFrames(computed) == [frame(8, 8, 44, 44), frame(52, 8, 44, 44), frame(96, 8, 44, 44)])
    }

    @Test(arguments: [
        // 200 wide, padding 8: inner 184. Items 44 + 8 + 44 + 8 + 44 = 148; free 36.
        (CoreLayout.PrimaryAxisDistribution.leading, [Float(8), 60, 112]),
        (.center, [26, 78, 130]),       // offset 36 / 2 = 18
        (.trailing, [44, 96, 148]),     // offset 36
        (.spaceAround, [14, 78, 142]),  // 12 per item, 6 at each end: 8+6, 14+52+12, 78+52+12
        (.spaceBetween, [8, 78, 148]),  // 18 per gap: 8, 8+52+18, 78+52+18
    ])
    func primaryAxisDistribution(_ distribution: CoreLayout.PrimaryAxisDistribution, _ xs: [Float]) throws {
        let children = [
            Layout(size: .absolute(width: 44, height: 44), margin: Edges(trailing: 8)),
            Layout(size: .absolute(width: 44, height: 44), margin: Edges(trailing: 8)),
            Layout(size: .absolute(width: 44, height: 44)),
        ]
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .horizontal, primaryAxisDistribution: distribution),
            padding: Edges(all: 8), children: children)
        let computed = try layout.compute(with: Size(width: 200, height: 100))
        #expect(childFrames(computed) == xs.map { frame($0, 8, 44, 44) })
    }

    @Test(arguments: [
        // 164×164, padding 8: inner 148×148. Widths 44 + 8 + 44 + 8 + 44 = 148 fit exactly.
        (CoreLayout.SecondaryAxisDistribution.leading, Float(8), Float(44)),
        (.center, 60, 44),    // 8 + (148 - 44) / 2
        (.trailing, 112, 44), // 8 + 148 - 44
        (.stretch, 8, 148),   // the minimum height does not stop the stretch
    ])
    func secondaryAxisDistribution(_ distribution: CoreLayout.SecondaryAxisDistribution, _ y: Float, _ height: Float) throws {
        let minSize = SizeBehavior(minWidth: 44, minHeight: 44)
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .horizontal, secondaryAxisDistribution: distribution),
            padding: Edges(all: 8),
            children: [
                Layout(size: minSize, margin: Edges(trailing: 8)),
                Layout(size: minSize, margin: Edges(trailing: 8)),
                Layout(size: minSize),
            ])
        let computed = try layout.compute(with: Size(width: 164, height: 164))
        #expect(childFrames(computed) == [frame(8, y, 44, height), frame(60, y, 44, height), frame(112, y, 44, height)])
    }

    @Test(arguments: [
        // 164×164, padding top 8 and leading 8 only: inner 156×156. Items take 40 + 8 = 48
        // each way; 3 fit on a line (144 <= 156, 192 > 156), so two lines of height 48 each
        // (the last item has no margin, the fourth has). Free cross space 156 - 96 = 60.
        (CoreLayout.SecondaryAxisDistributionWhenWrapping.leading, Float(8), Float(56)),
        (.center, 38, 86),       // 8 + 30, 38 + 48
        (.trailing, 68, 116),    // 8 + 60, 68 + 48
        (.stretch, 8, 86),       // each line grows by 30: 8, 8 + 78
        (.spaceAround, 23, 101), // 15 around each line: 8 + 15, 23 + 48 + 30
        (.spaceBetween, 8, 116), // 8, 8 + 48 + 60
    ])
    func secondaryAxisDistributionWhenWrapping(
        _ distribution: CoreLayout.SecondaryAxisDistributionWhenWrapping, _ firstLine: Float, _ secondLine: Float
    ) throws {
        let margin = Edges(bottom: 8, trailing: 8)
        let size = SizeBehavior.absolute(width: 40, height: 40)
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .horizontal, secondaryAxisDistributionWhenWrapping: distribution,
                                         shouldWrap: true),
            padding: Edges(top: 8, leading: 8),
            children: [
                Layout(size: size, margin: margin), Layout(size: size, margin: margin), Layout(size: size, margin: margin),
                Layout(size: size, margin: margin), Layout(size: size),
            ])
        let computed = try layout.compute(with: Size(width: 164, height: 164))
        #expect(childFrames(computed) == [
            frame(8, firstLine, 40, 40), frame(56, firstLine, 40, 40), frame(104, firstLine, 40, 40),
            frame(8, secondLine, 40, 40), frame(56, secondLine, 40, 40),
        ])
    }

    private func fiveSquares(wrap: Bool) -> Layout {
        Layout(
            container: ContainerBehavior(primaryAxis: .horizontal, shouldWrap: wrap),
            padding: Edges(top: 8, leading: 8),
            children: (0..<5).map { _ in Layout(size: .absolute(width: 44, height: 44), margin: Edges(bottom: 8)) })
    }

    @Test func withoutWrappingChildrenTrailOffTheEdge() throws {
        // One line: x = 8 + 44 i, the last ones past 160.
        let computed = try fiveSquares(wrap: false).compute(with: Size(width: 160, height: 284))
        #expect(childFrames(computed) == [8, 52, 96, 140, 184].map { frame($0, 8, 44, 44) })
    }

    @Test func wrappingFlowsOntoTheNextLine() throws {
        // Inner 152×276. 3 × 44 = 132 fits, 176 does not: lines of 3 and 2, each 44 + 8 = 52
        // tall. The default when-wrapping distribution is stretch: free 276 - 104 = 172, so
        // each line grows by 86 and the second starts at 8 + 52 + 86 = 146.
        let computed = try fiveSquares(wrap: true).compute(with: Size(width: 160, height: 284))
        #expect(childFrames(computed) == [
            frame(8, 8, 44, 44), frame(52, 8, 44, 44), frame(96, 8, 44, 44),
            frame(8, 146, 44, 44), frame(52, 146, 44, 44),
        ])
    }

    @Test(arguments: [
        // The container aligns to leading; only the third child overrides. 164×164,
        // padding 8: inner 148 tall.
        (CoreLayout.SecondaryAxisDistribution?.none, Float(8), Float(44)),
        (.leading, 8, 44),
        (.center, 60, 44),    // 8 + (148 - 44) / 2
        (.trailing, 112, 44), // 8 + 148 - 44
        (.stretch, 8, 148),
    ])
    func overriddenSecondaryAxisDistribution(_ override: CoreLayout.SecondaryAxisDistribution?, _ y: Float,
                                             _ height: Float) throws {
        let size = SizeBehavior(minWidth: 44, minHeight: 44)
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .horizontal, secondaryAxisDistribution: .leading),
            padding: Edges(all: 8),
            children: [
                Layout(size: size, margin: Edges(trailing: 8)),
                Layout(size: size, margin: Edges(trailing: 8)),
                Layout(overriddenSecondaryAxisDistribution: override, size: size),
            ])
        let computed = try layout.compute(with: Size(width: 164, height: 164))
        #expect(childFrames(computed) == [frame(8, 8, 44, 44), frame(60, 8, 44, 44), frame(112, y, 44, height)])
    }

    @Test func overriddenPositionOffsetsFromTheParentContainer() throws {
        // The 100×60 box sits after the leading padding of 50 at y 0; the 44×44 box would
        // be at its origin and is offset by top 8, leading 8.
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .vertical),
            padding: Edges(leading: 50),
            children: [
                Layout(
                    container: ContainerBehavior(primaryAxis: .horizontal),
                    size: .absolute(width: 100, height: 60),
                    children: [
                        Layout(overriddenPosition: .relative(Edges(top: 8, leading: 8)),
                               size: .absolute(width: 44, height: 44)),
                    ]),
            ])
        let computed = try layout.compute(with: Size(width: 160, height: 284))
        #expect(computed == CoreLayout.ComputedLayout(
            frame: frame(0, 0, 160, 284),
            children: [CoreLayout.ComputedLayout(frame: frame(50, 0, 100, 60),
                                                 children: [CoreLayout.ComputedLayout(frame: frame(8, 8, 44, 44))])]))
    }

    @Test func flexibleChildrenShareTheSpaceEvenly() throws {
        // 164×164, padding top/leading/trailing 8: inner 148 × 156. Three margins of 8 leave
        // 132, so 44 each: y 8, 8 + 52, 60 + 52.
        let computed = try flexibleColumn(units: [1, 1, 1]).compute(with: Size(width: 164, height: 164))
        #expect(childFrames(computed) == [frame(8, 8, 148, 44), frame(8, 60, 148, 44), frame(8, 112, 148, 44)])
    }

    @Test func flexibleUnitsSetTheProportions() throws {
        // 132 split 1:2:3 is 22, 44, 66: y 8, 8 + 30, 38 + 52.
        let computed = try flexibleColumn(units: [1, 2, 3]).compute(with: Size(width: 164, height: 164))
        #expect(childFrames(computed) == [frame(8, 8, 148, 22), frame(8, 38, 148, 44), frame(8, 90, 148, 66)])
    }

    private func flexibleColumn(units: [UInt32]) -> Layout {
        Layout(
            container: ContainerBehavior(primaryAxis: .vertical, secondaryAxisDistribution: .stretch),
            size: .flexible(),
            padding: Edges(top: 8, leading: 8, trailing: 8),
            children: units.map { Layout(size: .flexible(units: $0), margin: Edges(bottom: 8)) })
    }

    @Test func absoluteSize() throws {
        let layout = Layout(container: ContainerBehavior(primaryAxis: .vertical),
                            children: [Layout(size: .absolute(width: 97, height: 58))])
        let computed = try layout.compute(with: Size(width: 160, height: 284))
        #expect(childFrames(computed) == [frame(0, 0, 97, 58)])
    }

    @Test func relativeSizeFromMeasuredContent() throws {
        // A label measured at 81.3 × 16.2 is rounded up to 82 × 17 and placed after its
        // leading margin.
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .vertical, secondaryAxisDistribution: .leading),
            children: [Layout(identifier: "Core Layout", size: .relative(.fixed(Size(width: 81.3, height: 16.2))),
                              margin: Edges(leading: 8))])
        let computed = try layout.compute(with: Size(width: 164, height: 164))
        #expect(computed.children == [CoreLayout.ComputedLayout(identifier: "Core Layout", frame: frame(8, 0, 82, 17))])
    }

    @Test func relativeSizeFromAMeasureClosure() throws {
        // The closure sees its tag and the space it may use (164 - 8 wide at most), and
        // answers half of that width; 78 wide, 20.4 → 21 tall.
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .vertical, secondaryAxisDistribution: .leading),
            children: [Layout(size: .relative(.custom(tag: 7)), margin: Edges(leading: 8))])
        let computed = try layout.compute(with: Size(width: 164, height: 164)) { options in
            #expect(options.tag == 7)
            return Size(width: options.containerSize.width / 2, height: 20.4)
        }
        #expect(childFrames(computed) == [frame(8, 0, 78, 21)])
    }

    @Test func relativeSizeFromTheParentsWidthMinusAConstant() throws {
        // "My parent's width - X": the closure is offered 164 - 8 (its leading margin) = 156
        // wide and 164 tall; width 156 - 20 = 136, height half of 164 = 82.
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .vertical, secondaryAxisDistribution: .leading),
            children: [Layout(size: .relative(width: .init(multiplier: 1, constant: -20), height: .init(multiplier: 0.5)),
                              margin: Edges(leading: 8))])
        let computed = try layout.compute(with: Size(width: 164, height: 164))
        #expect(childFrames(computed) == [frame(8, 0, 136, 82)])
    }

    @Test func relativeSizeHalfTheParentsHeightInARow() throws {
        // In a 200×100 row with padding 10: offered 180 × 80; a third of the width
        // (60) and half the height (40), then 40.5 → 41 (rounded up) for the second.
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .horizontal, secondaryAxisDistribution: .leading),
            padding: Edges(all: 10),
            children: [
                Layout(size: .relative(width: .init(multiplier: 1.0 / 3), height: .init(multiplier: 0.5))),
                Layout(size: .relative(width: .init(multiplier: 0, constant: 40.5), height: .init(multiplier: 0, constant: 40.5))),
            ])
        let computed = try layout.compute(with: Size(width: 200, height: 100))
        #expect(childFrames(computed) == [frame(10, 10, 60, 40), frame(70, 10, 41, 41)])
    }

    @Test func relativeSizeOfAnOpenAxisIsItsConstant() {
        // No size offered on an axis: it counts as 0, leaving the constant; never negative.
        let size = ProportionalSize(width: .init(multiplier: 0.5, constant: 12), height: .init(constant: -30))
        #expect(size.measure(.nan, .undefined, 100, .exactly) == Size(width: 12, height: 70))
        #expect(size.measure(200, .atMost, .nan, .undefined) == Size(width: 112, height: 0))
        #expect(ProportionalSize(width: nil, height: nil).measure(10, .exactly, 10, .exactly) == Size(width: 0, height: 0))
    }

    @Test func relativeSizesArePartOfTheStructuralHash() throws {
        func hash(_ content: NodeContent) throws -> StructuralHash {
            var tree = LayoutTree()
            let root = try tree.addNode(style: Style(), content: content)
            return tree.structuralHash(root: root)
        }
        let half = ProportionalSize(width: .init(multiplier: 0.5), height: nil)
        #expect(try hash(.proportional(half)) == hash(.proportional(half)))
        #expect(try hash(.proportional(half)) != hash(.proportional(ProportionalSize(width: .init(multiplier: 0.25), height: nil))))
        #expect(try hash(.proportional(half)) != hash(.proportional(ProportionalSize(width: nil, height: .init(multiplier: 0.5)))))
        #expect(try hash(.proportional(half)) != hash(.proportional(ProportionalSize(width: .init(multiplier: 0.5, constant: 1)))))
    }

    @Test func marginsPushSiblings() throws {
        // y: 0, 30 + 10, 40 + 30 + 20; the third is pushed in by its leading margin.
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .vertical),
            children: [
                Layout(identifier: "1", size: .absolute(width: 30, height: 30), margin: Edges(bottom: 10)),
                Layout(identifier: "2", size: .absolute(width: 30, height: 30), margin: Edges(bottom: 20)),
                Layout(identifier: "3", size: .absolute(width: 30, height: 30), margin: Edges(leading: 20)),
            ])
        let computed = try layout.compute(with: Size(width: 164, height: 164))
        #expect(childFrames(computed) == [frame(0, 0, 30, 30), frame(0, 40, 30, 30), frame(20, 90, 30, 30)])
        #expect(computed.first(identifier: "3")?.frame == frame(20, 90, 30, 30))
    }

    @Test func paddingPushesChildrenInward() throws {
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .vertical),
            padding: Edges(all: 20),
            children: (1...3).map { Layout(identifier: "\($0)", size: .absolute(width: 30, height: 30)) })
        let computed = try layout.compute(with: Size(width: 164, height: 164))
        #expect(childFrames(computed) == [frame(20, 20, 30, 30), frame(20, 50, 30, 30), frame(20, 80, 30, 30)])
    }

    @Test func borderGrowsTheBox() throws {
        // A 30-point border-box cannot hold 20 + 20 of border: each box is 40×40.
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .horizontal),
            children: (1...3).map {
                Layout(identifier: "\($0)", size: .absolute(width: 30, height: 30), border: Edges(all: 20))
            })
        let computed = try layout.compute(with: Size(width: 164, height: 164))
        #expect(childFrames(computed) == [frame(0, 0, 40, 40), frame(40, 0, 40, 40), frame(80, 0, 40, 40)])
    }

    @Test func advancedRowOfContent() throws {
        // Root: inner 144 wide from x 8. Row A stretches to 144; inner 128 after padding 8.
        // Group G: 30 + 8 + 63 = 101 wide, max(30, 14) = 30 tall. Dot: 8×8. Free 128 - 109
        // = 19 goes between: G at 8, dot at 8 + 101 + 19 = 128. A is 30 + 16 = 46 tall.
        // Centered in A's 30: G at y 8, dot at 8 + 11 = 19. In G the 14-tall label is
        // centered: y 8; x 30 + 8 = 38.
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .vertical, secondaryAxisDistribution: .stretch),
            padding: Edges(all: 8),
            children: [
                Layout(
                    container: ContainerBehavior(primaryAxis: .horizontal, primaryAxisDistribution: .spaceBetween,
                                                 secondaryAxisDistribution: .center),
                    padding: Edges(all: 8),
                    children: [
                        Layout(
                            container: ContainerBehavior(primaryAxis: .horizontal, secondaryAxisDistribution: .center),
                            children: [
                                Layout(size: .absolute(width: 30, height: 30)),
                                Layout(size: .relative(.fixed(Size(width: 63, height: 14))), margin: Edges(leading: 8)),
                            ]),
                        Layout(size: .absolute(width: 8, height: 8)),
                    ]),
            ])
        let computed = try layout.compute(with: Size(width: 160, height: 284))
        let row = CoreLayout.ComputedLayout(
            frame: frame(8, 8, 144, 46),
            children: [
                CoreLayout.ComputedLayout(frame: frame(8, 8, 101, 30),
                                          children: [CoreLayout.ComputedLayout(frame: frame(0, 0, 30, 30)),
                                                     CoreLayout.ComputedLayout(frame: frame(38, 8, 63, 14))]),
                CoreLayout.ComputedLayout(frame: frame(128, 19, 8, 8)),
            ])
        #expect(computed == CoreLayout.ComputedLayout(frame: frame(0, 0, 160, 284), children: [row]))
    }

    @Test func excludedLayoutTakesNoSpace() throws {
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .vertical),
            children: [
                Layout(size: .absolute(width: 30, height: 30)),
                Layout(size: .absolute(width: 30, height: 30), isIncludedInLayout: false),
                Layout(size: .absolute(width: 30, height: 30)),
            ])
        let computed = try layout.compute(with: Size(width: 164, height: 164))
        #expect(computed.children[2].frame == frame(0, 30, 30, 30))
        #expect(computed.children[1].frame.width == 0 && computed.children[1].frame.height == 0)
    }

    @Test func debugPrintOfAnAbsolutelyPositionedChild() throws {
        let layout = Layout(
            container: ContainerBehavior(primaryAxis: .vertical),
            children: [Layout(overriddenPosition: .absolute(Edges(top: 8, leading: 8)),
                              size: .absolute(width: 44, height: 44))])
        let computed = try layout.compute(with: Size(width: 160, height: 284))
        #expect(computed.description == """
            ComputedLayout(
              frame: CGRect(x: 0.0, y: 0.0, width: 160.0, height: 284.0),
              children: [
                ComputedLayout(frame: CGRect(x: 8.0, y: 8.0, width: 44.0, height: 44.0))
              ]
            )
            """)
    }
}
