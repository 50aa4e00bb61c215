import Foundation
import Testing
import LayoutTextModel
@testable import LayoutText

// The bundled DejaVu set, face matching, Blink's vertical metrics and fallback.
@Suite struct FontTests {
    @Test func bundledFamiliesAndFaces() {
        let catalog = sharedLayouter.fonts.catalog
        #expect(catalog.map(\.family) == ["DejaVu Sans", "DejaVu Sans Mono", "DejaVu Serif"])
        for family in catalog {
            #expect(family.faces.map(\.weight).sorted() == [400, 700])
        }
        #expect(FontLibrary.defaultFamily == catalog[0].family)
    }

    @Test func matchingPicksFamilyWeightAndReportsUnknownNames() {
        let fonts = sharedLayouter.fonts
        let bold = fonts.primaryFace(families: ["Nope", "serif"], weight: 800, slant: .normal)
        #expect(bold.face.family == "DejaVu Serif" && bold.face.weight == 700)
        #expect(bold.unknown == ["Nope"])
        // 300 prefers lighter faces, then heavier: only 400 and 700 exist.
        #expect(fonts.primaryFace(families: ["DejaVu Sans Mono"], weight: 300, slant: .italic).face.weight == 400)
        #expect(fonts.primaryFace(families: ["dejavu sans mono"], weight: 600, slant: .normal).face.weight == 700)
        let unknown = fonts.primaryFace(families: ["Helvetica Neue"], weight: 400, slant: .normal)
        #expect(unknown.face.family == "DejaVu Sans" && unknown.unknown == ["Helvetica Neue"])
    }

    @Test func lineHeightNormalAsBlinkRoundsIt() {
        let sans = sharedLayouter.fonts.primaryFace(families: [], weight: 400, slant: .normal).face
        // hhea 1901 / -483 of 2048 units: 14.85 / 3.77 px at 16 px round to 15 / 4.
        #expect(sans.metrics(size: 16) == FontMetrics(ascent: 15, descent: 4, lineGap: 0))
        // At 10 px, 9.28 / 2.36 round to 9 / 2 (Chromium: a 10 px label's baseline is 9 px
        // below its top).
        #expect(sans.metrics(size: 10) == FontMetrics(ascent: 9, descent: 2, lineGap: 0))
        #expect(layout("Hello").height == 19)
        #expect(layout("Hello") { $0.fontSize = 10 }.height == 11)
    }

    @Test func missingGlyphsFallBackPerCluster() {
        // DejaVu Serif has no Arabic; DejaVu Sans has: the Arabic word is measured in Sans.
        let serif = layout("abc سلام") { $0.fontFamilies = ["DejaVu Serif"]; $0.whiteSpace = .pre }
        let serifLatin = layout("abc ") { $0.fontFamilies = ["DejaVu Serif"]; $0.whiteSpace = .pre }
        let sansArabic = layout("سلام") { $0.whiteSpace = .pre }
        #expect(sansArabic.width > 10)
        #expect(abs(serif.width - (serifLatin.width + sansArabic.width)) < 0.05)
        #expect(sharedLayouter.fonts.primaryFace(families: ["DejaVu Serif"], weight: 400, slant: .normal)
            .face.hasGlyph("\u{0633}") == false)
    }

    @Test func latinCoverageIsTheCharacterMaps() {
        // hasGlyph answers U+0000 ... U+02FF from a bitmap read at load: the same as the cmap.
        for face in sharedLayouter.fonts.faces {
            let differing = (0..<UInt32(0x300)).filter { face.hasGlyph($0) != FontFace.cmapHasGlyph(face.hbFont, $0) }
            #expect(differing.isEmpty, "\(face.family) \(face.styleName): \(differing)")
        }
        let sans = sharedLayouter.fonts.primaryFace(families: [], weight: 400, slant: .normal).face
        #expect(sans.hasGlyph("\u{E9}") && sans.hasGlyph("\u{17E}") && !sans.hasGlyph("\u{1}"))
    }

    /// Liberation Sans (fonts-liberation, which .ci/run installs): vertical metrics other
    /// than DejaVu's, and no Arabic, which falls back to DejaVu Sans.
    static let liberation = "/usr/share/fonts/truetype/liberation"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: liberation + "/LiberationSans-Regular.ttf"),
                   "needs fonts-liberation"))
    func normalLineHeightTakesTheFallbackFacesMetrics() throws {
        let layouter = TextLayouter(fonts: try FontLibrary(directories: [Self.liberation]))
        let liberation = layouter.fonts.primaryFace(families: ["Liberation Sans"], weight: 400, slant: .normal).face
        let sans = layouter.fonts.primaryFace(families: ["DejaVu Sans"], weight: 400, slant: .normal).face
        #expect(liberation.family == "Liberation Sans" && !liberation.hasGlyph("\u{628}"))
        // 16 px: Liberation Sans 14 + 3 with a 1 px gap (18, the gap below), DejaVu Sans 15 + 4.
        #expect(liberation.metrics(size: 16) == FontMetrics(ascent: 14, descent: 3, lineGap: 1))
        #expect(sans.metrics(size: 16) == FontMetrics(ascent: 15, descent: 4, lineGap: 0))
        func lines(_ text: String, _ lineHeight: LineHeight = .normal) -> [TextLine] {
            var style = TextStyle()
            style.fontFamilies = ["Liberation Sans"]
            style.lineHeight = lineHeight
            style.whiteSpace = .preLine
            return layouter.prepare(TextContent(text, style: style)).layout(available: nil).lines
        }
        let latin = lines("abc abc")
        #expect(latin.map(\.height) == [18] && latin.map(\.baseline) == [14])
        // The line with the Arabic letters is as tall as DejaVu Sans makes it; the other is not.
        let mixed = lines("abc \u{628}\u{628}\nabc abc")
        #expect(mixed.map(\.text) == ["abc \u{628}\u{628}", "abc abc"])
        #expect(mixed.map(\.height) == [19, 18] && mixed.map(\.baseline) == [15, 19 + 14])
        // A fixed line height takes no font's metrics but the strut's.
        #expect(lines("abc \u{628}\u{628}\nabc abc", .pixels(30)).map(\.height) == [30, 30])
    }

    @Test func libraryDigestNamesTheFontFiles() throws {
        let again = try FontLibrary()
        #expect(again.digest == sharedLayouter.fonts.digest)
        #expect(throws: FontLibraryError.self) { try FontLibrary(directories: ["/nonexistent/fonts"]) }
    }
}
