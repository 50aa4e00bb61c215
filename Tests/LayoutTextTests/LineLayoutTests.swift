import Testing
import LayoutTextModel
@testable import LayoutText

// Line breaking (UAX #14, white space, overflow-wrap), line boxes, alignment and clamping.
@Suite struct LineLayoutTests {
    let fox = "The quick brown fox jumps over the lazy dog"

    @Test func wrapsAtWordsLikeChromium() {
        // Chromium: 150 px wide, 57 px tall (three 19 px lines).
        let result = layout(fox, width: 150)
        #expect(result.lines.map(\.text) == ["The quick brown", "fox jumps over", "the lazy dog"])
        #expect(result.height == 57)
        #expect(result.lines.map(\.top) == [0, 19, 38])
        #expect(result.lines.map(\.baseline) == [15, 34, 53])
        #expect(result.width == result.lines[0].width && result.width <= 150)
    }

    @Test func aLineFitsOneLayoutUnitPastTheWidth() {
        // As Blink's line breaker (Chromium latin-099: a 118.002 px line fits in 118 px).
        let w = layout("ab cd").width
        #expect(layout("ab cd", width: w - 1.0 / 64).lines.count == 1)
        #expect(layout("ab cd", width: w - 2.0 / 64).lines.count == 2)
    }

    @Test func breaksAfterHyphensAndKeepsNoBreakSpaces() {
        let narrow = layout("well-known", width: 50).lines.map(\.text)
        #expect(narrow == ["well-", "known"])
        #expect(lineTexts("a\u{00A0}b c", width: 1) == ["a\u{00A0}b", "c"])
        // No break after "/" before an ASCII character, as Chromium's ASCII table (longwords-009).
        #expect(lineTexts("see example.com/a/b and/or", width: 1) == ["see", "example.com/a/b", "and/or"])
    }

    @Test func whiteSpaceCollapsingPerMode() {
        let text = "  a   b\n\tc  \n d "
        #expect(lineTexts(text) == ["a b c d"])
        #expect(lineTexts(text) { $0.whiteSpace = .nowrap } == ["a b c d"])
        #expect(lineTexts(text) { $0.whiteSpace = .preLine } == ["a b", "c", "d"])
        #expect(lineTexts(text) { $0.whiteSpace = .pre } == ["  a   b", "\tc  ", " d "])
        // pre-wrap keeps the spaces; those at a line's end hang (no width).
        let preWrap = layout("ab   \ncd") { $0.whiteSpace = .preWrap }
        #expect(preWrap.lines.map(\.text) == ["ab   ", "cd"])
        #expect(preWrap.lines[0].width == layout("ab").width)
    }

    @Test func nowrapAndPreNeverWrapSoftly() {
        #expect(layout(fox, width: 100) { $0.whiteSpace = .nowrap }.lines.count == 1)
        #expect(layout(fox, width: 100) { $0.whiteSpace = .pre }.lines.count == 1)
        #expect(layout(fox, width: 100) { $0.whiteSpace = .preWrap }.lines.count > 1)
    }

    @Test func overflowWrapBreaksLongWords() {
        let word = "Supercalifragilisticexpialidocious"
        let normal = layout(word, width: 100)
        #expect(normal.lines.count == 1 && normal.width > 100)
        let broken = layout(word, width: 100) { $0.overflowWrap = .breakWord }
        #expect(broken.lines.count > 2)
        #expect(broken.lines.allSatisfy { $0.width <= 100 })
        #expect(broken.lines.map(\.text).joined() == word)
        // Min-content: the word for break-word, one letter for anywhere.
        let prepared = { (wrap: OverflowWrap) in
            sharedLayouter.prepare(TextContent(word, style: style { $0.overflowWrap = wrap }))
        }
        #expect(prepared(.breakWord).minContentWidth == normal.width)
        #expect(prepared(.anywhere).minContentWidth < 20)
    }

    @Test func intrinsicWidths() {
        let prepared = sharedLayouter.prepare(TextContent(fox))
        #expect(prepared.maxContentWidth == layout(fox).width)
        #expect(prepared.minContentWidth == fox.split(separator: " ").map { layout(String($0)).width }.max())
        #expect(prepared.intrinsicWidths == (prepared.minContentWidth, prepared.maxContentWidth))
        // Where text cannot wrap, overflowWrap anywhere breaks nothing: min-content is the line.
        let nowrap = sharedLayouter.prepare(TextContent(fox, style: style { $0.whiteSpace = .nowrap; $0.overflowWrap = .anywhere }))
        #expect(nowrap.minContentWidth == nowrap.maxContentWidth)
    }

