import CHarfBuzz

/// Shapes words with HarfBuzz (the font's default features: kerning, ligatures, Arabic
/// joining) and gives each UTF-16 unit the advance of the cluster it starts, in font units.
struct WordShaper: Sendable {
    let cache: ShapeCache

    /// Advances of `text` (one word and its trailing spaces, in one face and direction), one
    /// per UTF-16 unit: a cluster's advance sits on its first unit, the others get 0.
    /// `noLigatures`: optional ligatures and contextual alternates off, as Blink shapes text
    /// with letter spacing.
    func advances(_ text: ArraySlice<UInt16>, face: FontFace, rightToLeft: Bool, noLigatures: Bool = false) -> [Float] {
        var result: [Float] = []
        text.withUnsafeBufferPointer { text in
            withAdvances(text, face: face, rightToLeft: rightToLeft, noLigatures: noLigatures) { result = Array($0) }
        }
        return result
    }

    /// Calls `body` with the advances `advances(_:face:rightToLeft:noLigatures:)` gives, read
    /// in place from the cache: a hit copies, retains and allocates nothing.
    func withAdvances(_ text: UnsafeBufferPointer<UInt16>, face: FontFace, rightToLeft: Bool, noLigatures: Bool,
                      _ body: (UnsafeBufferPointer<Float>) -> Void) {
        let key = cacheKey(text, face: face, rightToLeft: rightToLeft, noLigatures: noLigatures)
        if let key, cache.lookup(key, body) { return }
        shapeMissed(text, key: key, face: face, rightToLeft: rightToLeft, noLigatures: noLigatures, body)
    }

    /// The cache key of a word (what `withAdvances` looks up), or nil for one too long to be
    /// cached: for lookups through `ShapeCache.lookingUp`, with `shapeMissed` on a miss.
    func cacheKey(_ text: UnsafeBufferPointer<UInt16>, face: FontFace, rightToLeft: Bool, noLigatures: Bool) -> ShapeCache.Key? {
        // Longer runs (no word of a language is this long) are shaped each time, so the
        // cache's bytes stay bounded by its entry count.
        guard text.count <= ShapeCache.longestWord else { return nil }
        return ShapeCache.Key(face: face.id, rightToLeft: rightToLeft, noLigatures: noLigatures, text: text)
    }

    /// Shapes a word the cache does not have, caches it under `key` (nil: too long to be
    /// cached) and calls `body` with its advances: with `cacheKey`, what `withAdvances` does.
    func shapeMissed(_ text: UnsafeBufferPointer<UInt16>, key: ShapeCache.Key?, face: FontFace, rightToLeft: Bool,
                     noLigatures: Bool, _ body: (UnsafeBufferPointer<Float>) -> Void) {
        let result = shape(Array(text), face: face, rightToLeft: rightToLeft, noLigatures: noLigatures)
        if let key { cache.insert(key, result) }
        result.withUnsafeBufferPointer(body)
    }

    private static let ligaturesOff: [hb_feature_t] = ["liga", "clig", "dlig", "hlig", "calt"].map { tag in
        hb_feature_t(tag: tag.utf8.reduce(0) { $0 << 8 | hb_tag_t($1) }, value: 0, start: 0, end: UInt32.max)
    }

    private func shape(_ text: [UInt16], face: FontFace, rightToLeft: Bool, noLigatures: Bool) -> [Float] {
        var advances = [Float](repeating: 0, count: text.count)
        guard !text.isEmpty else { return advances }
        Self.withShaped(text, face: face, rightToLeft: rightToLeft, noLigatures: noLigatures) { infos, positions in
            for g in infos.indices {
                let cluster = Int(infos[g].cluster)
                if cluster < advances.count { advances[cluster] += Float(positions[g].x_advance) }
            }
        }
        return advances
    }

    /// Calls `body` with the glyphs of `text` shaped in `face` (visual order, font units), or
    /// returns nil when HarfBuzz has no buffer. Also what `GlyphLineBuilder` draws from.
    static func withShaped<Result>(_ text: [UInt16], face: FontFace, rightToLeft: Bool, noLigatures: Bool,
                                   _ body: (UnsafeBufferPointer<hb_glyph_info_t>, UnsafeBufferPointer<hb_glyph_position_t>) -> Result) -> Result? {
        guard let buffer = hb_buffer_create() else { return nil }
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf16(buffer, text, Int32(text.count), 0, Int32(text.count))
        hb_buffer_guess_segment_properties(buffer)
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS)
        if noLigatures {
            ligaturesOff.withUnsafeBufferPointer { hb_shape(face.hbFont, buffer, $0.baseAddress, UInt32($0.count)) }
        } else {
            hb_shape(face.hbFont, buffer, nil, 0)
        }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return nil }
        return body(UnsafeBufferPointer(start: infos, count: Int(count)), UnsafeBufferPointer(start: positions, count: Int(count)))
    }
}
