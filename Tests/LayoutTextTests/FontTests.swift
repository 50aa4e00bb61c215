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

    @Test func libraryDigestNamesTheFontFiles() throws {
        let again = try FontLibrary()
        #expect(again.digest == sharedLayouter.fonts.digest)
        #expect(throws: FontLibraryError.self) { try FontLibrary(directories: ["/nonexistent/fonts"]) }
    }
}
