import CHarfBuzz
import LayoutTextModel

extension TextLayouter {
    /// The lines of `text` (prepared by this layouter from `content`) as `text.layout(available:
    /// boxWidth:)` lays them out, each with its glyph runs in visual order: the words shaped again
    /// as the measurement shaped them, and placed at the advances it measured, so that what is
    /// drawn occupies exactly what was measured. For renderers; not cached, not on the layout path.
    public func glyphLines(_ text: PreparedText, of content: TextContent, available: Float?,
                           boxWidth: Float? = nil) -> [GlyphLine] {
        GlyphLineBuilder(text, content, fonts).lines(available: available, boxWidth: boxWidth)
    }
}

/// Cuts the measured lines into runs as `PreparedText.advances` shaped them (a piece ends
/// where the span, bidi level or face changes, after each run of spaces; tabs alone), adds
/// the hyphen and ellipsis the lines show, orders the runs visually (UAX #9 rule L2) and
/// places their glyphs at the measured advances.
struct GlyphLineBuilder {
    let text: PreparedText
    let content: TextContent
    let fonts: FontLibrary
    let levels: [UInt8]
    let primary: [FontFace]
    let faceOfUnit: [Int32]

    /// A run before placement: units `start..<end` of the paragraph, or `characters` of its own
    /// (a hyphen, an ellipsis).
    private struct Piece {
        var start = 0, end = 0
        var characters: [UInt16]? = nil
        var level: UInt8
        var face: FontFace
        var size: Float
        var letterSpacing: Float
        var width: Float
        /// Justification added at the piece's spaces.
        var expansion: Float = 0
    }

    init(_ text: PreparedText, _ content: TextContent, _ fonts: FontLibrary) {
        self.text = text
        self.content = content
        self.fonts = fonts
        levels = UnicodeBreaks.bidiLevels(text.units, rightToLeft: text.style.rightToLeft)
        primary = content.spans.map {
            fonts.primaryFace(families: $0.style.fontFamilies, weight: $0.style.fontWeight, slant: $0.style.fontStyle).face
        }
        let faces = PreparedText.faces(text.units, text.spanOfUnit, text.clusterStart, content, primary, fonts).ofUnit
        // Empty: every unit is in the one span's face.
        faceOfUnit = faces.isEmpty ? Array(repeating: Int32(primary.first?.id ?? 0), count: text.units.count) : faces
    }

    func lines(available: Float?, boxWidth: Float?) -> [GlyphLine] {
        let layout = text.layout(available: available, boxWidth: boxWidth)
        let measured = text.measuredLines(available: available)
        return zip(layout.lines, measured).map { line, measuredLine in
            var pieces = self.pieces(measuredLine)
            // Justified: the room left is shared by the line's spaces (see `layout`).
            if line.width > measuredLine.width {
                let spaces = pieces.map { spaceCount($0) }
                let total = spaces.reduce(0, +)
                if total > 0 {
                    // From the pieces' own widths, so the runs end exactly at the line's end.
                    let each = (line.width - pieces.reduce(0) { $0 + $1.width }) / Float(total)
                    for k in pieces.indices { pieces[k].expansion = each * Float(spaces[k]) }
                }
            }
            var runs: [GlyphRun] = []
            var x: Float = 0
            for k in Self.visualOrder(pieces.map(\.level)) {
                let run = self.run(pieces[k], left: x)
                x += run.width
                runs.append(run)
            }
            return GlyphLine(text: line.text, left: line.left, top: line.top, width: line.width, height: line.height,
                             baseline: line.baseline, runs: runs)
        }
    }

    private func spaceCount(_ piece: Piece) -> Int {
        guard piece.characters == nil else { return 0 }
        return (piece.start..<piece.end).reduce(0) { $0 + (text.units[$1] == CollapsedParagraph.space ? 1 : 0) }
    }

    /// The line's pieces in logical order.
    private func pieces(_ line: MeasuredLine) -> [Piece] {
        let units = text.units
        var pieces: [Piece] = []
        // The soft hyphen a line breaks at shows as the hyphen piece below.
        let end = line.hyphen == nil ? line.end : line.end - 1
        var start = line.range.start
        var x: Double = 0  // from the line's start, for tab stops
        while start < end {
            let unit = units[start]
            let span = Int(text.spanOfUnit[start])
            let style = content.spans[span].style
            var piece = Piece(start: start, end: start + 1, level: levels[start], face: fonts.faces[Int(faceOfUnit[start])],
                              size: style.fontSize, letterSpacing: style.letterSpacing, width: 0)
            if unit == CollapsedParagraph.newline {
                start += 1
                continue
            }
            if unit == CollapsedParagraph.tab {
                let interval = Double(text.advances[start])
                let stop = interval > 0 ? ((x / interval).rounded(.down) + 1) * interval : x
                piece.width = Float(stop - x)
            } else {
                var inSpaces = unit == CollapsedParagraph.space
                while piece.end < end {
                    let u = units[piece.end]
                    if text.spanOfUnit[piece.end] != text.spanOfUnit[start] || levels[piece.end] != levels[start]
                        || faceOfUnit[piece.end] != faceOfUnit[start] || u == CollapsedParagraph.newline
                        || u == CollapsedParagraph.tab || (inSpaces && u != CollapsedParagraph.space) {
                        break
                    }
                    inSpaces = u == CollapsedParagraph.space
                    piece.end += 1
                }
                piece.width = Float((start..<piece.end).reduce(0.0) { $0 + Double(text.advances[$1]) })
            }
            x += Double(piece.width)
            pieces.append(piece)
            start = piece.end
        }
        if let hyphen = line.hyphen, line.end > line.range.start {
            let last = line.end - 1
            let span = Int(text.spanOfUnit[last])
            let style = content.spans[span].style
            pieces.append(Piece(characters: [hyphen], level: levels[last], face: primary[span], size: style.fontSize,
                                letterSpacing: 0, width: text.hyphens[span].width))
        }
        if line.ellipsis {
            let style = text.style
            let ellipsis: [UInt16] = [0x2026]
            var face = fonts.primaryFace(families: style.fontFamilies, weight: style.fontWeight, slant: style.fontStyle).face
            if !PreparedText.covers(face, ellipsis) {
                face = fonts.fallbackFaces(families: style.fontFamilies, weight: style.fontWeight, slant: style.fontStyle)
                    .first { PreparedText.covers($0, ellipsis) } ?? face
            }
            pieces.append(Piece(characters: ellipsis, level: style.rightToLeft ? 1 : 0, face: face, size: style.fontSize,
                                letterSpacing: style.letterSpacing, width: text.ellipsisWidth))
        }
        return pieces
    }

