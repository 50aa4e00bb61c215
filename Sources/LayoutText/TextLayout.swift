import LayoutTextModel

/// One laid-out line, relative to the leaf's content box.
public struct TextLine: Hashable, Sendable {
    /// The line's text in logical order, as laid out: after white-space processing, without
    /// the spaces that collapse at its end, with "…" when clamped with an ellipsis.
    public var text: String
    public var left: Float
    public var top: Float
    public var width: Float
    public var height: Float
    /// The y of the line's alphabetic baseline (from the content box's top, like `top`).
    public var baseline: Float
}

/// A text leaf laid out at one width.
public struct TextLayout: Hashable, Sendable {
    public var lines: [TextLine]
    /// The widest line (the fit-content width when offered no less).
    public var width: Float
    /// The sum of the line heights.
    public var height: Float
    /// The first line's baseline from the content box's top (0 without lines).
    public var firstBaseline: Float
}

/// A line broken, clamped and measured, before alignment and text.
struct MeasuredLine {
    var range: LineRange
    /// End of the units shown (before the ellipsis, if any).
    var end: Int
    var width: Float
    var ellipsis: Bool
    /// The hyphen shown at a soft hyphen the line breaks at.
    var hyphen: UInt16?
    var extent: VerticalExtent
}

extension PreparedText {
    /// The lines at most `available` px wide (nil: no limit), clamped, with their widths and
    /// vertical extents: all a measurement needs, without making strings.
    func measuredLines(available: Float?) -> [MeasuredLine] {
        // A clamped text's lines after the first uncounted one change nothing.
        var ranges = breakLines(available: available, maxCount: style.maxLines > 0 ? style.maxLines + 1 : .max)
        var clampedEllipsis = false
        if style.maxLines > 0 && ranges.count > style.maxLines {
            ranges.removeLast(ranges.count - style.maxLines)
            clampedEllipsis = style.textOverflow == .ellipsis
        }
        var lines: [MeasuredLine] = []
        lines.reserveCapacity(ranges.count)
        for (index, range) in ranges.enumerated() {
            let extent = self.extent(range)
            let hyphen = self.hyphen(range.start, contentEnd: range.contentEnd, endsParagraph: range.endsParagraph)
            let w = width(range.start, range.contentEnd) + (hyphen?.width ?? 0)
            let overflows = available.map { w > $0 + 1.0 / 256 } ?? false
            if style.textOverflow == .ellipsis && ((index == ranges.count - 1 && clampedEllipsis) || overflows) {
                let cut = ellipsized(range, available: available)
                lines.append(MeasuredLine(range: range, end: cut.end, width: cut.width, ellipsis: true, hyphen: nil, extent: extent))
            } else {
                lines.append(MeasuredLine(range: range, end: range.contentEnd, width: w, ellipsis: false,
                                          hyphen: hyphen?.character, extent: extent))
            }
        }
        return lines
    }

    /// A line's box around the baseline: the strut's, those of the spans on it and, for spans
    /// of normal line height, those of the fallback faces they use on it.
    private func extent(_ range: LineRange) -> VerticalExtent {
        var extent = strut
        func add(_ box: VerticalExtent) {
            extent.ascent = max(extent.ascent, box.ascent)
            extent.descent = max(extent.descent, box.descent)
        }
        if spanBoxes.count == 1 {
            add(spanBoxes[0])
        } else {
            var s = -1
            for u in range.start..<range.end where Int(spanOfUnit[u]) != s {
                s = Int(spanOfUnit[u])
                add(spanBoxes[s])
            }
        }
        if !fallbackBoxes.isEmpty {
            for u in range.start..<range.end where fallbackBoxOfUnit[u] >= 0 { add(fallbackBoxes[Int(fallbackBoxOfUnit[u])]) }
        }
        return extent
    }

