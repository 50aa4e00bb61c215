import CFreeType
import CHarfBuzz

/// One font face from a font file: its names and metrics (read through FreeType) and the
/// HarfBuzz font that shapes with it.
///
/// The HarfBuzz font is made immutable after creation, and HarfBuzz allows shaping with an
/// immutable font from many threads at once; everything else is a `let` constant.
public final class FontFace: @unchecked Sendable {
    /// The family name the face declares (e.g. "DejaVu Sans").
    public let family: String
    /// The face's style name (e.g. "Bold").
    public let styleName: String
    /// 100 ... 900 (OS/2 `usWeightClass`, or 700 / 400 from FreeType's bold flag).
    public let weight: Int
    public let italic: Bool
    /// The file and the face's index in it.
    public let path: String
    public let faceIndex: Int
    /// The file's identity (`FontLibrary.identity`): names the font data in the structural hash.
    public let fileDigest: UInt64
    let unitsPerEm: Float
    /// FreeType's `ascender`, `descender` (negative) and `height`, in font units: the metrics
    /// Skia gives Blink for scalable fonts.
    let ascender: Float
    let descender: Float
    let height: Float
    /// Shapes at a scale of one unit per font unit; `TextShaper` scales by size / unitsPerEm.
    let hbFont: OpaquePointer
    /// Set once at load, read-only afterwards: the position of this face in its library.
    let id: Int
    /// Which characters of U+0000 ... U+02FF the face maps, a bit each: most text is in that
    /// range, and a cmap lookup for each of its characters is a good part of preparing it.
    private let latinCoverage: [UInt64]
    private static let latinEnd: UInt32 = 0x300

    /// `blob`: the file's bytes (HarfBuzz keeps its own reference).
    init(path: String, faceIndex: Int, id: Int, blob: OpaquePointer, digest: UInt64, ftFace: FT_Face) {
        self.path = path
        self.faceIndex = faceIndex
        self.id = id
        self.fileDigest = digest
        family = ftFace.pointee.family_name.map { String(cString: $0) } ?? "Unknown"
        styleName = ftFace.pointee.style_name.map { String(cString: $0) } ?? "Regular"
        let flags = ftFace.pointee.style_flags
        italic = flags & FT_Long(FT_STYLE_FLAG_ITALIC) != 0
        var weight = flags & FT_Long(FT_STYLE_FLAG_BOLD) != 0 ? 700 : 400
        if let table = FT_Get_Sfnt_Table(ftFace, FT_SFNT_OS2) {
            let os2 = table.assumingMemoryBound(to: TT_OS2.self).pointee
            if os2.version != 0xFFFF && os2.usWeightClass >= 1 && os2.usWeightClass <= 1000 {
                weight = Int(os2.usWeightClass)
            }
        }
        self.weight = weight
        unitsPerEm = Float(ftFace.pointee.units_per_EM)
        ascender = Float(ftFace.pointee.ascender)
        descender = Float(ftFace.pointee.descender)
        height = Float(ftFace.pointee.height)

        let face = hb_face_create(blob, UInt32(faceIndex))
        let font = hb_font_create(face)!
        hb_face_destroy(face)
        let upem = Int32(ftFace.pointee.units_per_EM)
        hb_font_set_scale(font, upem, upem)
        hb_ot_font_set_funcs(font)
        hb_font_make_immutable(font)
        hbFont = font
        var coverage = [UInt64](repeating: 0, count: Int(Self.latinEnd) / 64)
        for codePoint in 0..<Self.latinEnd where Self.cmapHasGlyph(font, codePoint) {
            coverage[Int(codePoint >> 6)] |= 1 << UInt64(codePoint & 63)
        }
        latinCoverage = coverage
    }

    deinit { hb_font_destroy(hbFont) }

    /// Whether the face maps `scalar` to a glyph.
    public func hasGlyph(_ scalar: Unicode.Scalar) -> Bool { hasGlyph(scalar.value) }

    func hasGlyph(_ codePoint: UInt32) -> Bool {
        if codePoint < Self.latinEnd { return latinCoverage[Int(codePoint >> 6)] >> UInt64(codePoint & 63) & 1 != 0 }
        return Self.cmapHasGlyph(hbFont, codePoint)
    }

    /// The font's character map itself (what `latinCoverage` is read from).
    static func cmapHasGlyph(_ font: OpaquePointer, _ codePoint: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, codePoint, &glyph) != 0
    }

    /// Ascent, descent and line gap at `size` px, as Blink computes them on Linux
    /// (SimpleFontData::PlatformInit): each rounded to whole pixels. (Blink moves a pixel from
    /// ascent to descent when the descent rounds down only with subpixel positioning, which
    /// headless Chromium with `--font-render-hinting=none` does not use: checked against it.)
    public func metrics(size: Float) -> FontMetrics {
        let scale = size / unitsPerEm
        let ascent = (ascender * scale).rounded()
        let descent = (-descender * scale).rounded()
        let lineGap = ((height + descender - ascender) * scale).rounded()
        return FontMetrics(ascent: ascent, descent: descent, lineGap: lineGap)
    }
}

/// The vertical metrics of a face at a size, in whole pixels.
public struct FontMetrics: Hashable, Sendable {
    public var ascent: Float
    public var descent: Float
    public var lineGap: Float
    /// `lineHeight: "normal"`.
    public var lineSpacing: Float { ascent + descent + lineGap }
}
