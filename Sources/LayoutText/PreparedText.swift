import LayoutTextModel

/// A text leaf shaped and ready to be broken into lines at any width: its paragraph after
/// white-space processing, the advance of every UTF-16 unit, the break opportunities, and the
/// vertical metrics of each span. A class: the engine's hooks read a leaf many times, and
/// a struct of this many arrays is copied out of wherever it is kept (a retain and a release
/// for each array) where a class reference is retained once.
public final class PreparedText: Sendable {
    /// The leaf's own style: alignment, white space, wrapping, clamping and the strut.
    public let style: TextStyle
    /// Family names in the styles that no font has (the default family was used instead).
    public let unknownFamilies: [String]
    let units: [UInt16]
    let spanOfUnit: [Int32]
    /// Advance in px of each unit, letter spacing included; a cluster's on its first unit.
    let advances: [Float]
    /// `prefix[i]` is the sum of `advances[0..<i]`.
    let prefix: [Double]
    let clusterStart: [Bool]
    /// Where each text item starts (a new span or bidi level), ascending, 0 first: Blink
    /// measures each item's width in whole 1/64 px.
    let itemStarts: [Int]
    /// Whether each text item runs right to left (an odd bidi level); empty when none does.
    let rightToLeftItems: [Bool]
    let breaks: [Int32]
    let hardBreaks: [UInt8]
    /// Each span's inline box around the baseline (ascent and descent with half-leading).
    let spanBoxes: [VerticalExtent]
    /// The strut: the leaf's own font and line height, which every line box contains.
    let strut: VerticalExtent
    /// With `lineHeight: "normal"`, the box of each fallback face a span uses (Blink adds the
    /// metrics of every font used on a line when the line height is normal), and which of them
    /// each unit is in (-1: its span's face). Both empty when no such span falls back.
    let fallbackBoxes: [VerticalExtent]
    let fallbackBoxOfUnit: [Int16]
    let ellipsisWidth: Float
    /// The paragraph has tabs: widths are measured with tab stops (see `width`).
    let hasTabs: Bool
    /// For text with soft hyphens: each span's hyphen (the character and its advance), shown
    /// where a line breaks at a soft hyphen. Empty otherwise.
    let hyphens: [(character: UInt16, width: Float)]
    /// The min-content and max-content widths (CSS Sizing 3 §5.1), for a fit-content measure.
    /// Found when asked, not when prepared: a leaf whose width is imposed (stretched) never
    /// needs them.
    public var intrinsicWidths: (min: Float, max: Float) { (minContentWidth, maxContentWidth) }
    /// Lines at any width at least the max-content width are the lines with no limit: no
    /// advance is negative (so a line's width never falls as it grows and no opportunity
    /// before a forced break is wider than the max-content width), no soft hyphen adds a
    /// hyphen's width at an opportunity, and no clamped line is cut to the width with an
    /// ellipsis.
    let widthIndependentAtMaxContent: Bool