    /// Lines at most `available` px wide (nil: no limit), aligned in a content box
    /// `boxWidth` wide (nil: `available`, else as wide as the widest line).
    public func layout(available: Float?, boxWidth: Float? = nil) -> TextLayout {
        let measured = measuredLines(available: available)
        let widest = measured.reduce(Float(0)) { max($0, $1.width) }
        let box = boxWidth ?? available ?? widest
        let rtl = style.rightToLeft
        var lines: [TextLine] = []
        lines.reserveCapacity(measured.count)
        var top: Float = 0
        for line in measured {
            let range = line.range
            let height = line.extent.ascent + line.extent.descent
            var lineWidth = line.width
            // Spaces kept at a paragraph's end hang only where they would overflow (CSS Text 3
            // §4.1.3, conditional hanging): up to the box's edge they count for alignment.
            let hanging = trailingSpacesWidth(line)
            let aligned = min(max(box, lineWidth), lineWidth + hanging)
            let free = box - aligned
            var left: Float = 0
            switch style.textAlign {
            case _ where free < 0: left = rtl ? free : 0  // a line wider than the box is start-aligned
            case .left: left = 0
            case .right: left = free
            case .center: left = free / 2
            case .start: left = rtl ? free : 0
            case .end: left = rtl ? 0 : free
            case .justify:
                let opportunities = (range.start..<line.end).reduce(0) { $0 + (units[$1] == CollapsedParagraph.space ? 1 : 0) }
                if !range.endsParagraph && !line.ellipsis && opportunities > 0 && free > 0 {
                    lineWidth = box
                } else {
                    left = rtl ? free : 0
                }
            }
            if rtl { left += aligned - line.width }  // the counted spaces lie left of the text
            var text: String
            if let hyphen = line.hyphen {
                // The soft hyphen shows as a hyphen.
                text = String(decoding: units[range.start..<(line.end - 1)] + [hyphen], as: UTF16.self)
            } else {
                text = String(decoding: units[range.start..<lineTextEnd(range, line.end)], as: UTF16.self)
            }
            if line.ellipsis { text += "\u{2026}" }
            lines.append(TextLine(text: text, left: left, top: top, width: lineWidth, height: height,
                                  baseline: top + line.extent.ascent))
            top += height
        }
        return TextLayout(lines: lines, width: widest, height: top, firstBaseline: lines.first?.baseline ?? 0)
    }

    /// The width of the spaces a pre-wrap paragraph ends with (0 for other lines).
    private func trailingSpacesWidth(_ line: MeasuredLine) -> Float {
        guard style.whiteSpace == .preWrap, line.range.endsParagraph, !line.ellipsis, line.hyphen == nil else { return 0 }
        let end = lineTextEnd(line.range, line.end)
        return end > line.end ? width(line.range.start, end) - width(line.range.start, line.end) : 0
    }

    /// Where a line's text ends: pre-wrap keeps its hanging spaces in the text.
    private func lineTextEnd(_ range: LineRange, _ visibleEnd: Int) -> Int {
        guard style.whiteSpace == .preWrap, visibleEnd == range.contentEnd else { return visibleEnd }
        var e = range.end
        if e > range.start && units[e - 1] == CollapsedParagraph.newline { e -= 1 }
        return e
    }

    /// The line cut so that its text and the ellipsis fit `available`: whole clusters, spaces
    /// before the ellipsis dropped.
    private func ellipsized(_ range: LineRange, available: Float?) -> (end: Int, width: Float, ellipsis: Bool) {
        let limit = (available ?? .infinity) + 1.0 / 256
        var best = range.start
        var c = range.start
        while c < range.contentEnd {
            var e = c + 1
            while e < range.contentEnd && !clusterStart[e] { e += 1 }
            if width(range.start, contentEnd(range.start, e)) + ellipsisWidth > limit { break }
            best = e
            c = e
        }
        let end = contentEnd(range.start, best)
        return (end, LayoutUnit.ceil(Double(width(range.start, end)) + Double(ellipsisWidth)), true)
    }

