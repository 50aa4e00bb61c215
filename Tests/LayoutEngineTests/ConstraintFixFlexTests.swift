import Testing
@testable import LayoutEngine

// Every example of the FixFlex README (seed 001), with concrete sizes chosen here (the README
// shows none) and frames worked out by hand in the comments.

private typealias I = FixFlexIntent
private let parent = LayoutItemRef.container

private func size(_ w: Double?, _ h: Double?) -> ConstraintContainerSize { ConstraintContainerSize(width: w, height: h) }

@Suite struct ConstraintFixFlexTests {
    @Test func fillParentWithInset() throws {
        // 200x100: child = inset 15 on every side.
        var l = FixFlexLayout(base: ConstraintLayout(items: [plainView("child")]))
        l.hstack(I.fix(15), I.flex([0]), I.fix(15))
        l.vstack(I.fix(15), I.flex([0]), I.fix(15))
        let r = try l.solve(containerSize: size(200, 100))
        #expect(frameIs(r.frames[0], 15, 15, 170, 70))
    }

    @Test func pinToParentTrailingBottom() throws {
        // 300x200: child 100x50, 15 from the trailing and bottom edges.
        var l = FixFlexLayout(base: ConstraintLayout(items: [plainView("child")]))
        l.hstack(I.flex(), I.fix([0], 100), I.fix(15))
        l.vstack(I.flex(), I.fix([0], 50), I.fix(15))
        let r = try l.solve(containerSize: size(300, 200))
        #expect(frameIs(r.frames[0], 300 - 15 - 100, 200 - 15 - 50, 100, 50))
        // Natural positioning: in RTL the trailing edge is the left one.
        let rtl = try l.solve(containerSize: size(300, 200), direction: .rightToLeft)
        #expect(frameIs(rtl.frames[0], 15, 135, 100, 50))
    }

    @Test func centerInParent() throws {
        // 300x200, child 100x50: (300-100)/2 = 100, (200-50)/2 = 75.
        var l = FixFlexLayout(base: ConstraintLayout(items: [plainView("child")]))
        l.hstack(I.fill(), I.fix([0], 100), I.fill())
        l.vstack(I.fill(), I.fix([0], 50), I.fill())
        let r = try l.solve(containerSize: size(300, 200))
        #expect(frameIs(r.frames[0], 100, 75, 100, 50))
        // Spacer guides follow the child: hstack's two Fills are items 1 and 2.
        #expect(r.frames.count == 5)
        #expect(r.frames[1].left == 0 && abs(Double(r.frames[1].width) - 100) <= 0.01)
        #expect(abs(Double(r.frames[2].left) - 200) <= 0.01 && abs(Double(r.frames[2].width) - 100) <= 0.01)
    }

    @Test func centerLabelInParent() throws {
        // Label 80x20 (intrinsic) in 300x200: hugging + compression keep 80x20.
        var l = FixFlexLayout(base: ConstraintLayout(items: [label("label", 80, 20)]))
        l.hstack(I.fill(), I.flex([0]), I.fill())
        l.vstack(I.fill(), I.flex([0]), I.fill())
        let r = try l.solve(containerSize: size(300, 200))
        #expect(frameIs(r.frames[0], 110, 90, 80, 20))
    }

    @Test func verticallyCenterTwoLabels() throws {
        // 300x200; top label 120x20, bottom 90x30, 5 apart: block of 55 centered → 72.5.
        var l = FixFlexLayout(base: ConstraintLayout(items: [label("top", 120, 20), label("bottom", 90, 30)]))
        l.hstack(I.flex([0, 1]))
        l.vstack(I.fill(), I.flex([0]), I.fix(5), I.flex([1]), I.fill())
        let r = try l.solve(containerSize: size(300, 200))
        #expect(frameIs(r.frames[0], 0, 72.5, 300, 20))
        #expect(frameIs(r.frames[1], 0, 97.5, 300, 30))
    }

    /// The README's main example. Width 375, height fitted: title 150x24, subtitle 200x22.
    func cell() -> FixFlexLayout {
        var l = FixFlexLayout(base: ConstraintLayout(items: [
            plainView("icon"), label("title", 150, 24), label("subtitle", 200, 22), plainView("chevron"),
        ]))
        l.hstack(I.fix(15), I.fix([0], 44), I.fix(15), I.flex([1, 2]), I.fix(15), I.fix([3], 20), I.fix(15))
        l.vstack(I.fix(15), I.fix([0], 44), I.flex(min: 15))
        l.vstack(I.fix(15), I.flex([1]), I.flex([2]), I.fix(15))
        l.vstack(I.fill(), I.fix([3], 30), I.fill())
        return l
    }

