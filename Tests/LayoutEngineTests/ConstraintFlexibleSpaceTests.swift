import Testing
@testable import LayoutEngine

// Every example of the FlexibleLayout README (seed 003), with concrete sizes chosen here and
// frames worked out by hand in the comments.

private let container = LayoutItemRef.container
private func size(_ w: Double?, _ h: Double?) -> ConstraintContainerSize { ConstraintContainerSize(width: w, height: h) }

@Suite struct ConstraintFlexibleSpaceTests {
    /// Two views side by side (60x20 and 80x20), vertically centered, in a 300x100 container.
    func pair() -> ConstraintLayout {
        var base = ConstraintLayout()
        let first = base.addItem(label("first", 60, 20))
        let second = base.addItem(label("second", 80, 20))
        base.add(first.trailing.constraint(equalTo: second.leading),
                 first.centerY.constraint(equalTo: container.centerY),
                 second.centerY.constraint(equalTo: container.centerY))
        return base
    }

    @Test func centeringSetOfViewsHorizontally() throws {
        // 300 - 140 = 160 of space, coefficients 1:1 → 80 each side.
        var l = FlexibleSpaceLayout(base: pair())
        let first = LayoutItemRef.item(0), second = LayoutItemRef.item(1)
        l.horizontalLayout([container.leading.to(first.leading).with(1), second.trailing.to(container.trailing).with(1)])
        let r = try l.solve(containerSize: size(300, 100))
        #expect(frameIs(r.frames[0], 80, 40, 60, 20))
        #expect(frameIs(r.frames[1], 140, 40, 80, 20))
        // The spacer guides follow the items, 80 wide each, centered on the from view.
        #expect(frameIs(r.frames[2], 0, 50, 80, 0))
        #expect(frameIs(r.frames[3], 220, 50, 80, 0))
        // Leading anchors mirror in right-to-left.
        let rtl = try l.solve(containerSize: size(300, 100), direction: .rightToLeft)
        #expect(frameIs(rtl.frames[0], 160, 40, 60, 20))
        #expect(frameIs(rtl.frames[1], 80, 40, 80, 20))
    }

    @Test func reversedWithGivesTheSameLayout() throws {
        var forward = FlexibleSpaceLayout(base: pair())
        var reversed = FlexibleSpaceLayout(base: pair())
        let first = LayoutItemRef.item(0), second = LayoutItemRef.item(1)
        forward.horizontalLayout([container.leading.to(first.leading).with(1), second.trailing.to(container.trailing).with(1)])
        reversed.horizontalLayout([first.leading.to(container.leading).reversedWith(1),
                                   container.trailing.to(second.trailing).reversedWith(1)])
        #expect(reversed.groups[0].spaces == forward.groups[0].spaces)
        let a = try forward.solve(containerSize: size(300, 100))
        let b = try reversed.solve(containerSize: size(300, 100))
        #expect(a == b)
    }

    @Test func coefficientsAreRelativeWithinOneCallOnly() throws {
        // Two calls: the first splits 300-140 = 160 as 1:3 around the pair; the second call's
        // coefficient 5 only relates to itself (a spacer between the views' tops and the
        // container top, coefficient irrelevant).
        var l = FlexibleSpaceLayout(base: pair())
        let first = LayoutItemRef.item(0), second = LayoutItemRef.item(1)
        l.horizontalLayout([container.leading.to(first.leading).with(1), second.trailing.to(container.trailing).with(3)])
        l.verticalLayout([container.top.to(first.top).with(5)])
        let r = try l.solve(containerSize: size(300, 100))
        #expect(frameIs(r.frames[0], 40, 40, 60, 20))
        #expect(frameIs(r.frames[1], 100, 40, 80, 20))
        #expect(abs(Double(r.frames[4].height) - 40) <= 0.01)
    }

    /// Two 40-high views stacked in a 100-wide container: top margin (8) → first 2, first →
    /// second 1, second → bottom 2.
    func vertical(minimal: MinimalCoefficientSize?) -> FlexibleSpaceLayout {
        var base = ConstraintLayout()
        let first = base.addItem(label("first", 50, 40))
        let second = base.addItem(label("second", 50, 40))
        base.add(first.centerX.constraint(equalTo: container.centerX), second.centerX.constraint(equalTo: container.centerX))
        var l = FlexibleSpaceLayout(base: base)
        l.verticalLayout([container.topMargin.to(first.top).with(2), first.bottom.to(second.top).with(1),
                          second.bottom.to(container.bottom).with(2)], coefficientSize: minimal)
        return l
    }