    /// The piece shaped, its glyphs placed at the measured advances from `left`.
    private func run(_ piece: Piece, left: Float) -> GlyphRun {
        let rightToLeft = piece.level & 1 == 1
        let characters = piece.characters ?? Array(text.units[piece.start..<piece.end])
        let font = GlyphFont(path: piece.face.path, faceIndex: piece.face.faceIndex, family: piece.face.family,
                             weight: piece.face.weight, italic: piece.face.italic)
        let width = piece.width + piece.expansion
        let string = String(decoding: characters, as: UTF16.self)
        guard characters != [CollapsedParagraph.tab] else {
            return GlyphRun(font: font, size: piece.size, rightToLeft: rightToLeft, text: string, left: left,
                            width: width, glyphs: [])
        }
        let shaped = Self.shape(characters, face: piece.face, rightToLeft: rightToLeft, noLigatures: piece.letterSpacing != 0)
        let scale = piece.size / piece.face.unitsPerEm
        // Each cluster's measured advance (letter spacing included), and its left edge: in
        // logical order from the left for left-to-right text, from the right otherwise.
        var advance = [Float](repeating: 0, count: characters.count + 1)
        if piece.characters == nil {
            for k in 0..<characters.count { advance[k] = text.advances[piece.start + k] }
        } else if let first = shaped.first {
            advance[Int(first.cluster)] = piece.width
        }
        var prefix = [Float](repeating: 0, count: characters.count + 1)
        for k in 0..<characters.count { prefix[k + 1] = prefix[k] + advance[k] }
        // Where each cluster ends: the next cluster's start (clusters are unit offsets).
        var clusterEnd = [Int](repeating: characters.count, count: characters.count + 1)
        let starts = Set(shaped.map { Int($0.cluster) }).sorted()
        for (k, start) in starts.enumerated() where k + 1 < starts.count && start < clusterEnd.count {
            clusterEnd[start] = starts[k + 1]
        }
        func clusterLeft(_ c: Int) -> Float {
            guard rightToLeft else { return prefix[c] }
            let next = clusterEnd[c]
            // The spaces' justification sits at the logical end: the left, right to left.
            return prefix[characters.count] - prefix[next] + piece.expansion
        }
        var glyphs: [PlacedGlyph] = []
        glyphs.reserveCapacity(shaped.count)
        var cluster = -1
        var pen: Float = 0
        for g in shaped {
            if Int(g.cluster) != cluster { cluster = Int(g.cluster); pen = 0 }
            glyphs.append(PlacedGlyph(id: g.id, x: clusterLeft(cluster) + pen + Float(g.xOffset) * scale,
                                      y: -Float(g.yOffset) * scale))
            pen += Float(g.xAdvance) * scale
        }
        return GlyphRun(font: font, size: piece.size, rightToLeft: rightToLeft, text: string, left: left, width: width,
                        glyphs: glyphs)
    }

    /// Piece indices left to right: from the highest level to the lowest odd one, every
    /// stretch at that level or above reversed (UAX #9 L2).
    static func visualOrder(_ levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowest = levels.min() else { return order }
        let lowestOdd = lowest | 1
        guard highest >= lowestOdd else { return order }
        for level in stride(from: highest, through: lowestOdd, by: -1) {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var j = i
                while j < order.count && levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
        }
        return order
    }

    /// One glyph as HarfBuzz gives it, in font units.
    struct ShapedGlyph {
        var id: UInt32
        var cluster: UInt32
        var xAdvance: Int32
        var xOffset: Int32
        var yOffset: Int32
    }

    /// `characters` shaped as `WordShaper` shapes them, glyph by glyph in visual order.
    static func shape(_ characters: [UInt16], face: FontFace, rightToLeft: Bool, noLigatures: Bool) -> [ShapedGlyph] {
        guard !characters.isEmpty else { return [] }
        return WordShaper.withShaped(characters, face: face, rightToLeft: rightToLeft, noLigatures: noLigatures) { infos, positions in
            (0..<infos.count).map {
                ShapedGlyph(id: infos[$0].codepoint, cluster: infos[$0].cluster, xAdvance: positions[$0].x_advance,
                            xOffset: positions[$0].x_offset, yOffset: positions[$0].y_offset)
            }
        } ?? []
    }
}
