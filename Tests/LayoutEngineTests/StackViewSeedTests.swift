import LayoutEngine
import LayoutTestSupport
import Testing

// Every example of the StackViewLayout README (seed 002), built with the model, computed,
// and checked against frames worked out by hand (arithmetic in the comments). The README
// shows pictures, not numbers, so the buttons get sizes here: a button's `sizeThatFits`
// answer is its content size.

private typealias StackView = StackViewLayout.StackView
private typealias StackItem = StackViewLayout.StackItem

private func button(_ width: Float = 60, _ height: Float = 40) -> StackItem {
    StackItem(width: width, height: height)
}

@Suite struct StackViewIntroTests {
    // The intro lays the stack out 300 wide and fits its height to the items
    // (`sizeToFit(.width)`): height nil. Buttons answer 60×40.

    @Test func rowOfFourButtons() throws {
        // x = 60 i; the row is as tall as its tallest item.
        let stack = StackView().direction(.row)
            .addItem(button()).addItem(button()).addItem(button()).addItem(button())
        let frames = try stack.layout(width: 300, height: nil)
        #expect(frames.frame == frame(0, 0, 300, 40))
        #expect(itemFrames(frames) == [0, 60, 120, 180].map { frame($0, 0, 60, 40) })
    }

    @Test func marginsBetweenButtons() throws {
        // x: 0, 60 + 10, 130 + 10, 200 + 10.
        let stack = StackView().direction(.row)
            .addItem(button()).addItem(button().marginLeft(10))
            .addItem(button().marginLeft(10)).addItem(button().marginLeft(10))
        let frames = try stack.layout(width: 300, height: nil)
        #expect(itemFrames(frames) == [0, 70, 140, 210].map { frame($0, 0, 60, 40) })
    }

    @Test func spaceBetweenDistributesTheRest() throws {
        // 4 × 60 + 3 × 10 = 270; 30 left, 10 per gap: 0, 80, 160, 240.
        let stack = StackView().direction(.row).justifyContent(.spaceBetween)
            .addItem(button()).addItem(button().marginLeft(10))
            .addItem(button().marginLeft(10)).addItem(button().marginLeft(10))
        let frames = try stack.layout(width: 300, height: nil)
        #expect(itemFrames(frames) == [0, 80, 160, 240].map { frame($0, 0, 60, 40) })
    }

    @Test func narrowStackOverflowsWithoutShrink() throws {
        // 198 wide: items keep 60 (shrink defaults to 0) and run past the edge.
        let stack = StackView().direction(.row).justifyContent(.spaceBetween)
            .addItem(button()).addItem(button().marginLeft(10))
            .addItem(button().marginLeft(10)).addItem(button().marginLeft(10))
        let frames = try stack.layout(width: 198, height: nil)
        #expect(itemFrames(frames) == [0, 70, 140, 210].map { frame($0, 0, 60, 40) })
    }

    @Test func equalShrinkFitsTheNarrowStack() throws {
        // 270 in 198: 72 too much, 18 off each equal item: 42 wide at 0, 52, 104, 156.
        let stack = StackView().direction(.row).justifyContent(.spaceBetween)
            .addItem(button().shrink(1)).addItem(button().marginLeft(10).shrink(1))
            .addItem(button().marginLeft(10).shrink(1)).addItem(button().marginLeft(10).shrink(1))
        let frames = try stack.layout(width: 198, height: nil)
        #expect(itemFrames(frames) == [0, 52, 104, 156].map { frame($0, 0, 42, 40) })
    }

    @Test func aspectRatioKeepsButtonsProportional() throws {
        // Shrunk to 42 wide as above; ratio 2 makes them 21 tall, and the row fits them.
        let stack = StackView().direction(.row).justifyContent(.spaceBetween)
            .addItem(button().shrink(1).aspectRatio(2)).addItem(button().marginLeft(10).shrink(1).aspectRatio(2))
            .addItem(button().marginLeft(10).shrink(1).aspectRatio(2))
            .addItem(button().marginLeft(10).shrink(1).aspectRatio(2))
        let frames = try stack.layout(width: 198, height: nil)
        #expect(frames.frame == frame(0, 0, 198, 21))
        #expect(itemFrames(frames) == [0, 52, 104, 156].map { frame($0, 0, 42, 21) })
    }
}

@Suite struct StackViewLayoutingTests {
    private var threeButtons: StackView {
        StackView().addItem(button(100)).addItem(button(100).marginTop(10)).addItem(button(100).marginTop(10))
    }

    @Test func fixedSizeColumn() throws {
        // 300×400, column, stretch: full width, y 0, 40 + 10, 90 + 10.
        let frames = try threeButtons.layout(width: 300, height: 400)
        #expect(frames.frame == frame(0, 0, 300, 400))
        #expect(itemFrames(frames) == [0, 50, 100].map { frame(0, $0, 300, 40) })
    }

    @Test func heightAdjustsToItems() throws {
        // Only the width is given: 40 + 50 + 50 = 140 tall.
        let frames = try threeButtons.layout(width: 300, height: nil)
        #expect(frames.frame == frame(0, 0, 300, 140))
        #expect(itemFrames(frames) == [0, 50, 100].map { frame(0, $0, 300, 40) })
    }

    @Test func justifyContentHasNoEffectWhenTheStackFitsItsItems() throws {
        let frames = try threeButtons.justifyContent(.end).layout(width: 300, height: nil)
        #expect(itemFrames(frames) == [0, 50, 100].map { frame(0, $0, 300, 40) })
    }

    @Test func rowStretchesAndOverflows() throws {
        // Direction example 2: 120-wide buttons in a 300×400 row run to 360, and stretch
        // makes them 400 tall (390 below a top margin of 10).
        let stack = StackView().direction(.row)
            .addItem(button(120)).addItem(button(120).marginTop(10)).addItem(button(120).marginTop(10))
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(0, 0, 120, 400), frame(120, 10, 120, 390), frame(240, 10, 120, 390)])
    }

    @Test func rowAlignedToStartWithShrink() throws {
        // Buttons 100, 120, 130: 350 + 20 of margins = 370 in 300, 70 too much. Shrink is
        // weighted by size: 70 / 350 = 20 % off each: 80, 96, 104 at 0, 90, 196.
        let stack = StackView().direction(.row).alignItems(.start)
            .addItem(button(100).shrink(1)).addItem(button(120).marginLeft(10).shrink(1))
            .addItem(button(130).marginLeft(10).shrink(1))
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(0, 0, 80, 40), frame(90, 0, 96, 40), frame(196, 0, 104, 40)])
    }
}