    @Test func aligningVertically212() throws {
        // 300 high: 300 - 8 - 80 = 212 = 5 units of 42.4 → first at 8 + 84.8 = 92.8,
        // second at 92.8 + 40 + 42.4 = 175.2.
        let r = try vertical(minimal: nil).solve(containerSize: size(100, 300))
        #expect(frameIs(r.frames[0], 25, 92.8, 50, 40))
        #expect(frameIs(r.frames[1], 25, 175.2, 50, 40))
        #expect(abs(Double(r.frames[3].height) - 42.4) <= 0.01)
        #expect(abs(Double(r.frames[2].height) - 84.8) <= 0.01)
    }

    @Test func minimalSizePerCoefficient() throws {
        let minimal = MinimalCoefficientSize(coefficient: 1, value: 32)
        // Tall container (400): 312 / 5 = 62.4 per unit, above the minimum of 32.
        let tall = try vertical(minimal: minimal).solve(containerSize: size(100, 400))
        #expect(frameIs(tall.frames[0], 25, 8 + 124.8, 50, 40))
        // Fitted height: the minimum decides: 8 + 80 + 5 * 32 = 248; first at 8 + 64 = 72,
        // second at 72 + 40 + 32 = 144; the coefficient-2 spacers are 64.
        let fitted = try vertical(minimal: minimal).solve(containerSize: size(100, nil))
        #expect(abs(fitted.containerHeight - 248) <= 0.01)
        #expect(frameIs(fitted.frames[0], 25, 72, 50, 40))
        #expect(frameIs(fitted.frames[1], 25, 144, 50, 40))
        #expect(abs(Double(fitted.frames[4].height) - 64) <= 0.01)
        // Too short (200): the required minimum beats the labels' compression resistance
        // (750): units stay at 32 and the labels share the remaining 200 - 8 - 160 = 32.
        let short = try vertical(minimal: minimal).solve(containerSize: size(100, 200))
        #expect(abs(Double(short.frames[3].height) - 32) <= 0.01)
        #expect(abs(Double(short.frames[2].height) - 64) <= 0.01)
        #expect(abs(Double(short.frames[0].height + short.frames[1].height) - 32) <= 0.01)
        // With required label heights the minimum cannot hold: the conflict names it.
        var rigid = vertical(minimal: minimal)
        rigid.base.add(LayoutItemRef.item(0).height.constraint(equalToConstant: 40, label: "first.height = 40"),
                       LayoutItemRef.item(1).height.constraint(equalToConstant: 40, label: "second.height = 40"))
        do {
            _ = try rigid.solve(containerSize: size(100, 200))
            Issue.record("expected a conflict")
        } catch ConstraintLayoutError.unsatisfiable(let conflict) {
            #expect(conflict.isMinimal)
            #expect(conflict.labels.contains("groups[0] minimal size"))
            #expect(conflict.labels.contains("container.height"))
            #expect(conflict.labels.contains("first.height = 40"))
            #expect(conflict.labels.contains("second.height = 40"))
        }
        // The minimum applies per coefficient of the given size: coefficient 2 → 32 means 16
        // per unit, not binding at 200: (200 - 88) / 5 = 22.4.
        let half = try vertical(minimal: MinimalCoefficientSize(coefficient: 2, value: 32)).solve(containerSize: size(100, 200))
        #expect(abs(Double(half.frames[3].height) - 22.4) <= 0.01)
    }

    @Test func badGroupsAreTypedErrors() throws {
        var l = FlexibleSpaceLayout(base: pair())
        l.horizontalLayout([container.leading.to(LayoutItemRef.item(0).top).with(1)])
        #expect(throws: ConstraintLayoutError.invalidSpaceGroup(index: 0, reason: "spaces[0]: anchors must be positions on the group's axis")) {
            try l.lowered()
        }
        l.groups = []
        l.horizontalLayout([container.leading.to(LayoutItemRef.item(0).leading).with(0)])
        #expect(throws: ConstraintLayoutError.invalidSpaceGroup(index: 0, reason: "spaces[0]: coefficient must be > 0")) {
            try l.lowered()
        }
    }
}
