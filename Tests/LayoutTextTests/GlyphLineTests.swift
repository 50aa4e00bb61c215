import LayoutTextModel
import Testing
@testable import LayoutText

/// The glyph runs renderers draw: the same lines as `layout`, the runs filling each line's
/// measured width left to right, in visual order, with the glyphs the font maps.
@Suite struct GlyphLineTests {
    private func glyphLines(_ text: String, width: Float?, _ configure: (inout TextStyle) -> Void = { _ in }) -> (TextLayout, [GlyphLine]) {
        let content = TextContent(text, style: style(configure))
        let prepared = sharedLayouter.prepare(content)
        return (prepared.layout(available: width, boxWidth: width),
                sharedLayouter.glyphLines(prepared, of: content, available: width, boxWidth: width))
    }

    /// Each run starts where the one before it ends.
    private func expectContiguous(_ line: GlyphLine, sourceLocation: SourceLocation = #_sourceLocation) {
        var x: Float = 0
        for run in line.runs {
            #expect(abs(run.left - x) < 1e-3, "run \(run.text) at \(run.left), expected \(x)", sourceLocation: sourceLocation)
            x = run.left + run.width
        }
    }

    @Test func linesAndRunsMatchTheMeasuredLines() throws {
        let (layout, lines) = glyphLines("The quick brown fox jumps over the lazy dog, twice.", width: 150)
        #expect(lines.count == layout.lines.count && lines.count > 1)
        for (line, measured) in zip(lines, layout.lines) {
            #expect((line.text, line.left, line.top, line.width, line.baseline) ==
                    (measured.text, measured.left, measured.top, measured.width, measured.baseline))
            // Left to right: the runs spell the line, word by word.
            #expect(line.runs.map(\.text).joined() == line.text)
            expectContiguous(line)
            let drawn = line.runs.last.map { $0.left + $0.width } ?? 0
            // Each word's width is measured in whole 1/64 px.
            #expect(abs(drawn - line.width) <= Float(line.runs.count) / 64, "\(line.text): \(drawn) vs \(line.width)")
            for run in line.runs {
                #expect(run.font.family == "DejaVu Sans" && run.size == 16 && !run.rightToLeft)
                #expect(run.glyphs.count == run.text.utf16.count)  // no ligatures in DejaVu Sans' Latin
                #expect(run.glyphs.allSatisfy { $0.id != 0 })      // no .notdef
                #expect(zip(run.glyphs, run.glyphs.dropFirst()).allSatisfy { $0.x < $1.x })
            }
        }
    }

    @Test func rightToLeftRunsAreReordered() throws {
        // "abc" then two Hebrew words: visually the second Hebrew word comes first.
        let (_, lines) = glyphLines("abc אבג דהו", width: nil)
        let line = try #require(lines.first)
        #expect(line.runs.map(\.text) == ["abc ", "דהו", "אבג "])
        #expect(line.runs.map(\.rightToLeft) == [false, true, true])
        expectContiguous(line)
        // Right to left within a run: the glyph of the first letter is the rightmost.
        let hebrew = line.runs[1]
        #expect(zip(hebrew.glyphs, hebrew.glyphs.dropFirst()).allSatisfy { $0.x < $1.x })
    }

    @Test func justifiedLinesFillTheBox() throws {
        let (_, lines) = glyphLines("The quick brown fox jumps over the lazy dog, twice.", width: 150) { $0.textAlign = .justify }
        let first = try #require(lines.first)
        #expect(first.width == 150)
        let end = first.runs.last.map { $0.left + $0.width } ?? 0
        #expect(abs(end - 150) < 1e-3)
        expectContiguous(first)
    }

    @Test func clampedLinesEndWithTheEllipsisRun() throws {
        let (layout, lines) = glyphLines("The quick brown fox jumps over the lazy dog, twice.", width: 150) {
            $0.maxLines = 1
            $0.textOverflow = .ellipsis
        }
        let line = try #require(lines.first)
        #expect(lines.count == 1 && layout.lines[0].text.hasSuffix("\u{2026}"))
        #expect(line.runs.last?.text == "\u{2026}")
        #expect(line.runs.map(\.text).joined() == line.text)
        let end = line.runs.last.map { $0.left + $0.width } ?? 0
        #expect(end <= 150 + 1e-3)
    }

    @Test func rightToLeftParagraphsPutTheEllipsisAtTheLeft() throws {
        let (layout, lines) = glyphLines("שלום עולם שלום עולם שלום עולם שלום עולם", width: 120) {
            $0.rightToLeft = true
            $0.maxLines = 1
            $0.textOverflow = .ellipsis
        }
        let line = try #require(lines.first)
        #expect(layout.lines.count == 1 && line.text.hasSuffix("\u{2026}"))
        #expect(line.runs.first?.text == "\u{2026}" && line.runs.allSatisfy(\.rightToLeft))
        // Logical order read right to left: the first word is the rightmost run.
        #expect(line.runs.last?.text == "שלום ")
        expectContiguous(line)
    }

    @Test func tabsTakeTheirStopsAndDrawNothing() throws {
        let (layout, lines) = glyphLines("a\tb", width: nil) { $0.whiteSpace = .pre }
        let line = try #require(lines.first)
        #expect(line.runs.map(\.text) == ["a", "\t", "b"])
        #expect(line.runs[1].glyphs.isEmpty)
        expectContiguous(line)
        let end = line.runs[2].left + line.runs[2].width
        #expect(abs(end - layout.lines[0].width) <= 2.0 / 64)
    }

    @Test func theFontIsTheFaceThatWasMeasured() throws {
        let (_, lines) = glyphLines("Bold", width: nil) { $0.fontWeight = 700; $0.fontSize = 24 }
        let run = try #require(lines.first?.runs.first)
        #expect(run.font.weight == 700 && run.size == 24)
        #expect(run.font.path.hasSuffix("DejaVuSans-Bold.ttf"))
    }
}
