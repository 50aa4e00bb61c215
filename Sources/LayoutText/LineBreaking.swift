import LayoutTextModel

/// One line as the breaker cut it: units `start..<end` of the paragraph (end includes the
/// trailing spaces and newline), of which `start..<contentEnd` take room.
struct LineRange {
    var start: Int
    var end: Int
    var contentEnd: Int
    /// The line ends at a forced break or the paragraph's end (it is not justified).
    var endsParagraph: Bool
}

extension PreparedText {
    /// The width of units `a..<b`: each text item's part snapped up to Blink's 1/64 px. With
    /// tabs, `a` is taken as a line's start: a tab advances to the next multiple of its
    /// interval from there.
    func width(_ a: Int, _ b: Int) -> Float {
        guard b > a else { return 0 }
        if hasTabs {
            var x: Double = 0
            for k in a..<b {
                if units[k] == CollapsedParagraph.tab {
                    let interval = Double(advances[k])
                    if interval > 0 { x = ((x / interval).rounded(.down) + 1) * interval }
                } else {
                    x += Double(advances[k])
                }
            }
            return LayoutUnit.ceil(x)
        }
        if itemStarts.count == 1 { return LayoutUnit.ceil(prefix[b] - prefix[a]) }
        var total: Float = 0
        var start = a
        // The first item start after `a`, by binary search.
        var lo = 0, hi = itemStarts.count
        while lo < hi { let mid = (lo + hi) / 2; if itemStarts[mid] <= a { lo = mid + 1 } else { hi = mid } }
        var k = lo
        while start < b {
            let end = k < itemStarts.count ? min(itemStarts[k], b) : b
            total += LayoutUnit.ceil(prefix[end] - prefix[start])
            start = end
            k += 1
        }
        return total
    }

    /// The width of the unbreakable piece `a..<b` as Blink's min-content measures it: in each
    /// text item, the piece's right edge minus its left edge, each snapped up to 1/64 px from
    /// the item's left edge (not the piece's own width snapped up: a word after "hang " in
    /// 13 px DejaVu Sans Mono is 62.609375 px, not 62.625). A right-to-left item's left edge
    /// is its logical end. With tabs, `width`.
    func pieceWidth(_ a: Int, _ b: Int) -> Float {
        guard b > a, !hasTabs else { return width(a, b) }
        // The item `a` is in, by binary search: the last start at or before it.
        var lo = 0, hi = itemStarts.count
        while lo < hi { let mid = (lo + hi) / 2; if itemStarts[mid] <= a { lo = mid + 1 } else { hi = mid } }
        var k = lo, itemStart = itemStarts[max(0, lo - 1)], start = a
        var total: Float = 0
        while start < b {
            let itemEnd = k < itemStarts.count ? itemStarts[k] : units.count
            let end = min(itemEnd, b)
            if !rightToLeftItems.isEmpty && rightToLeftItems[k - 1] {
                let itemWidth = prefix[itemEnd] - prefix[itemStart]
                total += LayoutUnit.ceil(itemWidth - (prefix[start] - prefix[itemStart]))
                    - LayoutUnit.ceil(itemWidth - (prefix[end] - prefix[itemStart]))
            } else {
                total += LayoutUnit.ceil(prefix[end] - prefix[itemStart]) - LayoutUnit.ceil(prefix[start] - prefix[itemStart])
            }
            itemStart = end
            start = end
            k += 1
        }
        return total
    }

    /// `b` moved back over what takes no room at a line's end: the newline, and spaces that
    /// collapse (normal, nowrap, pre-line) or hang (pre-wrap). `pre` keeps its spaces.
    func contentEnd(_ a: Int, _ b: Int) -> Int {
        var e = b
        if e > a && units[e - 1] == CollapsedParagraph.newline { e -= 1 }
        guard style.whiteSpace != .pre else { return e }
        while e > a && (units[e - 1] == CollapsedParagraph.space || units[e - 1] == CollapsedParagraph.tab) { e -= 1 }
        return e
    }