    init(_ content: TextContent, fonts: FontLibrary, shaper: WordShaper) {
        style = content.style
        let paragraph = CollapsedParagraph(spans: content.spans, whiteSpace: style.whiteSpace)
        let units = paragraph.units, spanOfUnit = paragraph.spanOfUnit
        self.units = units
        self.spanOfUnit = spanOfUnit
        let n = units.count
        var unknown: [String] = []
        func note(_ names: [String]) { for name in names where !unknown.contains(name) { unknown.append(name) } }

        // Faces and vertical extents of the paragraph style and each span.
        let strutFace = fonts.primaryFace(families: style.fontFamilies, weight: style.fontWeight, slant: style.fontStyle)
        note(strutFace.unknown)
        strut = VerticalExtent(face: strutFace.face, style: style)
        var primary: [FontFace] = []
        var boxes: [VerticalExtent] = []
        primary.reserveCapacity(content.spans.count)
        boxes.reserveCapacity(content.spans.count)
        for span in content.spans {
            // Most spans have the paragraph's font: its face is the strut's (no second lookup).
            let sameFont = span.style.fontWeight == style.fontWeight && span.style.fontStyle == style.fontStyle
                && span.style.fontFamilies == style.fontFamilies
            let found = sameFont ? strutFace
                : fonts.primaryFace(families: span.style.fontFamilies, weight: span.style.fontWeight, slant: span.style.fontStyle)
            note(found.unknown)
            primary.append(found.face)
            boxes.append(VerticalExtent(face: found.face, style: span.style))
        }
        spanBoxes = boxes
        unknownFamilies = unknown

        // Bidi levels only for text that has right-to-left characters or direction (empty:
        // every unit at level 0).
        let paragraphLevel: UInt8 = style.rightToLeft ? 1 : 0
        let levels = style.rightToLeft || units.contains(where: { $0 >= 0x0590 })
            ? UnicodeBreaks.bidiLevels(units, rightToLeft: style.rightToLeft) : []
        // The one item of most text is a shared array (no allocation for it).
        var itemStarts = Self.firstItemOnly
        if n > 1 && (content.spans.count > 1 || !levels.isEmpty) {
            for k in 1..<n where spanOfUnit[k] != spanOfUnit[k - 1] || (!levels.isEmpty && levels[k] != levels[k - 1]) {
                itemStarts.append(k)
            }
        }
        self.itemStarts = itemStarts
        rightToLeftItems = levels.isEmpty ? [] : itemStarts.map { levels[$0] & 1 == 1 }
        let clusterStart = UnicodeBreaks.clusterStarts(units)
        self.clusterStart = clusterStart
        (breaks, hardBreaks) = UnicodeBreaks.lineBreaks(units)

        let faces = Self.faces(units, spanOfUnit, clusterStart, content, primary, fonts)
        (fallbackBoxes, fallbackBoxOfUnit) = faces.allPrimary ? ([], [])
            : Self.fallbackBoxes(spanOfUnit, faces.ofUnit, content, primary, fonts)
        let advances = Self.advances(units, spanOfUnit, clusterStart, levels, paragraphLevel, faces.ofUnit, primary,
                                     uniform: content.spans.count == 1 && levels.isEmpty && faces.allPrimary,
                                     content.spans, fonts, shaper)
        self.advances = advances
        var nonNegative = true
        // Written in place: one allocation, no per-element uniqueness or bounds checks.
        prefix = [Double](unsafeUninitializedCapacity: n + 1) { prefix, count in
            var sum = 0.0
            prefix[0] = sum
            for k in 0..<n {
                sum += Double(advances[k])
                prefix[k + 1] = sum
                nonNegative = nonNegative && advances[k] >= 0
            }
            count = n + 1
        }

        hasTabs = units.contains(CollapsedParagraph.tab)
        if units.contains(CollapsedParagraph.softHyphen) {
            hyphens = content.spans.indices.map { span in
                let face = primary[span]
                let character: UInt16 = Self.covers(face, [0x2010]) ? 0x2010 : 0x2D
                let scale = Double(content.spans[span].style.fontSize) * 65536 / Double(face.unitsPerEm)
                return (character, Self.fixed(shaper.advances([character], face: face, rightToLeft: false)[0], scale))
            }
        } else {
            hyphens = []
        }
        // The ellipsis of clamped text, in the leaf's own style.
        ellipsisWidth = style.textOverflow == .ellipsis ? Self.ellipsisWidth(style, strutFace.face, fonts, shaper) : 0
        widthIndependentAtMaxContent = nonNegative && hyphens.isEmpty && !(style.maxLines > 0 && style.textOverflow == .ellipsis)
    }

    /// `itemStarts` of a paragraph that is one text item.
    private static let firstItemOnly = [0]

