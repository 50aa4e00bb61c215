// The names of Core Layout's keywords on the wire: the library's own Swift spellings.

extension CoreLayout.Axis: CSSKeyword {
    public var cssName: String { ["horizontal", "vertical"][Int(rawValue)] }
}

extension CoreLayout.PrimaryAxisDistribution: CSSKeyword {
    public var cssName: String { ["leading", "center", "trailing", "spaceAround", "spaceBetween"][Int(rawValue)] }
}

extension CoreLayout.SecondaryAxisDistribution: CSSKeyword {
    public var cssName: String { ["leading", "center", "trailing", "stretch"][Int(rawValue)] }
}

extension CoreLayout.SecondaryAxisDistributionWhenWrapping: CSSKeyword {
    public var cssName: String {
        ["leading", "center", "trailing", "stretch", "spaceAround", "spaceBetween"][Int(rawValue)]
    }
}
