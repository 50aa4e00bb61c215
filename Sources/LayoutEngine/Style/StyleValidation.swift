extension Style {
    /// Checks every number: all must be finite, and sizes, padding, borders, gaps, grow, shrink,
    /// basis and aspect ratio must not be negative. Margins, insets and `flex` may be.
    public func validate() throws(StyleError) {
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