    /// The face of every unit, chosen per grapheme cluster: the span's face when it has a
    /// glyph for every character of the cluster, else the first fallback face that has.
    /// `allPrimary`: every unit is in its span's face (no fallback). `ofUnit` is empty when the
    /// paragraph is one span whose face has every character.
    static func faces(_ units: [UInt16], _ spanOfUnit: [Int32], _ clusterStart: [Bool], _ content: TextContent,
                      _ primary: [FontFace], _ fonts: FontLibrary) -> (ofUnit: [Int32], allPrimary: Bool) {
        let n = units.count
        // One span whose face has every character (most text): every cluster is in it (an
        // empty `ofUnit`, not an array of one face: see `advances`).
        if primary.count == 1 && covers(primary[0], units) {
            return ([], true)
        }
        var fallbacks: [[FontFace]?] = Array(repeating: nil, count: content.spans.count)
        var faceOfUnit = [Int32](repeating: 0, count: n)
        guard n > 0 else { return (faceOfUnit, true) }
        var allPrimary = true
        // The span's face is looked up when the span changes, not per cluster (no reference
        // counting in the loop).
        var span = Int(spanOfUnit[0])
        var spanFace = primary[span]
        var i = 0
        while i < n {
            var end = i + 1
            while end < n && !clusterStart[end] { end += 1 }
            if Int(spanOfUnit[i]) != span {
                span = Int(spanOfUnit[i])
                spanFace = primary[span]
            }
            var face = Int32(spanFace.id)
            if !covers(spanFace, units, i..<end) {
                if fallbacks[span] == nil {
                    let s = content.spans[span].style
                    fallbacks[span] = fonts.fallbackFaces(families: s.fontFamilies, weight: s.fontWeight, slant: s.fontStyle)
                }
                if let other = fallbacks[span]!.first(where: { covers($0, units, i..<end) }) {
                    face = Int32(other.id)
                    allPrimary = false
                }
            }
            for j in i..<end { faceOfUnit[j] = face }
            i = end
        }
        return (faceOfUnit, allPrimary)
    }

    /// The boxes of the fallback faces used by spans of normal line height, and each unit's
    /// (see `fallbackBoxes`).
    static func fallbackBoxes(_ spanOfUnit: [Int32], _ faceOfUnit: [Int32], _ content: TextContent, _ primary: [FontFace],
                              _ fonts: FontLibrary) -> ([VerticalExtent], [Int16]) {
        var boxes: [VerticalExtent] = []
        var boxOfUnit: [Int16] = []
        var seen: [(span: Int32, face: Int32)] = []
        for k in faceOfUnit.indices {
            let span = Int(spanOfUnit[k])
            guard faceOfUnit[k] != Int32(primary[span].id), content.spans[span].style.lineHeight == .normal else { continue }
            if boxOfUnit.isEmpty { boxOfUnit = [Int16](repeating: -1, count: faceOfUnit.count) }
            if let found = seen.firstIndex(where: { $0.span == spanOfUnit[k] && $0.face == faceOfUnit[k] }) {
                boxOfUnit[k] = Int16(found)
            } else if seen.count < Int(Int16.max) {
                seen.append((spanOfUnit[k], faceOfUnit[k]))
                boxes.append(VerticalExtent(face: fonts.faces[Int(faceOfUnit[k])], style: content.spans[span].style))
                boxOfUnit[k] = Int16(boxes.count - 1)
            }
        }
        return (boxes, boxOfUnit)
    }

