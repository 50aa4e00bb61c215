/// What a node's style sets, summarised when the style is stored, so the layout pass can skip
/// resolving properties a node does not use (most nodes set no margins, padding or min/max).
@usableFromInline struct StyleFlags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt16
    @inlinable init(rawValue: UInt16) { self.rawValue = rawValue }

    static let margin = StyleFlags(rawValue: 1 << 0)
    static let paddingOrBorder = StyleFlags(rawValue: 1 << 1)
    static let minOrMax = StyleFlags(rawValue: 1 << 2)
    static let max = StyleFlags(rawValue: 1 << 3)
    static let insets = StyleFlags(rawValue: 1 << 4)
    /// Margin percentages resolve against the parent's full width and height (StackViewLayout).
    static let marginPercentOfContainerSize = StyleFlags(rawValue: 1 << 5)
    /// `display: none` or `contents`, or absolutely positioned: laid out, zeroed or flattened
    /// other than by its parent's layout call (see `LayoutPass.skipsUntouchedRoundings`).
    static let outOfFlow = StyleFlags(rawValue: 1 << 6)
    /// Aligns its items or itself by baseline: its container then reads the baselines of its
    /// items' subtrees in the middle of its layout (see `LayoutTree.relayoutsExactly`).
    static let baseline = StyleFlags(rawValue: 1 << 7)

    init(_ style: Style) {
        self = withUnsafePointer(to: style) { StyleFlags(at: $0) }
    }

    /// The flags of the style at `style`, read in place: only the fields it looks at are
    /// loaded, not a copy of the whole (few hundred byte) style.
    init(at style: UnsafePointer<Style>) {
        var flags: StyleFlags = []
        let marginEmpty = Self.isEmpty(style.pointee.margin)
        if !marginEmpty { flags.insert(.margin) }
        if style.pointee.percentMarginsAgainstContainerSize && !marginEmpty {
            flags.insert(.marginPercentOfContainerSize)
        }
        if !Self.isEmpty(style.pointee.padding) || !Self.isEmpty(style.pointee.border) { flags.insert(.paddingOrBorder) }
        if !style.pointee.maxWidth.isUndefined || !style.pointee.maxHeight.isUndefined { flags.insert([.max, .minOrMax]) }
        if !Self.isEmpty(style.pointee.position) { flags.insert(.insets) }
        if !style.pointee.minWidth.isUndefined || !style.pointee.minHeight.isUndefined { flags.insert(.minOrMax) }
        if style.pointee.display != .flex || style.pointee.positionType == .absolute { flags.insert(.outOfFlow) }
        if style.pointee.alignItems == .baseline || style.pointee.alignSelf == .baseline { flags.insert(.baseline) }
        self = flags
    }

    /// The flags of the style at `style` whose length groups a decoder reports in `groups`
    /// (the groups it set on a base style without any): the same flags as `init(at:)` without
    /// scanning every edge.
    init(at style: UnsafePointer<Style>, groups: SetStyleGroups) {
        var flags: StyleFlags = []
        if groups.contains(.margin) {
            flags.insert(.margin)
            if style.pointee.percentMarginsAgainstContainerSize { flags.insert(.marginPercentOfContainerSize) }
        }
        if groups.contains(.paddingOrBorder) { flags.insert(.paddingOrBorder) }
        if groups.contains(.maximum) { flags.insert([.max, .minOrMax]) }
        if groups.contains(.minimum) { flags.insert(.minOrMax) }
        if groups.contains(.insets) { flags.insert(.insets) }
        if style.pointee.display != .flex || style.pointee.positionType == .absolute { flags.insert(.outOfFlow) }
        if style.pointee.alignItems == .baseline || style.pointee.alignSelf == .baseline { flags.insert(.baseline) }
        self = flags
    }

    /// Every edge is exactly `.undefined` (value 0; an undefined unit carrying another value
    /// counts as set). The structural hash relies on this: it skips the edges of a group whose
    /// flag is clear, which must be the edges it would find equal to `.undefined`.
    private static func isEmpty(_ edges: Edges) -> Bool {
        isUnset(edges.left) && isUnset(edges.top) && isUnset(edges.right) && isUnset(edges.bottom)
            && isUnset(edges.start) && isUnset(edges.end) && isUnset(edges.horizontal)
            && isUnset(edges.vertical) && isUnset(edges.all)
    }

    @inline(__always) private static func isUnset(_ value: StyleValue) -> Bool {
        value.unit == .undefined && value.value == 0
    }
}

/// Which groups of a style's lengths a decoder set, reported to `LayoutTree.addNode(base:under:
/// reportingGroups:)` so the node's summary flags come from them instead of a scan of its 36
/// edges (a quarter of adding a node). A group is set when any of its lengths was given a
/// value other than `undefined` on a base style that has none.
@_spi(Decoding)
public struct SetStyleGroups: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A margin edge.
    public static let margin = SetStyleGroups(rawValue: 1 << 0)
    /// A padding or border edge.
    public static let paddingOrBorder = SetStyleGroups(rawValue: 1 << 1)
    /// A position (inset) edge.
    public static let insets = SetStyleGroups(rawValue: 1 << 2)
    /// `minWidth` or `minHeight`.
    public static let minimum = SetStyleGroups(rawValue: 1 << 3)
    /// `maxWidth` or `maxHeight`.
    public static let maximum = SetStyleGroups(rawValue: 1 << 4)
}

/// How many nodes have the flags a layout call asks the whole tree about (see
/// `LayoutTree.flagCounts`).
@usableFromInline struct StyleFlagCounts: Sendable {
    var outOfFlow = 0
    var baseline = 0

    /// One node's flags went from `old` to `new` (a new node: from none).
    @inline(__always) mutating func replace(_ old: StyleFlags, with new: StyleFlags) {
        if old.contains(.outOfFlow) { outOfFlow -= 1 }
        if new.contains(.outOfFlow) { outOfFlow += 1 }
        if old.contains(.baseline) { baseline -= 1 }
        if new.contains(.baseline) { baseline += 1 }
    }
}
