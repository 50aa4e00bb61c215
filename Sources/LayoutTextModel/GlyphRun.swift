/// The font file a run of glyphs is drawn with, and the names a viewer without the file
/// finds the same face by (SVG's `font-family`, `font-weight`, `font-style`).
public struct GlyphFont: Hashable, Sendable {
    /// The font file and the face's index in it (0 but in collections).
    public var path: String
    public var faceIndex: Int
    public var family: String
    /// 100 ... 900.
    public var weight: Int
    public var italic: Bool

    public init(path: String, faceIndex: Int, family: String, weight: Int, italic: Bool) {
        self.path = path
        self.faceIndex = faceIndex
        self.family = family
        self.weight = weight
        self.italic = italic
    }
}

/// One glyph of a run: its id in the font and its pen position (x from the run's left, y
/// down from the baseline), in px.
public struct PlacedGlyph: Hashable, Sendable {
    public var id: UInt32
    public var x: Float
    public var y: Float

    public init(id: UInt32, x: Float, y: Float) {
        self.id = id
        self.x = x
        self.y = y
    }
}

/// A piece of a line shaped in one face, size and direction (a word and its trailing spaces,
/// a tab, a hyphen or an ellipsis), placed where the line layout measured it: what a renderer
/// needs to draw exactly the measured text, without shaping it again.
public struct GlyphRun: Hashable, Sendable {
    public var font: GlyphFont
    /// The font size in px.
    public var size: Float
    public var rightToLeft: Bool
    /// The run's characters in logical order.
    public var text: String
    /// The run's left edge from the line's left edge, and its width (the advance it took in
    /// the measurement, justification included).
    public var left: Float
    public var width: Float
    /// Left to right, as HarfBuzz shaped them (after bidi reordering of the line's runs).
    public var glyphs: [PlacedGlyph]

    public init(font: GlyphFont, size: Float, rightToLeft: Bool, text: String, left: Float, width: Float,
                glyphs: [PlacedGlyph]) {
        self.font = font
        self.size = size
        self.rightToLeft = rightToLeft
        self.text = text
        self.left = left
        self.width = width
        self.glyphs = glyphs
    }
}

/// One laid-out line with its glyph runs in visual order (left to right). `left`, `top`,
/// `width`, `height` and `baseline` are the line's, relative to the leaf's content box, as in
/// the answer's `lines`.
public struct GlyphLine: Hashable, Sendable {
    public var text: String
    public var left: Float
    public var top: Float
    public var width: Float
    public var height: Float
    public var baseline: Float
    public var runs: [GlyphRun]

    public init(text: String, left: Float, top: Float, width: Float, height: Float, baseline: Float, runs: [GlyphRun]) {
        self.text = text
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.baseline = baseline
        self.runs = runs
    }
}
