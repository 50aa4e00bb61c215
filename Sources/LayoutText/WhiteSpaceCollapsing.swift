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
            for unit in span.text.utf16 {
                var u = unit
                if u == Self.carriageReturn { previousWasCR = true; u = Self.newline }
                else if u == Self.newline && previousWasCR { previousWasCR = false; continue }
                else { previousWasCR = false }
                if !collapse {
                    if u == Self.newline && !keepNewlines { u = Self.space }
                    append(u, span: index)
                    continue
                }
                if u == Self.newline && keepNewlines {
                    // pre-line: spaces before a newline go, and those after it (afterSpace).
                    while let last = units.last, last == Self.space { units.removeLast(); spanOfUnit.removeLast() }
                    append(Self.newline, span: index)
                    afterSpace = true
                    continue
                }
                if u == Self.space || u == Self.tab || u == Self.newline {
                    if !afterSpace { append(Self.space, span: index) }
                    afterSpace = true
                    continue
                }
                append(u, span: index)
                afterSpace = false
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
