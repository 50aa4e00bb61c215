// A node's margins, border and padding resolved onto the physical edges of its layout
// (the first part of Yoga's calculateLayoutImpl).

extension LayoutPass {
    /// Resolves `node`'s margins, border and padding for `direction` into its layout, and
    /// returns the sum of its margins on each axis. Percentages resolve against `ownerWidth`
    /// (or, for margins so configured, the parent's full width and height; see
    /// `marginReference`).
    @inline(always) func resolveBoxModel(_ node: Int, _ direction: Direction,
                                           _ ownerWidth: Float) -> (row: Float, column: Float) {
        let ns = style(node)
        let nl = layouts + node
        let flexRowDirection = FlexDirection.row.resolved(direction)
        let flexColumnDirection = FlexDirection.column
        let startEdge: PhysicalEdge = direction == .ltr ? .left : .right
        let endEdge: PhysicalEdge = direction == .ltr ? .right : .left

        var marginAxisRow: Float = 0
        var marginAxisColumn: Float = 0
        let nodeFlags = flags[node]
        if nodeFlags.contains(.margin) {
            let rowReference = marginReference(node, flexRowDirection, ownerWidth)
            let marginRowLeading = ns.pointee.inlineStartMargin(flexRowDirection, direction, rowReference)
            let marginRowTrailing = ns.pointee.inlineEndMargin(flexRowDirection, direction, rowReference)
            let columnReference = marginReference(node, flexColumnDirection, ownerWidth)
            let marginColumnLeading = ns.pointee.inlineStartMargin(flexColumnDirection, direction, columnReference)
            let marginColumnTrailing = ns.pointee.inlineEndMargin(flexColumnDirection, direction, columnReference)
            nl.pointee.margin[startEdge] = marginRowLeading
            nl.pointee.margin[endEdge] = marginRowTrailing
            nl.pointee.margin.top = marginColumnLeading
            nl.pointee.margin.bottom = marginColumnTrailing
            marginAxisRow = marginRowLeading + marginRowTrailing
            marginAxisColumn = marginColumnLeading + marginColumnTrailing
        } else {
            nl.pointee.margin = EdgeValues()
        }
        if nodeFlags.contains(.paddingOrBorder) {
            nl.pointee.border[startEdge] = ns.pointee.border(flexRowDirection.inlineStartEdge(direction), direction)
            nl.pointee.border[endEdge] = ns.pointee.border(flexRowDirection.inlineEndEdge(direction), direction)
            nl.pointee.border.top = ns.pointee.border(.top, direction)
            nl.pointee.border.bottom = ns.pointee.border(.bottom, direction)
            nl.pointee.padding[startEdge] = ns.pointee.padding(flexRowDirection.inlineStartEdge(direction), direction, ownerWidth)
            nl.pointee.padding[endEdge] = ns.pointee.padding(flexRowDirection.inlineEndEdge(direction), direction, ownerWidth)
            nl.pointee.padding.top = ns.pointee.padding(.top, direction, ownerWidth)
            nl.pointee.padding.bottom = ns.pointee.padding(.bottom, direction, ownerWidth)
        } else {
            nl.pointee.border = EdgeValues()
            nl.pointee.padding = EdgeValues()
        }
        return (marginAxisRow, marginAxisColumn)
    }
}