    /// The leaf's size for a layout engine's measure call, by its width mode: `exact`, the
    /// width is imposed (`available`); else `available` nil, the width is not limited (the
    /// max-content size); else the box takes its fit-content width (CSS Sizing 3 §5.1):
    /// min(max-content, max(min-content, available)), so text that wraps fills the space
    /// offered, and a word longer than that widens the box rather than breaking (overflowWrap
    /// break-word breaks a word only to fit the box itself). The height is that of the lines
    /// broken at the box's width.
    public func measure(available: Float?, exact: Bool) -> (width: Float, height: Float) {
        var memo = MeasureMemo()
        return measure(available: available, exact: exact, memo: &memo)
    }

    /// `measure(available:exact:)` for a caller that measures one leaf many times (a flex
    /// item is measured for its basis, its minimum and its final size): what does not depend
    /// on the width (the intrinsic widths, the lines without a limit) is found once and kept
    /// in `memo`, a box at least as wide as the max-content width takes the unlimited lines
    /// without breaking them again, and a box as wide as the last one its size.
    public func measure(available: Float?, exact: Bool, memo: inout MeasureMemo) -> (width: Float, height: Float) {
        var box = available
        if !exact, let offered = available {
            box = memo.maxContentWidth(self) <= offered + 1.0 / 256 ? nil : max(memo.minContentWidth(self), offered)
        }
        guard let width = box else { return memo.unlimited(self) }
        if widthIndependentAtMaxContent && width >= memo.maxContentWidth(self) {
            return (width, memo.unlimited(self).height)
        }
        return memo.lastSize(self, width)
    }

    /// The widest line (`available` when given) and the sum of the line heights, the lines
    /// at most `available` px wide.
    func measuredSize(available: Float?) -> (width: Float, height: Float) {
        var widest: Float = 0, height: Float = 0
        for line in measuredLines(available: available) {
            widest = max(widest, line.width)
            height += line.extent.ascent + line.extent.descent
        }
        return (available ?? widest, height)
    }

    /// The first line's baseline from the content box's top, at `available` px wide.
    public func firstBaseline(available: Float?) -> Float {
        breakLines(available: available, maxCount: 1).first.map { extent($0).ascent } ?? 0
    }
}

/// What a leaf's measurements share whatever the width (see `PreparedText.measure(available:
/// exact:memo:)`), found on first need. Belongs to one leaf; starts empty.
public struct MeasureMemo: Sendable {
    private var minContent: Float = .nan
    private var maxContent: Float = .nan
    private var unlimitedWidth: Float = .nan
    private var unlimitedHeight: Float = 0
    private var lastBox: Float = .nan
    private var lastHeight: Float = 0
    private var baselineBox: Float = .nan
    private var baseline: Float = 0

    public init() {}

    mutating func minContentWidth(_ text: PreparedText) -> Float {
        if minContent.isNaN { minContent = text.minContentWidth }
        return minContent
    }

    mutating func maxContentWidth(_ text: PreparedText) -> Float {
        if maxContent.isNaN { maxContent = text.maxContentWidth }
        return maxContent
    }

    /// The size of the lines broken with no width limit (`measuredSize(available: nil)`).
    mutating func unlimited(_ text: PreparedText) -> (width: Float, height: Float) {
        if unlimitedWidth.isNaN { (unlimitedWidth, unlimitedHeight) = text.measuredSize(available: nil) }
        return (unlimitedWidth, unlimitedHeight)
    }

    /// The size at a box `width` px wide (`measuredSize(available: width)`), kept for the
    /// next measurement at the same width (an item's basis and final size often agree).
    mutating func lastSize(_ text: PreparedText, _ width: Float) -> (width: Float, height: Float) {
        if width != lastBox { (lastBox, lastHeight) = (width, text.measuredSize(available: width).height) }
        return (width, lastHeight)
    }

    /// `text.firstBaseline(available: width)`, kept for the next call at the same width (a
    /// leaf in a baseline-aligned line is asked several times per layout).
    public mutating func firstBaseline(_ text: PreparedText, available width: Float) -> Float {
        if width != baselineBox { (baselineBox, baseline) = (width, text.firstBaseline(available: width)) }
        return baseline
    }
}
