import LayoutEngine
import LayoutTestSupport
import Testing

// StackViewLayout's container and item properties (seed 002 sections 3 and 4), each in a
// small stack with frames worked out by hand. Items answer 100×40 unless noted.

private typealias StackView = StackViewLayout.StackView
private typealias StackItem = StackViewLayout.StackItem

private func item(_ width: Float = 100, _ height: Float = 40) -> StackItem {
    StackItem(width: width, height: height)
}

@Suite struct StackViewPropertyTests {
    @Test func defaults() {
        let stack = StackView()
        #expect(stack.direction == .column && stack.justifyContent == .start && stack.alignItems == .stretch)
        let item = StackItem(width: 1, height: 1)
        #expect(item.grow == 0 && item.shrink == 0 && item.alignSelf == .auto)
        #expect(!item.isHidden && item.isIncludedInLayout)
    }

    @Test(arguments: [
        // Column 300×420, three 40-tall items: 120 used, 300 free.
        (StackViewLayout.JustifyContent.start, [Float(0), 40, 80]),
        (.center, [150, 190, 230]),       // offset 150
        (.end, [300, 340, 380]),          // offset 300
        (.spaceBetween, [0, 190, 380]),   // 150 per gap
        (.spaceAround, [50, 190, 330]),   // 100 per item, 50 at each end
        (.spaceEvenly, [75, 190, 305]),   // 300 / 4 = 75 per space
    ])
    func justifyContentColumn(_ justify: StackViewLayout.JustifyContent, _ ys: [Float]) throws {
        let stack = StackView(justifyContent: justify, items: [item(), item(), item()])
        let frames = try stack.layout(width: 300, height: 420)
        #expect(itemFrames(frames) == ys.map { frame(0, $0, 300, 40) })
    }

    @Test(arguments: [
        // Row 420×100, three 100-wide items: 300 used, 120 free.
        (StackViewLayout.JustifyContent.start, [Float(0), 100, 200]),
        (.center, [60, 160, 260]),
        (.end, [120, 220, 320]),
        (.spaceBetween, [0, 160, 320]),  // 60 per gap
        (.spaceAround, [20, 160, 300]),  // 40 per item, 20 at each end
        (.spaceEvenly, [30, 160, 290]),  // 120 / 4 = 30
    ])
    func justifyContentRow(_ justify: StackViewLayout.JustifyContent, _ xs: [Float]) throws {
        let stack = StackView(direction: .row, justifyContent: justify, items: [item(), item(), item()])
        let frames = try stack.layout(width: 420, height: 100)
        #expect(itemFrames(frames) == xs.map { frame($0, 0, 100, 100) })
    }

