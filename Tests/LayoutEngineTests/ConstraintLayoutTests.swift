import Testing
@testable import LayoutEngine

// The general anchor model: hand-checked frames, RTL mirroring, intrinsic content priorities,
// conflicts and validation.

@Suite struct ConstraintLayoutTests {
    /// icon (fixed 40x40) pinned to the leading edge + 16; title after it + 8 @750, trailing
    /// edge - 16 at most; vertically centered.
    func row() -> ConstraintLayout {
        var l = ConstraintLayout()
        let icon = l.addItem(plainView("icon"))
        let title = l.addItem(label("title", 100, 20))
        l.add(icon.leading.constraint(equalTo: LayoutItemRef.container.leading, constant: 16),
              icon.width.constraint(equalToConstant: 40),
              icon.height.constraint(equalTo: icon.width),
              icon.centerY.constraint(equalTo: LayoutItemRef.container.centerY),
              title.leading.constraint(equalTo: icon.trailing, constant: 8, priority: 750),
              title.trailing.constraint(lessThanOrEqualTo: LayoutItemRef.container.trailing, constant: -16),
              title.centerY.constraint(equalTo: icon.centerY))
        return l
    }

    @Test func rowLeftToRight() throws {
        let r = try row().solve(containerSize: ConstraintContainerSize(width: 300, height: 60))
        #expect(frameIs(r.frames[0], 16, 10, 40, 40))
        #expect(frameIs(r.frames[1], 64, 20, 100, 20))
    }

    @Test func rowRightToLeftMirrorsLeadingAndTrailing() throws {
        let r = try row().solve(containerSize: ConstraintContainerSize(width: 300, height: 60), direction: .rightToLeft)
        #expect(frameIs(r.frames[0], 300 - 16 - 40, 10, 40, 40))
        #expect(frameIs(r.frames[1], 300 - 64 - 100, 20, 100, 20))
    }

    @Test func compressionResistanceYieldsToRequiredSpace() throws {
        // 150 wide: the title needs 30 points it does not have. The spacing (750) and the
        // compression resistance (750) share a level, so how the 30 points split is
        // ambiguous; what is unique is that the required trailing inset holds exactly.
        let r = try row().solve(containerSize: ConstraintContainerSize(width: 150, height: 60))
        let f = r.frames[1]
        #expect(abs(Double(f.left + f.width) - 134) <= 0.01)
    }

    @Test func higherCompressionResistanceWins() throws {
        // Two labels side by side filling 200: a (intrinsic 150, compression 760) keeps its
        // size; b (intrinsic 150, compression 750) takes the shortfall.
        var l = ConstraintLayout()
        var aItem = label("a", 150, 20)
        aItem.horizontalCompressionResistance = 760
        let a = l.addItem(aItem)
        let b = l.addItem(label("b", 150, 20))
        let c = LayoutItemRef.container
        l.add(a.leading.constraint(equalTo: c.leading), b.leading.constraint(equalTo: a.trailing),
              b.trailing.constraint(equalTo: c.trailing), a.top.constraint(equalTo: c.top), b.top.constraint(equalTo: c.top))
        let r = try l.solve(containerSize: ConstraintContainerSize(width: 200, height: 20))
        #expect(frameIs(r.frames[0], 0, 0, 150, 20))
        #expect(frameIs(r.frames[1], 150, 0, 50, 20))
        // Lower hugging stretches first: b (hugging 200) grows, a (250) keeps 150.
        l.items[0].horizontalCompressionResistance = 750
        l.items[1].horizontalHugging = 200
        let r2 = try l.solve(containerSize: ConstraintContainerSize(width: 400, height: 20))
        #expect(frameIs(r2.frames[0], 0, 0, 150, 20))
        #expect(frameIs(r2.frames[1], 150, 0, 250, 20))
    }

    @Test func multiplierAndFittingContainer() throws {
        // a.width = 2 * b.width + 10; a.height = 0.5 * a.width; container hugs the content.
        var l = ConstraintLayout()
        let a = l.addItem(plainView("a"))
        let b = l.addItem(label("b", 30, 10))
        let c = LayoutItemRef.container
        l.add(a.width.constraint(equalTo: b.width, multiplier: 2, constant: 10),
              a.height.constraint(equalTo: a.width, multiplier: 0.5),
              a.left.constraint(equalTo: c.left, constant: 5), b.left.constraint(equalTo: a.right, constant: 5),
              c.right.constraint(greaterThanOrEqualTo: b.right, constant: 5),
              a.top.constraint(equalTo: c.top), b.top.constraint(equalTo: c.top),
              c.bottom.constraint(greaterThanOrEqualTo: a.bottom), c.bottom.constraint(greaterThanOrEqualTo: b.bottom))
        let r = try l.solve(containerSize: ConstraintContainerSize(width: nil, height: nil))
        #expect(frameIs(r.frames[0], 5, 0, 70, 35))
        #expect(frameIs(r.frames[1], 80, 0, 30, 10))
        #expect(abs(r.containerWidth - 115) <= 0.01)
        #expect(abs(r.containerHeight - 35) <= 0.01)
    }