    /// The advance of every unit in px. Shaped word by word: a piece ends where the span,
    /// level or face changes, and after each run of spaces; tabs and newlines are pieces of
    /// their own. Then letter spacing after every grapheme cluster, as Blink adds it (not in
    /// runs of cursive scripts, which Blink leaves unspaced).
    private static func advances(_ units: [UInt16], _ spanOfUnit: [Int32], _ clusterStart: [Bool], _ levels: [UInt8],
                                 _ paragraphLevel: UInt8, _ faceOfUnit: [Int32], _ primary: [FontFace], uniform: Bool,
                                 _ spans: [TextSpan], _ fonts: FontLibrary, _ shaper: WordShaper) -> [Float] {
        let n = units.count
        var advances = [Float](repeating: 0, count: n)
        func level(_ k: Int) -> UInt8 { levels.isEmpty ? paragraphLevel : levels[k] }
        // The face of unit k (`faceOfUnit` is empty when every unit is in its span's face).
        func faceID(_ k: Int) -> Int32 { faceOfUnit.isEmpty ? Int32(primary[Int(spanOfUnit[k])].id) : faceOfUnit[k] }
        // The face, size and spacing of the current (span, face), looked up when either
        // changes, not per word.
        var currentSpan = -1, currentFace: Int32 = -1
        var face = fonts.faces[0]
        var scale = 0.0
        var letterSpaced = false
        var start = 0
        // What stopped the words read under the cache's lock: a tab, or a word not cached
        // (its end and cache key), handled once the lock is released.
        var tab = false
        var missedEnd = 0
        var missedKey: ShapeCache.Key?
        // Words are read from and advances written to the arrays' buffers: a slice of the
        // array per word would retain and release it.
        units.withUnsafeBufferPointer { units in
            advances.withUnsafeMutableBufferPointer { out in
                while start < n {
                    tab = false
                    missedEnd = 0
                    // The cached words take the cache's lock once, not once each.
                    shaper.cache.lookingUp { lookup in
                        while start < n {
                            let span = Int(spanOfUnit[start])
                            if currentSpan < 0 || !uniform && (span != currentSpan || faceID(start) != currentFace) {
                                currentSpan = span
                                currentFace = faceID(start)
                                face = fonts.faces[Int(currentFace)]
                                // Positions in 16.16 fixed point, as HarfBuzz gives them to Blink at this size.
                                scale = Double(spans[span].style.fontSize) * 65536 / Double(face.unitsPerEm)
                                letterSpaced = spans[span].style.letterSpacing != 0
                            }
                            let unit = units[start]
                            if unit == CollapsedParagraph.newline {
                                start += 1
                                continue
                            }
                            if unit == CollapsedParagraph.tab {
                                tab = true
                                return
                            }
                            var end = start + 1
                            var inSpaces = unit == CollapsedParagraph.space
                            let startLevel = level(start)
                            while end < n {
                                let u = units[end]
                                if u == CollapsedParagraph.newline || u == CollapsedParagraph.tab { break }
                                // `uniform`: one span, level and face throughout (most text): only units end words.
                                if !uniform && (spanOfUnit[end] != spanOfUnit[start] || level(end) != startLevel
                                                || faceID(end) != faceID(start)) {
                                    break
                                }
                                let isSpace = u == CollapsedParagraph.space
                                if inSpaces && !isSpace { break }
                                inSpaces = isSpace
                                end += 1
                            }
                            let at = start
                            let word = UnsafeBufferPointer(rebasing: units[start..<end])
                            let key = shaper.cacheKey(word, face: face, rightToLeft: startLevel & 1 == 1, noLigatures: letterSpaced)
                            guard let key, lookup(key, { shaped in
                                for k in 0..<shaped.count { out[at + k] = fixed(shaped[k], scale) }
                            }) else {
                                missedEnd = end
                                missedKey = key
                                return
                            }
                            start = end
                        }
                    }
                    if tab {
                        // The tab's advance holds the tab interval (8 spaces, tab-size's default); its
                        // width depends on where it falls (see `width`).
                        let space = shaper.advances([CollapsedParagraph.space], face: face, rightToLeft: false)[0]
                        out[start] = 8 * fixed(space, scale)
                        start += 1
                    } else if missedEnd > start {
                        let at = start
                        let word = UnsafeBufferPointer(rebasing: units[start..<missedEnd])
                        shaper.shapeMissed(word, key: missedKey, face: face, rightToLeft: level(start) & 1 == 1,
                                           noLigatures: letterSpaced) { shaped in
                            for k in 0..<shaped.count { out[at + k] = fixed(shaped[k], scale) }
                        }
                        start = missedEnd
                    }
                }
            }
        }
        // By script run, as Blink itemizes: digits, punctuation and spaces take the script of
        // the letters before them (of the first letter after them at the start). Blink adds
        // no letter spacing to a cursive script's run but for its spaces.
        guard spans.contains(where: { $0.style.letterSpacing != 0 }) else { return advances }
        var cursive = units.first(where: { isCursive($0) || isLetter($0) }).map(isCursive) ?? false
        for k in 0..<n {
            let u = units[k]
            if isCursive(u) { cursive = true } else if isLetter(u) { cursive = false }
            guard clusterStart[k], u != CollapsedParagraph.newline, u != CollapsedParagraph.tab,
                  !cursive || u == CollapsedParagraph.space else { continue }
            advances[k] += spans[Int(spanOfUnit[k])].style.letterSpacing
        }
        return advances
    }

