import CTextShim

/// UAX #14 line breaks, UAX #29 grapheme clusters and UAX #9 levels, from ICU.
enum UnicodeBreaks {
    /// Positions (UTF-16 offsets) after which a line may end, with whether the break is forced;
    /// the text's end is the last.
    static func lineBreaks(_ text: [UInt16]) -> (positions: [Int32], hard: [UInt8]) {
        guard !text.isEmpty else { return ([], []) }
        var result = (positions: [Int32](repeating: 0, count: text.count + 1), hard: [UInt8](repeating: 0, count: text.count + 1))
        let count = layoutd_line_breaks(text, Int32(text.count), "en", &result.positions, &result.hard,
                                        Int32(text.count + 1))
        guard count > 0 else { return ([Int32(text.count)], [1]) }
        // Cut to length in place (no copy).
        result.positions.removeLast(text.count + 1 - Int(count))
        result.hard.removeLast(text.count + 1 - Int(count))
        addHebrewHyphenBreaks(text, &result)
        removeBreaksAfterSlash(text, &result)
        return result
    }

    /// Blink decides breaks between two printable ASCII characters by its own table
    /// (kAsciiLineBreakTable), which has none after "/" (UAX #14's LB31 has one before a
    /// letter or digit): a URL breaks only where overflowWrap must. Removes those.
    static func removeBreaksAfterSlash(_ text: [UInt16], _ breaks: inout (positions: [Int32], hard: [UInt8])) {
        func printableASCII(_ u: UInt16) -> Bool { u > 0x20 && u < 0x7F }
        var kept = 0  // compacted in place: one pass, whatever the number of slashes
        for k in breaks.positions.indices {
            let p = Int(breaks.positions[k])
            if breaks.hard[k] == 0, p > 0, p < text.count, text[p - 1] == 0x2F, printableASCII(text[p]) { continue }
            breaks.positions[kept] = breaks.positions[k]
            breaks.hard[kept] = breaks.hard[k]
            kept += 1
        }
        breaks.positions.removeLast(breaks.positions.count - kept)
        breaks.hard.removeLast(breaks.hard.count - kept)
    }

    /// Unicode 15.1 narrowed LB21a to `HL (HY | HH) × [^HL]`: a hyphen between two Hebrew
    /// letters is a break opportunity again. Debian 12's ICU 72 predates that; Chromium's
    /// does not. Adds those opportunities.
    static func addHebrewHyphenBreaks(_ text: [UInt16], _ breaks: inout (positions: [Int32], hard: [UInt8])) {
        func isHebrewLetter(_ u: UInt16) -> Bool { (0x05D0...0x05F2).contains(u) || (0xFB1D...0xFB4F).contains(u) }
        var added: [Int32] = []
        var i = 2
        while i < text.count {
            if (text[i - 1] == 0x2D || text[i - 1] == 0x2010) && isHebrewLetter(text[i - 2]) && isHebrewLetter(text[i]) {
                added.append(Int32(i))
            }
            i += 1
        }
        guard !added.isEmpty else { return }
        var merged: [(Int32, UInt8)] = zip(breaks.positions, breaks.hard).map { ($0, $1) }
        for p in added where !breaks.positions.contains(p) { merged.append((p, 0)) }
        merged.sort { $0.0 < $1.0 }
        breaks = (merged.map(\.0), merged.map(\.1))
    }

    /// Grapheme cluster boundaries as a flag per UTF-16 unit: true where a cluster starts.
    static func clusterStarts(_ text: [UInt16]) -> [Bool] {
        // Below U+0300 (Latin, with Latin-1 and Extended-A/B) every character is a cluster
        // (UAX #29: no Extend, SpacingMark, Prepend or ZWJ there; CR LF is one, but the
        // paragraph has no CR left): skip ICU.
        if !text.contains(where: { $0 >= 0x300 || $0 == 0x0D }) { return [Bool](repeating: true, count: text.count) }
        var starts = [Bool](repeating: false, count: text.count)
        var positions = [Int32](repeating: 0, count: text.count + 1)
        let count = layoutd_grapheme_breaks(text, Int32(text.count), &positions, Int32(positions.count))
        starts[0] = true
        if count < 0 {
            for i in 0..<text.count where !UTF16.isTrailSurrogate(text[i]) { starts[i] = true }
            return starts
        }
        for p in positions[0..<Int(count)] where Int(p) < text.count { starts[Int(p)] = true }
        return starts
    }

    /// The bidi embedding level of each UTF-16 unit (even left to right, odd right to left).
    static func bidiLevels(_ text: [UInt16], rightToLeft: Bool) -> [UInt8] {
        var levels = [UInt8](repeating: rightToLeft ? 1 : 0, count: text.count)
        guard !text.isEmpty else { return levels }
        // Text with no right-to-left characters is all at the paragraph's level: skip ICU.
        if !rightToLeft && !text.contains(where: { $0 >= 0x0590 }) { return levels }
        if layoutd_bidi_levels(text, Int32(text.count), rightToLeft ? 1 : 0, &levels) < 0 {
            levels = [UInt8](repeating: rightToLeft ? 1 : 0, count: text.count)
        }
        return levels
    }
}