    @Test func cellWithIconTitleSubtitleAndChevron() throws {
        // Labels column: 15 + 24 + 22 + 15 = 76 >= icon column 15 + 44 + 15 = 74, so the
        // fitted height is 76. Title/subtitle: x = 15+44+15 = 74, width 375-74-15-20-15 = 251.
        // Chevron centered: (76-30)/2 = 23.
        let r = try cell().solve(containerSize: size(375, nil))
        #expect(abs(r.containerHeight - 76) <= 0.01)
        #expect(frameIs(r.frames[0], 15, 15, 44, 44))
        #expect(frameIs(r.frames[1], 74, 15, 251, 24))
        #expect(frameIs(r.frames[2], 74, 39, 251, 22))
        #expect(frameIs(r.frames[3], 340, 23, 20, 30))
        // RTL mirrors every x: x' = 375 - x - w.
        let rtl = try cell().solve(containerSize: size(375, nil), direction: .rightToLeft)
        #expect(frameIs(rtl.frames[0], 316, 15, 44, 44))
        #expect(frameIs(rtl.frames[1], 50, 15, 251, 24))
        #expect(frameIs(rtl.frames[3], 15, 23, 20, 30))
        // A fixed height of 70 cannot fit the icon column (74): a named required conflict.
        do {
            _ = try cell().solve(containerSize: size(375, 70))
            Issue.record("expected a conflict")
        } catch ConstraintLayoutError.unsatisfiable(let conflict) {
            #expect(conflict.labels.contains("container.height"))
            #expect(conflict.labels.contains("stacks[1].intents[2](stacks[1].spacer[1]) min 15.0"))
            #expect(conflict.labels.contains("stacks[1].intents[1](icon) fix 44.0"))
        }
    }

    @Test func cardWithIconTitleAndSubtitle() throws {
        // Width 200, fitted height: 5 + 50 + 10 + 20 + 16 + 5 = 106.
        var l = FixFlexLayout(base: ConstraintLayout(items: [plainView("icon"), label("title", 100, 20), label("subtitle", 150, 16)]))
        l.hstack(I.fix(5), I.flex([0, 1, 2]), I.fix(5))
        l.vstack(I.fix(5), I.fix([0], 50), I.fix(10), I.flex([1]), I.flex([2]), I.fix(5))
        let r = try l.solve(containerSize: size(200, nil))
        #expect(abs(r.containerHeight - 106) <= 0.01)
        #expect(frameIs(r.frames[0], 5, 5, 190, 50))
        #expect(frameIs(r.frames[1], 5, 65, 190, 20))
        #expect(frameIs(r.frames[2], 5, 85, 190, 16))
    }

    @Test func labelsRowWithNotEnoughSpaceForBoth() throws {
        // 300x40; left 200 wide with required compression resistance, right 150 (750):
        // left keeps 200, right gets 300 - 200 - 5 = 95.
        var l = FixFlexLayout(base: ConstraintLayout(items: [label("left", 200, 20), label("right", 150, 20)]))
        l.vstack(I.flex([0, 1]))
        l.hstack(I.flex([0], compressionResistancePriority: .required), I.fix(5), I.flex([1]))
        let r = try l.solve(containerSize: size(300, 40))
        #expect(frameIs(r.frames[0], 0, 0, 200, 40))
        #expect(frameIs(r.frames[1], 205, 0, 95, 40))
        // Without the override both resist at 750 and the result would be a tie; the
        // override is what makes the left label win.
        #expect(try l.lowered().items[0].horizontalCompressionResistance == .required)
    }

    @Test func labelsSplit() throws {
        // 320x50: 320 - 4*5 = 300 split 2:1:1 → 150, 75, 75.
        var l = FixFlexLayout(base: ConstraintLayout(items: [label("l1", 100, 20), label("l2", 100, 20), label("l3", 100, 20)]))
        l.vstack(I.fix(5), I.flex([0, 1, 2]), I.fix(5))
        l.hstack(I.fix(5), I.fill([0], weight: 2), I.fix(5), I.fill([1]), I.fix(5), I.fill([2]), I.fix(5))
        let r = try l.solve(containerSize: size(320, 50))
        #expect(frameIs(r.frames[0], 5, 5, 150, 40))
        #expect(frameIs(r.frames[1], 160, 5, 75, 40))
        #expect(frameIs(r.frames[2], 240, 5, 75, 40))
    }

    @Test func flexMinMax() throws {
        // 320x100; three labels 120x30: label1 keeps 120, label2 grows to its min 175,
        // label3 is capped at its max 100.
        var l = FixFlexLayout(base: ConstraintLayout(items: [label("l1", 120, 30), label("l2", 120, 30), label("l3", 120, 30)]))
        l.vstack(I.fix(5), I.flex([0]), I.flex([1]), I.flex([2]), I.fix(5))
        l.hstack(I.fix(5), I.flex([0]), I.flex(), I.fix(5))
        l.hstack(I.fix(5), I.flex([1], min: 175), I.flex(), I.fix(5))
        l.hstack(I.fix(5), I.flex([2], max: 100), I.flex(), I.fix(5))
        let r = try l.solve(containerSize: size(320, 100))
        #expect(frameIs(r.frames[0], 5, 5, 120, 30))
        #expect(frameIs(r.frames[1], 5, 35, 175, 30))
        #expect(frameIs(r.frames[2], 5, 65, 100, 30))
    }