    @Test func marginsAndCenters() throws {
        var l = ConstraintLayout(containerMargins: LayoutMargins(top: 10, leading: 20, bottom: 30, trailing: 40))
        let v = l.addItem(plainView("v"))
        let c = LayoutItemRef.container
        l.add(v.leading.constraint(equalTo: c.leadingMargin), v.trailing.constraint(equalTo: c.trailingMargin),
              v.top.constraint(equalTo: c.topMargin), v.bottom.constraint(equalTo: c.bottomMargin))
        let ltr = try l.solve(containerSize: ConstraintContainerSize(width: 200, height: 100))
        #expect(frameIs(ltr.frames[0], 20, 10, 140, 60))
        let rtl = try l.solve(containerSize: ConstraintContainerSize(width: 200, height: 100), direction: .rightToLeft)
        #expect(frameIs(rtl.frames[0], 40, 10, 140, 60))
    }

    @Test func requiredConflictNamesConstraints() throws {
        var l = ConstraintLayout()
        let v = l.addItem(plainView("v"))
        let c = LayoutItemRef.container
        l.add(v.leading.constraint(equalTo: c.leading, constant: 10, label: "v.leading = 10"),
              v.width.constraint(equalToConstant: 250, label: "v.width = 250"),
              v.top.constraint(equalTo: c.top, label: "v.top = 0"),
              v.trailing.constraint(lessThanOrEqualTo: c.trailing, label: "v.trailing <= container"))
        do {
            _ = try l.solve(containerSize: ConstraintContainerSize(width: 200, height: 50))
            Issue.record("expected a conflict")
        } catch ConstraintLayoutError.unsatisfiable(let conflict) {
            #expect(conflict.isMinimal)
            #expect(conflict.labels == ["container.width", "v.leading = 10", "v.width = 250", "v.trailing <= container"])
        }
    }

    @Test func invalidInputPointsAtTheCulprit() throws {
        var l = ConstraintLayout()
        let v = l.addItem(plainView("v"))
        l.add(v.width.constraint(equalTo: LayoutItemRef.container.leading))
        #expect(throws: ConstraintLayoutError.invalidConstraint(index: 0, reason: "cannot relate a position anchor to a size anchor")) {
            try l.solve(containerSize: ConstraintContainerSize(width: 10, height: 10))
        }
        l.constraints = [v.leading.constraint(equalTo: LayoutItemRef.container.left)]
        #expect(throws: ConstraintLayoutError.invalidConstraint(index: 0, reason: "cannot mix leading/trailing with left/right anchors")) {
            try l.solve(containerSize: ConstraintContainerSize(width: 10, height: 10))
        }
        l.constraints = [v.top.constraint(equalTo: LayoutItemRef.item(7).top)]
        #expect(throws: ConstraintLayoutError.invalidConstraint(index: 0, reason: "item 7 does not exist")) {
            try l.solve(containerSize: ConstraintContainerSize(width: 10, height: 10))
        }
        l.constraints = []
        #expect(throws: ConstraintLayoutError.invalidContainerSize) {
            try l.solve(containerSize: ConstraintContainerSize(width: -1, height: 10))
        }
    }

    @Test func deterministicForAmbiguousLayouts() throws {
        // Two labels share a row with 100 points of slack and equal hugging: ambiguous, but
        // each solve must give the same frames.
        var l = ConstraintLayout()
        let a = l.addItem(label("a", 50, 20)), b = l.addItem(label("b", 50, 20))
        let c = LayoutItemRef.container
        l.add(a.leading.constraint(equalTo: c.leading), b.leading.constraint(equalTo: a.trailing),
              b.trailing.constraint(equalTo: c.trailing))
        let first = try l.solve(containerSize: ConstraintContainerSize(width: 200, height: 20))
        for _ in 0..<5 {
            #expect(try l.solve(containerSize: ConstraintContainerSize(width: 200, height: 20)) == first)
        }
        #expect(abs(Double(first.frames[0].width + first.frames[1].width) - 200) <= 0.01)
    }
}
