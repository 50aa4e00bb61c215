import Testing
import LayoutTextModel
@testable import LayoutText

// HarfBuzz shaping at subpixel precision; figures marked "Chromium" were read from headless
// Chromium (--font-render-hinting=none, @font-face on the same files).
@Suite struct ShapingTests {
    @Test func widthsMatchChromium() {
        #expect(layout("Item 1").width == 51.6875)  // Chromium: 51.6875 x 19
        #expect(layout("Item 1") { $0.fontSize = 10 }.width == 32.3125)  // Chromium: 32.3125 x 11
    }

    @Test func kerningNarrowsPairs() {
        let av = layout("AV").width, a = layout("A").width, v = layout("V").width
        #expect(av < a + v - 0.5)
    }

    @Test func arabicJoinsAndRunsRightToLeft() {
        // Joined forms differ in width from the isolated letters laid side by side.
        let word = layout("سلام").width
        let isolated = layout("س ل ا م").width - 3 * layout(" ").width
        #expect(abs(word - isolated) > 0.5)
        let line = layout("שלום עולם") { $0.rightToLeft = true; $0.textAlign = .start }
        #expect(line.lines.count == 1 && line.lines[0].text == "שלום עולם")
    }

    @Test func letterSpacingAfterEveryCluster() {
        let plain = layout("abcd").width
        let spaced = layout("abcd") { $0.letterSpacing = 2 }.width
        #expect(abs(spaced - (plain + 8)) < 0.02)
        // A base letter and its combining mark are one cluster: one spacing.
        let combining = layout("e\u{0301}") { $0.letterSpacing = 2 }.width - layout("e\u{0301}").width
        #expect(abs(combining - 2) < 0.02)
    }

    @Test func noLetterSpacingInArabicRunsButTheirSpaces() {
        func added(_ text: String) -> Float {
            layout(text) { $0.letterSpacing = 2; $0.whiteSpace = .pre }.width - layout(text) { $0.whiteSpace = .pre }.width
        }
        // Chromium (bidi-019, arabic-026): the period and the digits after Arabic letters are in
        // their run and unspaced; the space is spaced; Latin letters and what follows them are.
        #expect(abs(added("ثوب. 42 ثوب") - 4) < 0.02)
        #expect(abs(added("ثوب ab. 4") - 12) < 0.02)
    }

    @Test func shapeCacheServesRepeatedWords() {
        let layouter = TextLayouter(shapeCacheCapacity: 1000)
        _ = layouter.prepare(TextContent("alpha beta gamma"))
        let first = layouter.shapeCacheStatistics
        #expect(first.misses == 3 && first.hits == 0)
        _ = layouter.prepare(TextContent("gamma beta alpha", style: style { $0.fontSize = 30 }))
        let second = layouter.shapeCacheStatistics
        // "beta " is the same word (at another size); "gamma " and "alpha" (no space) are new.
        #expect(second.hits == 1 && second.misses == 5)
    }
}

@Suite struct ShapeCacheBoundTests {
    @Test func theCacheIsBounded() {
        // Capacity 4: two generations of 2; six words push the first ones out.
        let layouter = TextLayouter(shapeCacheCapacity: 4)
        for word in ["a", "b", "c", "d", "e", "f"] { _ = layouter.prepare(TextContent(word)) }
        _ = layouter.prepare(TextContent("f"))
        _ = layouter.prepare(TextContent("a"))
        let statistics = layouter.shapeCacheStatistics
        #expect(statistics.hits == 1 && statistics.misses == 7)
    }
}