    func betweenAnchors(absolute: Bool) -> FixFlexLayout {
        var l = FixFlexLayout(base: ConstraintLayout(items: [label("label", 100, 20), plainView("leadingView"), plainView("trailingView")]))
        let label = LayoutItemRef.item(0)
        l.vstack(I.flex([0, 1, 2]))
        l.hstack(I.fill(), I.flex([0]), I.fill())
        if absolute {
            l.hstack(startAnchor: label.left, endAnchor: label.right, useAbsolutePositioning: true,
                     I.fix([1], 20), I.flex(), I.fix([2], 20))
        } else {
            l.hstack(startAnchor: label.leading, endAnchor: label.trailing, I.fix([1], 20), I.flex(), I.fix([2], 20))
        }
        return l
    }

    @Test func putBetweenAnchors() throws {
        // 300x40: label centered at 100...200; 20-wide views at its leading and trailing ends.
        let l = betweenAnchors(absolute: false)
        let r = try l.solve(containerSize: size(300, 40))
        #expect(frameIs(r.frames[0], 100, 0, 100, 40))
        #expect(frameIs(r.frames[1], 100, 0, 20, 40))
        #expect(frameIs(r.frames[2], 180, 0, 20, 40))
        let rtl = try l.solve(containerSize: size(300, 40), direction: .rightToLeft)
        #expect(frameIs(rtl.frames[1], 180, 0, 20, 40))
        #expect(frameIs(rtl.frames[2], 100, 0, 20, 40))
    }

    @Test func putBetweenAnchorsAbsolute() throws {
        // Same, but left/right: RTL leaves the views where they are.
        let l = betweenAnchors(absolute: true)
        for direction in ReadingDirection.allCases {
            let r = try l.solve(containerSize: size(300, 40), direction: direction)
            #expect(frameIs(r.frames[0], 100, 0, 100, 40))
            #expect(frameIs(r.frames[1], 100, 0, 20, 40))
            #expect(frameIs(r.frames[2], 180, 0, 20, 40))
        }
    }

    @Test func shadowUsingMatch() throws {
        // 300x200; label 100x40 centered at (100, 80); matchView offset 10 down and 10
        // toward the trailing side, with the label's size.
        var l = FixFlexLayout(base: ConstraintLayout(items: [label("label", 100, 40), plainView("matchView")]))
        let label = LayoutItemRef.item(0)
        l.vstack(I.fill(), I.flex([0]), I.fill())
        l.hstack(I.fill(), I.flex([0]), I.fill())
        l.vstack(startAnchor: label.top, I.fix(10), I.match([1], dimension: label.height), I.flex())
        l.hstack(startAnchor: label.leading, I.fix(10), I.match([1], dimension: label.width), I.flex())
        let r = try l.solve(containerSize: size(300, 200))
        #expect(frameIs(r.frames[0], 100, 80, 100, 40))
        #expect(frameIs(r.frames[1], 110, 90, 100, 40))
        let rtl = try l.solve(containerSize: size(300, 200), direction: .rightToLeft)
        #expect(frameIs(rtl.frames[1], 90, 90, 100, 40))
    }

    @Test func offsetsMatchMultiplierAndSpacerGuides() throws {
        // startOffset 10, endOffset -10 (FixFlex: end == endAnchor + endOffset); a spacer
        // matching half the container width minus 20.
        var l = FixFlexLayout(base: ConstraintLayout(items: [plainView("v")]))
        l.hstack(startOffset: 10, endOffset: -10, I.match(dimension: parent.width, multiplier: 0.5, offset: -20), I.flex([0]))
        l.vstack(I.fix([0], 10), I.flex())
        let r = try l.solve(containerSize: size(200, 50))
        // spacer: 10...90 (80 wide), view 90...190.
        #expect(frameIs(r.frames[0], 90, 0, 100, 10))
        #expect(r.frames.count == 3)
        #expect(abs(Double(r.frames[1].left) - 10) <= 0.01 && abs(Double(r.frames[1].width) - 80) <= 0.01)
    }

    @Test func badStacksAreTypedErrors() throws {
        var l = FixFlexLayout(base: ConstraintLayout(items: [plainView("v")]))
        l.hstack(I.fill([3]))
        #expect(throws: ConstraintLayoutError.invalidStack(index: 0, reason: "intents[0]: view 3 does not exist")) { try l.lowered() }
        l.stacks = []
        l.hstack(startAnchor: LayoutItemRef.container.top, I.flex([0]))
        #expect(throws: ConstraintLayoutError.invalidStack(index: 0, reason: "start and end anchors must be positions on the stack's axis")) {
            try l.lowered()
        }
        l.stacks = []
        l.hstack(I.fill([0], weight: 0))
        #expect(throws: ConstraintLayoutError.invalidStack(index: 0, reason: "intents[0]: weight must be > 0")) { try l.lowered() }
    }
}
