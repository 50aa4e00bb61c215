// The keyword properties of the style model, with Yoga's members and CSS spellings.

/// Layout direction. `inherit` takes the parent's resolved direction.
public enum Direction: UInt8, Sendable, CaseIterable {
    case inherit, ltr, rtl
}

public enum FlexDirection: UInt8, Sendable, CaseIterable {
    case column, columnReverse, row, rowReverse
    // Always inlined: left to the optimizer, it stayed a call at some fifty sites of the layout.
    @inlinable @inline(__always) public var isRow: Bool { self == .row || self == .rowReverse }
    @inlinable public var isReverse: Bool { self == .columnReverse || self == .rowReverse }
}

public enum Justify: UInt8, Sendable, CaseIterable {
    case flexStart, center, flexEnd, spaceBetween, spaceAround, spaceEvenly
}

/// Used by alignItems, alignSelf and alignContent (Yoga shares one enum for the three).
public enum Align: UInt8, Sendable, CaseIterable {
    case auto, flexStart, center, flexEnd, stretch, baseline, spaceBetween, spaceAround, spaceEvenly
}

public enum PositionType: UInt8, Sendable, CaseIterable {
    case `static`, relative, absolute
}

public enum Wrap: UInt8, Sendable, CaseIterable {
    case noWrap, wrap, wrapReverse
}

public enum Overflow: UInt8, Sendable, CaseIterable {
    case visible, hidden, scroll
}

public enum Display: UInt8, Sendable, CaseIterable {
    case flex, none, contents
}

public enum BoxSizing: UInt8, Sendable, CaseIterable {
    case borderBox, contentBox
}

/// The spelling used on the wire and in CSS for each keyword.
public protocol CSSKeyword: CaseIterable, Sendable {
    var cssName: String { get }
}

extension CSSKeyword {
    /// The member whose CSS name is `name`, if any.
    public init?(cssName name: String) {
        guard let match = Self.allCases.first(where: { $0.cssName == name }) else { return nil }
        self = match
    }
    /// Every accepted spelling, for error messages.
    public static var cssNames: [String] { allCases.map(\.cssName) }
}

extension Direction: CSSKeyword {
    public var cssName: String { ["inherit", "ltr", "rtl"][Int(rawValue)] }
}
extension FlexDirection: CSSKeyword {
    public var cssName: String { ["column", "column-reverse", "row", "row-reverse"][Int(rawValue)] }
}
extension Justify: CSSKeyword {
    public var cssName: String {
        ["flex-start", "center", "flex-end", "space-between", "space-around", "space-evenly"][Int(rawValue)]
    }
}
extension Align: CSSKeyword {
    public var cssName: String {
        ["auto", "flex-start", "center", "flex-end", "stretch", "baseline",
         "space-between", "space-around", "space-evenly"][Int(rawValue)]
    }
}
extension PositionType: CSSKeyword {
    public var cssName: String { ["static", "relative", "absolute"][Int(rawValue)] }
}
extension Wrap: CSSKeyword {
    public var cssName: String { ["nowrap", "wrap", "wrap-reverse"][Int(rawValue)] }
}
extension Overflow: CSSKeyword {
    public var cssName: String { ["visible", "hidden", "scroll"][Int(rawValue)] }
}
extension Display: CSSKeyword {
    public var cssName: String { ["flex", "none", "contents"][Int(rawValue)] }
}
extension BoxSizing: CSSKeyword {
    public var cssName: String { ["border-box", "content-box"][Int(rawValue)] }
}