    @Test func minContentSnapsEachPiecesEndsAsBlink() {
        // Chromium: "trailing" after "hang " in 13 px DejaVu Sans Mono is a flex item's
        // min-content width of 62.609375 px (its end and start positions, 101.75 and 39.14 px,
        // each snapped up to 1/64 px); the word alone, or its width snapped up, is 62.625.
        let mono: (inout TextStyle) -> Void = { $0.fontFamilies = ["DejaVu Sans Mono"]; $0.fontSize = 13 }
        #expect(sharedLayouter.prepare(TextContent("hang trailing", style: style(mono))).minContentWidth == 62.609375)
        #expect(sharedLayouter.prepare(TextContent("trailing", style: style(mono))).minContentWidth == 62.625)
        #expect(layout("trailing", mono).width == 62.625)
        // Right to left, the left edge is the item's logical end (Chromium: flex items in a
        // 1 px row, DejaVu Sans).
        let chromium: [(String, Float, Float)] = [
            ("שלום עולם, זהו", 13, 31.828125), ("שלום עולם, זהו", 17, 41.625), ("שלום עולם, זהו", 23, 56.3125),
            ("דג סקרן שט", 13, 28.53125), ("דג סקרן שט", 17, 37.3125), ("דג סקרן שט", 23, 50.484375),
            ("הכלב העצלן! עברית", 13, 40.484375), ("הכלב העצלן! עברית", 17, 52.9375), ("הכלב העצלן! עברית", 23, 71.640625),
        ]
        for (text, size, width) in chromium {
            #expect(sharedLayouter.prepare(TextContent(text, style: style { $0.fontSize = size })).minContentWidth == width,
                    "\(text) at \(size) px")
        }
    }

    @Test func measureTakesTheFitContentWidth() {
        let prepared = sharedLayouter.prepare(TextContent(fox))
        let (minContent, maxContent) = prepared.intrinsicWidths
        // Text that fits takes its max-content width; text that wraps fills the width offered,
        // not its widest line (Chromium: a 150 px fit-content box, three lines).
        #expect(prepared.measure(available: maxContent + 50, exact: false) == (maxContent, 19))
        #expect(prepared.measure(available: 150, exact: false) == (150, 57))
        #expect(prepared.measure(available: nil, exact: false) == (maxContent, 19))
        #expect(prepared.measure(available: 150, exact: true) == (150, 57))
        // Offered less than its longest word, the box is the word's width and its lines are
        // broken there (break-word breaks no word to fit what is offered).
        let narrow = prepared.measure(available: 10, exact: false)
        #expect(narrow.width == minContent)
        #expect(narrow.height == Float(prepared.layout(available: minContent).lines.count) * 19)
        let breakWord = sharedLayouter.prepare(TextContent(fox, style: style { $0.overflowWrap = .breakWord }))
        #expect(breakWord.measure(available: 10, exact: false) == narrow)
    }

    @Test func measuringAgainWithAMemoGivesTheLinesSizes() {
        // A memo keeps what does not depend on the width (and the last width's size); each
        // answer must still be the size of the lines broken at that width. Texts where a
        // width beyond max-content changes the lines too: a soft hyphen's hyphen, an
        // ellipsis cut to the width, negative letter spacing.
        let cases: [(String, (inout TextStyle) -> Void)] = [
            (fox, { _ in }),
            ("Donau\u{00AD}dampf\u{00AD}schiff fährt", { _ in }),
            // At its max-content width "i‐" (the hyphen wider than an i) overflows: two lines.
            ("i\u{00AD}i", { _ in }),
            (fox, { $0.maxLines = 1; $0.textOverflow = .ellipsis }),
            (fox, { $0.maxLines = 2 }),
            (fox, { $0.letterSpacing = -9 }),
            ("ab   \ncd  ef\t g", { $0.whiteSpace = .preWrap }),
        ]
        for (text, configure) in cases {
            let prepared = sharedLayouter.prepare(TextContent(text, style: style(configure)))
            let maxContent = prepared.maxContentWidth
            var memo = MeasureMemo()
            // Widest first, then narrow, then each width twice: the memo is used in every state.
            for width in [maxContent + 40, maxContent, 20, maxContent * 0.6, maxContent * 0.6, maxContent, maxContent + 40] {
                let lines = prepared.layout(available: width)
                #expect(prepared.measure(available: width, exact: true, memo: &memo) == (width, lines.height), "\(text) at \(width)")
                let fit = prepared.measure(available: width, exact: false)
                #expect(prepared.measure(available: width, exact: false, memo: &memo) == fit, "\(text) at \(width)")
            }
            #expect(prepared.measure(available: nil, exact: false, memo: &memo) == prepared.measure(available: nil, exact: false))
        }
    }

    @Test func alignment() {
        let text = "ab cd"
        let w = layout("ab").width
        #expect(layout(text, width: w + 10) { $0.textAlign = .left }.lines[0].left == 0)
        let right = layout(text, width: 100) { $0.textAlign = .right }
        #expect(right.lines.allSatisfy { $0.left == 100 - $0.width })
        let center = layout("ab", width: 100) { $0.textAlign = .center }.lines[0]
        #expect(center.left == (100 - center.width) / 2)
        #expect(layout("ab", width: 100) { $0.textAlign = .end }.lines[0].left == 100 - w)
        #expect(layout("ab", width: 100) { $0.rightToLeft = true }.lines[0].left == 100 - w)
        // Justify stretches every line but the last.
        let justified = layout(fox, width: 150) { $0.textAlign = .justify }
        #expect(justified.lines[0].width == 150 && justified.lines[1].width == 150)
        #expect(justified.lines[2].width < 150 && justified.lines[2].left == 0)
    }

    @Test func aLineWiderThanTheBoxIsStartAligned() {
        let word = "Supercalifragilisticexpialidocious"
        for align in [TextAlign.right, .center, .end] {
            #expect(layout(word, width: 50) { $0.textAlign = align }.lines[0].left == 0)
            let rtl = layout(word, width: 50) { $0.textAlign = align; $0.rightToLeft = true }.lines[0]
            #expect(rtl.left == 50 - rtl.width)
        }
    }

    @Test func preWrapSpacesEndingAParagraphCountForAlignment() {
        // Chromium (spaces-043): the spaces before a kept newline or the text's end take room
        // up to the box's edge; those at a soft wrap hang.
        let spaces = layout("ab  ") { $0.whiteSpace = .pre }.width - layout("ab").width
        let ended = layout("ab  \ncd", width: 100) { $0.whiteSpace = .preWrap; $0.textAlign = .right }.lines[0]
        #expect(ended.left == 100 - ended.width - spaces)
        let tight = layout("ab  ", width: layout("ab").width + 1) { $0.whiteSpace = .preWrap; $0.textAlign = .right }.lines[0]
        #expect(tight.left == 0)
        let box = layout("ab  c").width - 1
        let wrapped = layout("ab  cd", width: box) { $0.whiteSpace = .preWrap; $0.textAlign = .right }
        #expect(wrapped.lines.count == 2 && wrapped.lines[0].left == box - wrapped.lines[0].width)
    }

    @Test func lineHeightKinds() {
        #expect(layout(fox, width: 150) { $0.lineHeight = .pixels(24) }.height == 72)
        let percent = layout("x") { $0.fontSize = 13; $0.lineHeight = .percent(150) }
        #expect(percent.height == 19.5)  // Chromium: 19.5
        // Half the leading above the text, floored: (30 - 19) / 2 -> 5.
        #expect(layout("x") { $0.lineHeight = .pixels(30) }.lines[0].baseline == 15 + 5)
    }

    @Test func maxLinesClipsOrEllipsizes() {
        let clipped = layout(fox, width: 150) { $0.maxLines = 2 }
        #expect(clipped.lines.map(\.text) == ["The quick brown", "fox jumps over"])
        #expect(clipped.height == 38)
        let ellipsis = layout(fox, width: 150) { $0.maxLines = 2; $0.textOverflow = .ellipsis }
        #expect(ellipsis.lines.count == 2)
        #expect(ellipsis.lines[1].text.hasSuffix("\u{2026}"))
        #expect(ellipsis.lines[1].width <= 150)
        // Single-line ellipsis on text that does not fit.
        let single = layout(fox, width: 100) { $0.whiteSpace = .nowrap; $0.textOverflow = .ellipsis }
        #expect(single.lines.count == 1 && single.lines[0].text.hasSuffix("\u{2026}") && single.width <= 100)
    }

    @Test func spansMixStylesOnOneLine() {
        var bold = TextStyle()
        bold.fontWeight = 700
        var big = TextStyle()
        big.fontSize = 32
        let plain = TextStyle()
        let mixed = sharedLayouter.prepare(TextContent(style: plain, spans: [
            TextSpan(text: "Hello ", style: bold), TextSpan(text: "world", style: plain),
        ])).layout(available: nil)
        #expect(mixed.lines.map(\.text) == ["Hello world"])
        #expect(mixed.width > layout("Hello world").width)
        // A larger span makes the line taller; the strut keeps the paragraph's own metrics.
        let tall = sharedLayouter.prepare(TextContent(style: plain, spans: [
            TextSpan(text: "a ", style: plain), TextSpan(text: "B", style: big),
        ])).layout(available: nil)
        #expect(tall.height == 38 && tall.firstBaseline == 30)
    }

    @Test func tabsAdvanceToTabStops() {
        // Chromium (white-space: pre): 90.171875; a tab goes to the next multiple of 8 spaces.
        #expect(layout("a\tb\tc") { $0.whiteSpace = .pre }.width == 90.171875)
    }

    @Test func softHyphensShowAHyphenWhereTheLineBreaks() {
        let broken = layout("word\u{AD}break soft hyphen", width: 60)
        #expect(broken.lines.map(\.text) == ["word\u{2010}", "break", "soft", "hyphen"])
        #expect(broken.height == 76)  // Chromium: 60 x 76
        let whole = layout("word\u{AD}break")
        #expect(whole.lines.count == 1 && whole.width == layout("wordbreak").width)
    }

    @Test func emptyTextHasNoLines() {
        #expect(layout("").lines.isEmpty && layout("").height == 0)
        #expect(layout("   ").height == 0)
    }
}