    static func ellipsisWidth(_ style: TextStyle, _ face: FontFace, _ fonts: FontLibrary, _ shaper: WordShaper) -> Float {
        let ellipsis: [UInt16] = [0x2026]
        var ellipsisFace = face
        if !covers(ellipsisFace, ellipsis) {
            ellipsisFace = fonts.fallbackFaces(families: style.fontFamilies, weight: style.fontWeight, slant: style.fontStyle)
                .first { covers($0, ellipsis) } ?? ellipsisFace
        }
        let scale = Double(style.fontSize) * 65536 / Double(ellipsisFace.unitsPerEm)
        return fixed(shaper.advances(ellipsis[...], face: ellipsisFace, rightToLeft: false)[0], scale) + style.letterSpacing
    }

    /// Letters of the scripts Blink applies no letter spacing to: Arabic, Syriac, N'Ko,
    /// Mongolian (and Arabic presentation forms); the Arabic comma is common punctuation.
    static func isCursive(_ u: UInt16) -> Bool {
        (0x0600...0x07FF).contains(u) && u != 0x060C || (0x0860...0x08FF).contains(u) || (0x1800...0x18AF).contains(u)
            || (0xFB50...0xFDFF).contains(u) || (0xFE70...0xFEFF).contains(u)
    }

    /// A letter of a script that is not cursive (a strong script, unlike digits, punctuation
    /// and spaces, which take the script around them).
    static func isLetter(_ u: UInt16) -> Bool {
        guard !isCursive(u), let scalar = Unicode.Scalar(u) else { return false }
        return scalar.properties.isAlphabetic
    }

    /// Font units to px through HarfBuzz's 16.16 fixed point.
    @inline(__always) static func fixed(_ fontUnits: Float, _ scale: Double) -> Float {
        Float((Double(fontUnits) * scale).rounded() / 65536)
    }

    /// Whether `face` has a glyph for every character of a cluster, `units[range]` (all of
    /// `units` when nil; controls and format characters such as joiners need none).
    static func covers(_ face: FontFace, _ units: [UInt16], _ range: Range<Int>? = nil) -> Bool {
        let end = range?.upperBound ?? units.count
        var i = range?.lowerBound ?? 0
        while i < end {
            var v = UInt32(units[i])
            i += 1
            if UTF16.isLeadSurrogate(UInt16(v)), i < end, UTF16.isTrailSurrogate(units[i]) {
                v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(units[i]) - 0xDC00)
                i += 1
            }
            if v < 0x20 || (v >= 0x200B && v <= 0x200F) || (v >= 0xFE00 && v <= 0xFE0F) || v == 0xFEFF { continue }
            if !face.hasGlyph(v) { return false }
        }
        return true
    }
}

/// The part of an inline box above and below the baseline, half-leading included.
struct VerticalExtent: Sendable {
    var ascent: Float
    var descent: Float

    /// As Blink: the line height from `lineHeight` (normal: the font's line spacing), and the
    /// leading it leaves split with the floor of its half above (NGLineHeightMetrics).
    init(face: FontFace, style: TextStyle) {
        let metrics = face.metrics(size: style.fontSize)
        let lineHeight: Float
        switch style.lineHeight {
        case .normal: lineHeight = metrics.lineSpacing
        case .pixels(let px): lineHeight = LayoutUnit.round(px)
        case .percent(let percent): lineHeight = LayoutUnit.floor(style.fontSize * percent / 100)
        }
        let leading = lineHeight - (metrics.ascent + metrics.descent)
        let above = (leading / 2).rounded(.down)
        ascent = metrics.ascent + above
        descent = metrics.descent + (leading - above)
    }
}

/// Blink's fixed-point layout unit, 1/64 px.
enum LayoutUnit {
    static func ceil(_ x: Float) -> Float { (x * 64).rounded(.up) / 64 }
    static func ceil(_ x: Double) -> Float { Float((x * 64).rounded(.up) / 64) }
    static func floor(_ x: Float) -> Float { (x * 64).rounded(.down) / 64 }
    static func round(_ x: Float) -> Float { (x * 64).rounded() / 64 }
}
