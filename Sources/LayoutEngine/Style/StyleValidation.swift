extension Style {
    /// Checks every number: all must be finite, and sizes, padding, borders, gaps, grow, shrink,
    /// basis and aspect ratio must not be negative. Margins, insets and `flex` may be.
    public func validate() throws(StyleError) {
        // Nearly every style is valid: check that in one straight pass, and walk the
        // properties one by one (to name the bad one) only when it fails.
        if isValid { return }
        try Self.check(flex, "flex", allowNegative: true)
        try Self.check(flexGrow, "flexGrow", allowNegative: false)
        try Self.check(flexShrink, "flexShrink", allowNegative: false)
        try Self.check(aspectRatio, "aspectRatio", allowNegative: false)
        try Self.check(flexBasis, "flexBasis", allowNegative: false)
        try Self.check(width, "width", allowNegative: false)
        try Self.check(height, "height", allowNegative: false)
        try Self.check(minWidth, "minWidth", allowNegative: false)
        try Self.check(minHeight, "minHeight", allowNegative: false)
        try Self.check(maxWidth, "maxWidth", allowNegative: false)
        try Self.check(maxHeight, "maxHeight", allowNegative: false)
        try Self.check(gap, "gap", allowNegative: false)
        try Self.check(rowGap, "rowGap", allowNegative: false)
        try Self.check(columnGap, "columnGap", allowNegative: false)
        try Self.check(margin, "margin", allowNegative: true)
        try Self.check(position, "position", allowNegative: true)
        try Self.check(padding, "padding", allowNegative: false)
        try Self.check(border, "border", allowNegative: false)
    }

    private static func check(_ number: Float?, _ property: String, allowNegative: Bool) throws(StyleError) {
        guard let number else { return }
        if !number.isFinite { throw StyleError(property: property, reason: "must be a finite number") }
        if !allowNegative && number < 0 { throw StyleError(property: property, reason: "must not be negative") }
    }

    private static func check(_ value: StyleValue, _ property: String, allowNegative: Bool) throws(StyleError) {
        guard value.unit == .points || value.unit == .percent else { return }
        try check(value.value, property, allowNegative: allowNegative)
    }

    private static func check(_ edges: Edges, _ property: String, allowNegative: Bool) throws(StyleError) {
        for edge in Edge.allCases {
            let value = edges[edge]
            // Name the edge only on failure: building the string per edge is costly.
            guard value.unit == .points || value.unit == .percent,
                  !value.value.isFinite || (!allowNegative && value.value < 0) else { continue }
            try check(value, "\(property)[\(edge)]", allowNegative: allowNegative)
        }
    }
}

extension Style {
    /// True when every number passes the rules of `validate()`.
    @inline(__always) var isValid: Bool {
        Self.ok(flex, negative: true) && Self.ok(flexGrow, negative: false) && Self.ok(flexShrink, negative: false)
            && Self.ok(aspectRatio, negative: false)
            && Self.ok(flexBasis, negative: false) && Self.ok(width, negative: false) && Self.ok(height, negative: false)
            && Self.ok(minWidth, negative: false) && Self.ok(minHeight, negative: false)
            && Self.ok(maxWidth, negative: false) && Self.ok(maxHeight, negative: false)
            && Self.ok(gap, negative: false) && Self.ok(rowGap, negative: false) && Self.ok(columnGap, negative: false)
            && Self.ok(margin, negative: true) && Self.ok(position, negative: true)
            && Self.ok(padding, negative: false) && Self.ok(border, negative: false)
    }

    @inline(__always) private static func ok(_ number: Float?, negative: Bool) -> Bool {
        guard let number else { return true }
        return number.isFinite && (negative || number >= 0)
    }

    @inline(__always) private static func ok(_ value: StyleValue, negative: Bool) -> Bool {
        // Units other than points and percent carry 0.
        value.value.isFinite && (negative || value.value >= 0)
    }

    @inline(__always) private static func ok(_ e: Edges, negative: Bool) -> Bool {
        ok(e.left, negative: negative) && ok(e.top, negative: negative) && ok(e.right, negative: negative)
            && ok(e.bottom, negative: negative) && ok(e.start, negative: negative) && ok(e.end, negative: negative)
            && ok(e.horizontal, negative: negative) && ok(e.vertical, negative: negative) && ok(e.all, negative: negative)
    }
}
