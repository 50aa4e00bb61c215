import LayoutTextModel

/// The text of a leaf's spans as one paragraph in UTF-16, after CSS white-space processing
/// (CSS Text 3 §4.1.1, phase I), with the span of each unit.
struct CollapsedParagraph {
    var units: [UInt16] = []
    var spanOfUnit: [Int32] = []

    static let space: UInt16 = 0x20, tab: UInt16 = 0x09, newline: UInt16 = 0x0A, carriageReturn: UInt16 = 0x0D
    static let softHyphen: UInt16 = 0xAD

    init(spans: [TextSpan], whiteSpace: WhiteSpace) {
        let collapse = whiteSpace.collapsesSpaces
        let keepNewlines = whiteSpace.preservesNewlines
        // In collapsing modes, whether the last unit kept is a collapsible space (or the start
        // of the paragraph, where spaces are dropped).
        var afterSpace = true
        // No more UTF-16 units than UTF-8 bytes.
        let capacity = spans.reduce(0) { $0 + $1.text.utf8.count }
        units.reserveCapacity(capacity)
        spanOfUnit.reserveCapacity(capacity)
        for (index, span) in spans.enumerated() {
            var previousWasCR = false
            func take(_ unit: UInt16) {
                var u = unit
                if u == Self.carriageReturn { previousWasCR = true; u = Self.newline }
                else if u == Self.newline && previousWasCR { previousWasCR = false; return }
                else { previousWasCR = false }
                if !collapse {
                    if u == Self.newline && !keepNewlines { u = Self.space }
                    append(u, span: index)
                    return
                }
                if u == Self.newline && keepNewlines {
                    // pre-line: spaces before a newline go, and those after it (afterSpace).
                    while let last = units.last, last == Self.space { units.removeLast(); spanOfUnit.removeLast() }
                    append(Self.newline, span: index)
                    afterSpace = true
                    return
                }
                if u == Self.space || u == Self.tab || u == Self.newline {
                    if !afterSpace { append(Self.space, span: index) }
                    afterSpace = true
                    return
                }
                append(u, span: index)
                afterSpace = false
            }
            // ASCII text (most) is its UTF-8 bytes, read without decoding.
            var text = span.text
            let ascii = text.withUTF8 { bytes in
                guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
                if collapse && !keepNewlines {
                    // normal and nowrap (most text), as `take` does it: every space, tab, CR
                    // and LF is a collapsible space; the spans' indices are written after.
                    // Written in place into room for every byte, then cut to the units kept:
                    // no uniqueness check or growth test per unit.
                    let first = units.count
                    var end = first
                    units.append(contentsOf: repeatElement(0, count: bytes.count))
                    units.withUnsafeMutableBufferPointer { out in
                        for byte in bytes {
                            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                                if !afterSpace { out[end] = Self.space; end += 1 }
                                afterSpace = true
                            } else {
                                out[end] = UInt16(byte)
                                end += 1
                                afterSpace = false
                            }
                        }
                    }
                    units.removeLast(units.count - end)
                    spanOfUnit.append(contentsOf: repeatElement(Int32(index), count: end - first))
                    return true
                }
                for byte in bytes { take(UInt16(byte)) }
                return true
            }
            if !ascii {
                for unit in span.text.utf16 { take(unit) }
            }
        }
        if collapse {
            // A collapsible space at the end of the paragraph is removed.
            while let last = units.last, last == Self.space { units.removeLast(); spanOfUnit.removeLast() }
        }
    }

    private mutating func append(_ unit: UInt16, span: Int) {
        units.append(unit)
        spanOfUnit.append(Int32(span))
    }
}