    @Test(arguments: [
        // Column 300×400: the cross axis is horizontal, 300 wide.
        (StackViewLayout.AlignItems.stretch, frame(0, 0, 300, 40)),
        (.start, frame(0, 0, 100, 40)),
        (.center, frame(100, 0, 100, 40)), // (300 - 100) / 2
        (.end, frame(200, 0, 100, 40)),
    ])
    func alignItemsColumn(_ align: StackViewLayout.AlignItems, _ expected: Frame) throws {
        let frames = try StackView(alignItems: align, items: [item()]).layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [expected])
    }

    @Test(arguments: [
        // Row 300×400: the cross axis is vertical, 400 tall.
        (StackViewLayout.AlignItems.stretch, frame(0, 0, 100, 400)),
        (.start, frame(0, 0, 100, 40)),
        (.center, frame(0, 180, 100, 40)), // (400 - 40) / 2
        (.end, frame(0, 360, 100, 40)),
    ])
    func alignItemsRow(_ align: StackViewLayout.AlignItems, _ expected: Frame) throws {
        let frames = try StackView(direction: .row, alignItems: align, items: [item()]).layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [expected])
    }

    @Test func alignSelfOverridesAlignItems() throws {
        let stack = StackView(alignItems: .start, items: [item(), item().alignSelf(.end), item().alignSelf(.stretch),
                                                          item().alignSelf(.center)])
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(0, 0, 100, 40), frame(200, 40, 100, 40), frame(0, 80, 300, 40),
                                       frame(100, 120, 100, 40)])
    }

    @Test func growSharesTheFreeSpace() throws {
        // Column 300×420: 300 free, split 1 : 2 = 100 and 200. Heights 140, 40, 240.
        let stack = StackView(items: [item().grow(1), item(), item().grow(2)])
        let frames = try stack.layout(width: 300, height: 420)
        #expect(itemFrames(frames) == [frame(0, 0, 300, 140), frame(0, 140, 300, 40), frame(0, 180, 300, 240)])
    }

    @Test func shrinkIsProportional() throws {
        // Row 200 wide, three 100-wide items: 100 too much. Weighted by size, shrink 3 : 1 : 1
        // takes 60, 20, 20: widths 40, 80, 80.
        let stack = StackView(direction: .row, alignItems: .start,
                              items: [item().shrink(3), item().shrink(1), item().shrink(1)])
        let frames = try stack.layout(width: 200, height: 100)
        #expect(itemFrames(frames) == [frame(0, 0, 40, 40), frame(40, 0, 80, 40), frame(120, 0, 80, 40)])
    }

    @Test func widthHeightAndSize() throws {
        // Column 300×400, alignItems start: 50 % of 300 = 150 wide; 25 % of 400 = 100 tall;
        // a 250 square.
        let stack = StackView(alignItems: .start, items: [
            item().width(.percent(50)), item().height(.percent(25)), item().size(250),
        ])
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(0, 0, 150, 40), frame(0, 40, 100, 100), frame(0, 140, 250, 250)])
    }

    @Test func maxWidthCapsTheStretch() throws {
        // Stretch to 300, capped at 200 and at 50 % = 150.
        let stack = StackView(items: [item().maxWidth(.points(200)), item().maxWidth(.percent(50))])
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(0, 0, 200, 40), frame(0, 40, 150, 40)])
    }

    @Test func minWidthStopsTheShrink() throws {
        // Row 200, two 150-wide items shrinking equally: 50 each would leave 100, but the
        // first may not go under 120, so the second takes the rest of the cut: 80.
        let stack = StackView(direction: .row, alignItems: .start,
                              items: [item(150).shrink(1).minWidth(.points(120)), item(150).shrink(1)])
        let frames = try stack.layout(width: 200, height: 100)
        #expect(itemFrames(frames) == [frame(0, 0, 120, 40), frame(120, 0, 80, 40)])
    }

    @Test func minAndMaxHeight() throws {
        // 40-tall content raised to 60; a grown item capped at 100 (free space 400 - 60 - 40).
        let stack = StackView(items: [item().minHeight(.points(60)), item().grow(1).maxHeight(.points(100))])
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(0, 0, 300, 60), frame(0, 60, 300, 100)])
    }

    @Test func marginsOnEveryEdge() throws {
        // Column 300×400. margin(10, 12, 0, 12): x 12, y 10, 276 wide. marginHorizontal(20):
        // x 20, 260 wide, right after the first (50). margin(5): 5 all round, y 50 + 40 + 5.
        let stack = StackView(items: [
            item().margin(StackViewLayout.Insets(top: .points(10), left: .points(12), bottom: .points(0), right: .points(12))),
            item().marginHorizontal(.points(20)),
            item().margin(.points(5)),
        ])
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(12, 10, 276, 40), frame(20, 50, 260, 40), frame(5, 95, 290, 40)])
    }

    @Test func startAndEndMarginsFollowTheLayoutDirection() throws {
        // marginStart 10, marginEnd 30 in a 300-wide column: LTR x 10, RTL x 30; 260 wide.
        let stack = StackView(items: [item().marginStart(.points(10)).marginEnd(.points(30))])
        let ltr = try stack.layout(width: 300, height: 400, direction: .ltr)
        let rtl = try stack.layout(width: 300, height: 400, direction: .rtl)
        #expect(itemFrames(ltr) == [frame(10, 0, 260, 40)])
        #expect(itemFrames(rtl) == [frame(30, 0, 260, 40)])
    }

    @Test func horizontalPercentMarginsResolveAgainstTheWidth() throws {
        // 10 % of the 300 width = 30 on the left.
        let stack = StackView(items: [item().marginLeft(.percent(10))])
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(30, 0, 270, 40)])
    }

    @Test func verticalPercentMarginsResolveAgainstTheHeight() throws {
        // StackViewLayout's difference from flexbox: 10 % top and 5 % bottom of the 400
        // height are 40 and 20 (flexbox would take 30 and 15 of the width). y: 40, then
        // 40 + 40 + 20 = 100.
        let stack = StackView(items: [item().marginTop(.percent(10)).marginBottom(.percent(5)), item()])
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(0, 40, 300, 40), frame(0, 100, 300, 40)])
    }

    @Test func verticalPercentMarginsOnTheCrossAxis() throws {
        // In a row the top margin is on the cross axis: 10 % of 400 = 40; stretch leaves 360.
        let stack = StackView(direction: .row, items: [item().marginTop(.percent(10))])
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(0, 40, 100, 360)])
    }

    @Test func percentMarginsWithPaddingResolveAgainstTheFullSize() throws {
        // StackViewLayout resolves margin percentages against the stack's frame, padding
        // included: 300×400 with padding 20, 10 % margins are 30 left and right, 40 top and
        // bottom. First item at (20 + 30, 20 + 40), 360 - 60 = 200 wide; the second follows
        // its 40 bottom margin at 60 + 40 + 40 = 140, with the 20 of padding only.
        let stack = StackView(items: [item().margin(.percent(10)), item()]).padding(20)
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(50, 60, 200, 40), frame(20, 140, 260, 40)])
    }

    @Test func paddingInsetsTheItems() throws {
        let frames = try StackView(items: [item()]).padding(10).layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(10, 10, 280, 40)])
    }

    @Test func aspectRatioFromTheStretchedWidth() throws {
        // Stretched to 300, ratio 2: 150 tall; the next item follows at 150.
        let stack = StackView(items: [item(10, 10).aspectRatio(2), item()])
        let frames = try stack.layout(width: 300, height: 400)
        #expect(itemFrames(frames) == [frame(0, 0, 300, 150), frame(0, 150, 300, 40)])
    }

    @Test func hiddenAndExcludedItemsTakeNoSpace() throws {
        let stack = StackView(items: [item(), item().isHidden(true), item().isIncludedInLayout(false), item()])
        let frames = try stack.layout(width: 300, height: 400)
        #expect(frames.items[0].frame == frame(0, 0, 300, 40))
        #expect(frames.items[3].frame == frame(0, 40, 300, 40))
        #expect(frames.items[1].frame.height == 0 && frames.items[2].frame.height == 0)
    }

    @Test func insertItemKeepsOrder() {
        let stack = StackView().addItem(item(1)).addItem(item(3)).insertItem(item(2), at: 1).insertItem(item(4), at: 99)
        #expect(stack.items.map(\.content) == [1, 2, 3, 4].map { .size(Size(width: $0, height: 40)) })
    }

    @Test func refusedValuesThrow() {
        var tree = LayoutTree()
        #expect(throws: StyleError.self) {
            try StackView(items: [item().grow(-1)]).append(to: &tree)
        }
        #expect(throws: StyleError.self) {
            try StackView(items: [item(.nan, 1)]).append(to: &tree)
        }
    }
}