    /// The hyphen a line `a..<b` ends with when it breaks after a soft hyphen (the line does
    /// not end the paragraph), else nil.
    func hyphen(_ a: Int, contentEnd e: Int, endsParagraph: Bool) -> (character: UInt16, width: Float)? {
        guard !hyphens.isEmpty, !endsParagraph, e > a, units[e - 1] == CollapsedParagraph.softHyphen else { return nil }
        return hyphens[Int(spanOfUnit[e - 1])]
    }

    /// The width a line `a..<b` takes: its content and the hyphen of a soft hyphen it breaks at.
    func lineWidth(_ a: Int, _ b: Int, endsParagraph: Bool) -> Float {
        let e = contentEnd(a, b)
        return width(a, e) + (hyphen(a, contentEnd: e, endsParagraph: endsParagraph)?.width ?? 0)
    }

    /// Greedy line breaking at UAX #14 opportunities (CSS Text 3 §5), lines at most
    /// `available` wide (nil: no limit). A word wider than the line overflows it, or with
    /// `overflowWrap` breaks between grapheme clusters. Stops after `maxCount` lines (the
    /// first lines do not depend on those after them).
    func breakLines(available: Float?, maxCount: Int = .max) -> [LineRange] {
        let n = units.count
        var lines: [LineRange] = []
        guard n > 0, maxCount > 0 else { return lines }
        // As Blink (NGLineBreaker::AvailableWidthToFit): a line fits up to one layout unit
        // (1/64 px) past the available width, for the rounding of its items' widths.
        let limit = available.map { $0 + 1.0 / 64 } ?? .infinity
        let wraps = style.whiteSpace.wraps && available != nil
        func emit(_ a: Int, _ b: Int, _ endsParagraph: Bool) {
            lines.append(LineRange(start: a, end: b, contentEnd: contentEnd(a, b), endsParagraph: endsParagraph))
        }
        var start = 0
        var lastFit = -1  // the last opportunity that fits on the current line
        var k = 0
        while k < breaks.count && lines.count < maxCount {
            let p = Int(breaks[k])
            let hard = hardBreaks[k] != 0 || p == n
            if p <= start { k += 1; continue }
            if !wraps {
                if hard { emit(start, p, true); start = p }
                k += 1
                continue
            }
            let w = lineWidth(start, p, endsParagraph: hard)
            if w <= limit {
                lastFit = k
                if hard { emit(start, p, true); start = p; lastFit = -1 }
                k += 1
            } else if lastFit >= 0 {
                let q = Int(breaks[lastFit])
                emit(start, q, false)
                start = q
                lastFit = -1
            } else if style.overflowWrap != .normal {
                // Break the word between clusters: as many as fit, at least one.
                var q = start + 1
                while q < p && !clusterStart[q] { q += 1 }
                var next = q
                while next < p {
                    var after = next + 1
                    while after < p && !clusterStart[after] { after += 1 }
                    if width(start, contentEnd(start, after)) > limit { break }
                    q = after
                    next = after
                }
                if q >= p {
                    emit(start, p, hard); start = p; k += 1
                } else {
                    emit(start, q, false); start = q
                }
            } else {
                // One word wider than the line: it overflows.
                emit(start, p, hard)
                start = p
                k += 1
            }
        }
        if start < n && lines.count < maxCount { emit(start, n, true) }
        return lines
    }

    /// The widest unbreakable piece (min-content width). `overflowWrap: anywhere` makes every
    /// cluster a piece, but only in text that wraps; `break-word` lowers no min-content.
    public var minContentWidth: Float {
        var widest: Float = 0
        var start = 0
        let anywhere = style.overflowWrap == .anywhere && style.whiteSpace.wraps
        for (k, position) in breaks.enumerated() {
            let p = Int(position)
            if anywhere {
                var c = start
                while c < p {
                    var e = c + 1
                    while e < p && !clusterStart[e] { e += 1 }
                    widest = max(widest, pieceWidth(c, contentEnd(c, e)))
                    c = e
                }
            } else if style.whiteSpace.wraps || hardBreaks[k] != 0 || p == units.count {
                widest = max(widest, pieceWidth(start, contentEnd(start, p)))
            } else {
                continue
            }
            start = p
        }
        return widest
    }

    /// The width with no wrapping (max-content width).
    public var maxContentWidth: Float {
        breakLines(available: nil).reduce(0) { max($0, width($1.start, $1.contentEnd)) }
    }
}
