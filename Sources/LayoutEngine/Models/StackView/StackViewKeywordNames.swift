// The names of StackViewLayout's keywords on the wire: the library's own Swift spellings.

extension StackViewLayout.Direction: CSSKeyword {
    public var cssName: String { ["column", "row"][Int(rawValue)] }
}

extension StackViewLayout.JustifyContent: CSSKeyword {
    public var cssName: String {
        ["start", "center", "end", "spaceBetween", "spaceAround", "spaceEvenly"][Int(rawValue)]
    }
}

extension StackViewLayout.AlignItems: CSSKeyword {
    public var cssName: String { ["stretch", "start", "center", "end"][Int(rawValue)] }
}

extension StackViewLayout.AlignSelf: CSSKeyword {
    public var cssName: String { ["auto", "stretch", "start", "center", "end"][Int(rawValue)] }
}
