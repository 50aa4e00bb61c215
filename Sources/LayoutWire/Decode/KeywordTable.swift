import LayoutEngine

/// The wire spellings of one keyword enum, built once from the engine's `CSSKeyword` names,
/// matched against raw string bytes without making a String.
struct KeywordTable<Keyword: CSSKeyword> {
    let entries: [(bytes: [UInt8], value: Keyword)]

    init(_ type: Keyword.Type = Keyword.self, excluding excluded: Set<String> = []) {
        entries = Keyword.allCases.filter { !excluded.contains($0.cssName) }.map { (Array($0.cssName.utf8), $0) }
    }

    @inline(__always) func match(_ bytes: UnsafeBufferPointer<UInt8>) -> Keyword? {
        for entry in entries where entry.bytes.count == bytes.count {
            if entry.bytes.withUnsafeBufferPointer({ e in
                for i in 0..<e.count where e[i] != bytes[i] { return false }
                return true
            }) { return entry.value }
        }
        return nil
    }

    /// `"a", "b" or "c"`, for error messages.
    var accepted: String {
        let names = entries.map { "\"\(String(decoding: $0.bytes, as: UTF8.self))\"" }
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}

/// The tables of every keyword property, built once.
enum Keywords {
    static let direction = KeywordTable(Direction.self)
    static let ownerDirection = KeywordTable(Direction.self, excluding: ["inherit"])
    static let flexDirection = KeywordTable(FlexDirection.self)
    static let justify = KeywordTable(Justify.self)
    static let align = KeywordTable(Align.self)
    static let positionType = KeywordTable(PositionType.self)
    static let wrap = KeywordTable(Wrap.self)
    static let overflow = KeywordTable(Overflow.self)
    static let display = KeywordTable(Display.self)
    static let boxSizing = KeywordTable(BoxSizing.self)
}
