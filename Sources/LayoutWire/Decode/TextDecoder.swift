import LayoutEngine
import LayoutTextModel

/// The text style keys of the wire format (CSS / React Native names). The first six apply to
/// spans too; the rest are the leaf's (paragraph) properties.
enum TextProperty: CaseIterable {
    case fontFamily, fontSize, fontWeight, fontStyle, lineHeight, letterSpacing
    case textAlign, whiteSpace, overflowWrap, maxLines, textOverflow

    var name: String {
        switch self {
        case .fontFamily: return "fontFamily"
        case .fontSize: return "fontSize"
        case .fontWeight: return "fontWeight"
        case .fontStyle: return "fontStyle"
        case .lineHeight: return "lineHeight"
        case .letterSpacing: return "letterSpacing"
        case .textAlign: return "textAlign"
        case .whiteSpace: return "whiteSpace"
        case .overflowWrap: return "overflowWrap"
        case .maxLines: return "maxLines"
        case .textOverflow: return "textOverflow"
        }
    }
    /// The pointer to this key in a style object: "/" and `name` (which needs no escaping).
    /// Every name fits a small string with its "/" (15 UTF-8 bytes at most): no allocation.
    var pointer: String { "/" + name }
    var appliesToSpans: Bool {
        switch self {
        case .fontFamily, .fontSize, .fontWeight, .fontStyle, .lineHeight, .letterSpacing: return true
        default: return false
        }
    }
    static let spanKeys = allCases.filter(\.appliesToSpans).map(\.name).joined(separator: ", ")

    // The keywords of the keyword properties, read by both decoders.
    static let fontStyles: KeyValuePairs<StaticString, FontSlant> = ["normal": .normal, "italic": .italic]
    static let textAligns: KeyValuePairs<StaticString, TextAlign> = [
        "left": .left, "right": .right, "center": .center, "start": .start, "end": .end, "justify": .justify,
    ]
    static let whiteSpaces: KeyValuePairs<StaticString, WhiteSpace> = [
        "normal": .normal, "nowrap": .nowrap, "pre": .pre, "pre-wrap": .preWrap, "pre-line": .preLine,
    ]
    static let overflowWraps: KeyValuePairs<StaticString, OverflowWrap> = [
        "normal": .normal, "break-word": .breakWord, "anywhere": .anywhere,
    ]
    static let textOverflows: KeyValuePairs<StaticString, TextOverflow> = ["clip": .clip, "ellipsis": .ellipsis]

    /// The families a `fontFamily` string names: itself, or a CSS list (`"Inter, sans-serif"`,
    /// names optionally quoted).
    static func familyNames(_ text: String) -> [String] {
        // One name without a comma, outer blanks or quotes (most are): itself.
        let bytes = text.utf8
        if let first = bytes.first, let last = bytes.last, !bytes.contains(UInt8(ascii: ",")),
           ![0x20, 0x09, 0x22, 0x27].contains(first), ![0x20, 0x09, 0x22, 0x27].contains(last) {
            return [text]
        }
        return text.split(separator: ",").map { name in
            var n = name.trimmingCharacters(in: " \t")
            if n.count >= 2, let q = n.first, q == "\"" || q == "'", n.last == q { n = String(n.dropFirst().dropLast()) }
            return n
        }.filter { !$0.isEmpty }
    }

    /// A `fontWeight` string's weight before the range check: `"normal"`, `"bold"` or a number.
    static func weight(word: String) -> Float? {
        word == "normal" ? 400 : word == "bold" ? 700 : Float(word)
    }

    /// A `lineHeight` string's percentage (`"150%"`), when it is one.
    static func lineHeightPercent(_ word: String) -> Float? {
        guard word.hasSuffix("%"), let percent = Float(word.dropLast()), percent.isFinite, percent >= 0 else { return nil }
        return percent
    }

    // The bounds of the numeric properties: fontSize and letterSpacing keep every line's extent
    // within Float (a million characters at the bound stay near 1e10 px).
    static let maxFontSize: Float = 10_000
    static let maxLetterSpacing: Float = 10_000
    static let maxMaxLines: Float = 1_000_000

    /// Declares this property in `style` from a number or a string the tape decoder takes with
    /// the same meaning (`RequestDecoder.decodeTextProperty`), and returns true; returns false,
    /// setting nothing, for anything else (an error, or a family array), which the one-pass
    /// decoder leaves to the tape decoder.
    func set(_ input: StyleInput, on style: inout TextStyleDeclaration) -> Bool {
        func number(negative: Bool) -> Float? {
            guard case .number(let value) = input else { return nil }
            return try? StyleProperty.checked(value, allowNegative: negative)
        }
        func word() -> String? {
            guard case .string(let bytes) = input else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        func keyword<T>(_ table: KeyValuePairs<StaticString, T>) -> T? {
            guard case .string(let bytes) = input else { return nil }
            for entry in table where spells(bytes, entry.key) { return entry.value }
            return nil
        }
        switch self {
        case .fontFamily:
            guard let names = word().map(Self.familyNames), !names.isEmpty else { return false }
            style.fontFamilies = names
        case .fontSize:
            guard let size = number(negative: false), size > 0 && size <= Self.maxFontSize else { return false }
            style.fontSize = size
        case .fontWeight:
            guard let weight = number(negative: false) ?? word().flatMap(Self.weight(word:)),
                  weight >= 1, weight <= 1000 else { return false }
            style.fontWeight = Int(weight.rounded())
        case .fontStyle:
            guard let slant = keyword(Self.fontStyles) else { return false }
            style.fontStyle = slant
        case .lineHeight:
            if let pixels = number(negative: false) {
                style.lineHeight = .pixels(pixels)
            } else if let word = word(), word == "normal" {
                style.lineHeight = .normal
            } else if let percent = word().flatMap(Self.lineHeightPercent) {
                style.lineHeight = .percent(percent)
            } else {
                return false
            }
        case .letterSpacing:
            guard let spacing = number(negative: true), abs(spacing) <= Self.maxLetterSpacing else { return false }
            style.letterSpacing = spacing
        case .textAlign:
            guard let align = keyword(Self.textAligns) else { return false }
            style.textAlign = align
        case .whiteSpace:
            guard let space = keyword(Self.whiteSpaces) else { return false }
            style.whiteSpace = space
        case .overflowWrap:
            guard let wrap = keyword(Self.overflowWraps) else { return false }
            style.overflowWrap = wrap
        case .maxLines:
            guard let lines = number(negative: false), lines == lines.rounded(), lines <= Self.maxMaxLines else { return false }
            style.maxLines = Int(lines)
        case .textOverflow:
            guard let overflow = keyword(Self.textOverflows) else { return false }
            style.textOverflow = overflow
        }
        return true
    }
}

/// A text leaf as decoded, before inheritance: its spans with their own declarations.
struct DecodedText {
    var spans: [(text: String, style: TextStyleDeclaration)]
}

/// What the decoder learns about text while it walks the tree: each node's declared text
/// style and each text leaf. A class so the (non-mutating) tree walk can fill it.
final class TextCollector {
    /// Set by `decodeStyle` for the node being decoded, taken by `commit`.
    var pendingStyle = TextStyleDeclaration() { didSet { hasPending = true } }
    var pendingText: DecodedText? { didSet { hasPending = true } }
    /// Whether `pendingStyle` or `pendingText` was set since the last `commit`: one flag test
    /// per node instead of comparing a whole declaration with the empty one (~1.5 % of an
    /// uncached request without text).
    private var hasPending = false
    /// Declared text styles of the nodes that declare one, in the order they were filed (a
    /// decoder files nodes as it adds them: by increasing index). An array, not a dictionary
    /// by node: `resolve` reads them in node order, and a feed's thousands of them were
    /// hashed in and looked up again (a tenth of decoding its text).
    var declarations: [(node: Int32, style: TextStyleDeclaration)] = []
    var leaves: [(node: NodeID, text: DecodedText, pointer: String)] = []
    var textLines = false

    /// Files what was decoded for `node`.
    func commit(_ node: NodeID, pointer: @autoclosure () -> String) {
        guard hasPending else { return }
        defer { hasPending = false }
        if !pendingStyle.isEmpty {
            declarations.append((node.index, pendingStyle))
            pendingStyle = TextStyleDeclaration()
        }
        if let text = pendingText {
            leaves.append((node, text, pointer()))
            pendingText = nil
        }
    }

    /// Each leaf's content, its styles inherited down the tree as CSS inherits them (the
    /// base direction from the nearest `direction` that is not `inherit`). One pass over the
    /// nodes in index order, which puts every parent before its children: linear in the tree,
    /// however deep.
    func resolve(tree: LayoutTree, ownerDirection: Direction) -> [TextLeaf] {
        let count = tree.nodeCount
        // The resolved style of the nearest declaring ancestor-or-self (-1: none), and the
        // direction each node inherits or sets.
        var styleOf = [Int32](repeating: -1, count: count)
        var styles: [TextStyle] = []
        var directions = [Direction](repeating: ownerDirection, count: count)
        var declares = [Bool](repeating: false, count: count)
        if !declarations.indices.dropFirst().allSatisfy({ declarations[$0 - 1].node < declarations[$0].node }) {
            declarations.sort { $0.node < $1.node }
        }
        var next = 0
        for n in 0..<count {
            let node = NodeID(n)
            let parent = tree.parent(of: node).map { Int($0.index) }
            let inheritedIndex = parent.map { styleOf[$0] } ?? -1
            if next < declarations.count && declarations[next].node == Int32(n) {
                let base = inheritedIndex >= 0 ? styles[Int(inheritedIndex)].inherited : TextStyle()
                styles.append(declarations[next].style.applied(to: base))
                styleOf[n] = Int32(styles.count - 1)
                declares[n] = true
                next += 1
            } else {
                styleOf[n] = inheritedIndex
            }
            let own = tree.style(of: node).direction
            directions[n] = own != .inherit ? own : parent.map { directions[$0] } ?? ownerDirection
        }
        return leaves.map { leaf in
            let n = Int(leaf.node.index)
            var style = styleOf[n] >= 0 ? styles[Int(styleOf[n])] : TextStyle()
            // A leaf that declares nothing inherits, without the properties CSS does not inherit.
            if !declares[n] { style = style.inherited }
            style.rightToLeft = directions[n] == .rtl
            let spans = leaf.text.spans.map { TextSpan(text: $0.text, style: $0.style.applied(to: style.inherited)) }
            return TextLeaf(node: leaf.node, content: TextContent(style: style, spans: spans), pointer: leaf.pointer)
        }
    }
}

/// A text leaf of a request: the node, what it lays out, and its JSON pointer (for warnings).
public struct TextLeaf: Hashable, Sendable {
    public var node: NodeID
    public var content: TextContent
    public var pointer: String

    /// This leaf with the string `text` as its `"text"`, as a whole decode makes it, when its
    /// `"text"` was a string too and nothing else that it inherits changed: one span in the
    /// leaf's inherited style (see `TextCollector.resolve`).
    public func replacingPlainText(with text: String) -> TextLeaf {
        var leaf = self
        leaf.content.spans = [TextSpan(text: text, style: TextStyleDeclaration().applied(to: content.style.inherited))]
        return leaf
    }
}

extension RequestDecoder {
    /// A node's `"text"`: a string, or an array of spans `{"text": string, "style": {...}}`.
    func decodeText(at index: Int) throws(WireError) -> DecodedText {
        if doc.tokens[index].kind == .string {
            return DecodedText(spans: [(doc.string(at: index), TextStyleDeclaration())])
        }
        guard doc.tokens[index].kind == .array else {
            throw wrongType(index, "text must be a string or an array of spans", pointer: "")
        }
        var spans: [(String, TextStyleDeclaration)] = []
        for (position, item) in doc.elements(of: index) {
            spans.append(try within("/\(position)") { () throws(WireError) in try decodeSpan(at: item) })
        }
        return DecodedText(spans: spans)
    }

    private func decodeSpan(at index: Int) throws(WireError) -> (String, TextStyleDeclaration) {
        try expect(index, .object, "a span", "")
        var text: String?
        var style = TextStyleDeclaration()
        for (i, value) in doc.members(of: index) {
            if doc.equals(i, "text") {
                guard doc.tokens[value].kind == .string else { throw wrongType(value, "a span's text must be a string", pointer: "/text") }
                text = doc.string(at: value)
            } else if doc.equals(i, "style") {
                try within("/style") { () throws(WireError) in
                    try expect(value, .object, "style", "")
                    for (key, member) in doc.members(of: value) {
                        let name = doc.string(at: key)
                        guard let property = TextProperty.allCases.first(where: { $0.name == name }), property.appliesToSpans else {
                            throw WireError.invalid("unknown-key", "unknown span style property \"\(name)\"; a span takes \(TextProperty.spanKeys)",
                                                    pointer: "/" + JSONPointer.escape(name))
                        }
                        try decodeTextProperty(property, value: member, into: &style)
                    }
                }
            } else {
                throw unknownKey(i, in: "a span", accepted: "text, style", pointer: "")
            }
        }
        guard let text else { throw .invalid("missing-key", "a span needs \"text\"", pointer: "") }
        return (text, style)
    }

    /// One text style key's value into `style` (errors point at the key: `property.pointer`).
    func decodeTextProperty(_ property: TextProperty, value: Int,
                            into style: inout TextStyleDeclaration) throws(WireError) {
        let name = property.name
        // Not made from the key's token: the key is the property's name (both callers match
        // it exactly), and a constant costs no string building per property decoded. (Nor
        // by a closure: one that builds it from `doc` captures the decoder, which is then
        // copied whole each time the closure is passed on.)
        let pointer = property.pointer
        switch property {
        case .fontFamily:
            style.fontFamilies = try fontFamilies(value, pointer: pointer)
        case .fontSize:
            let size = try float(value, name, allowNegative: false, pointer: pointer)
            guard size > 0 && size <= TextProperty.maxFontSize else {
                throw .invalid("invalid-value", "fontSize must be more than 0 and at most 10000 px", pointer: pointer)
            }
            style.fontSize = size
        case .fontWeight:
            style.fontWeight = try fontWeight(value, pointer: pointer)
        case .fontStyle:
            style.fontStyle = try keyword(value: value, name: name, pointer: pointer, TextProperty.fontStyles)
        case .lineHeight:
            if doc.tokens[value].kind == .number {
                style.lineHeight = .pixels(try float(value, name, allowNegative: false, pointer: pointer))
            } else if doc.tokens[value].kind == .string, doc.equals(value, "normal") {
                style.lineHeight = .normal
            } else if doc.tokens[value].kind == .string, let percent = TextProperty.lineHeightPercent(doc.string(at: value)) {
                style.lineHeight = .percent(percent)
            } else {
                throw .invalid("unknown-value", "lineHeight must be \"normal\", a non-negative number of px or a percentage like \"150%\"",
                               pointer: pointer)
            }
        case .letterSpacing:
            let spacing = try float(value, name, allowNegative: true, pointer: pointer)
            guard abs(spacing) <= TextProperty.maxLetterSpacing else {
                throw .invalid("invalid-value", "letterSpacing must be within -10000 and 10000 px", pointer: pointer)
            }
            style.letterSpacing = spacing
        case .textAlign:
            style.textAlign = try keyword(value: value, name: name, pointer: pointer, TextProperty.textAligns)
        case .whiteSpace:
            style.whiteSpace = try keyword(value: value, name: name, pointer: pointer, TextProperty.whiteSpaces)
        case .overflowWrap:
            style.overflowWrap = try keyword(value: value, name: name, pointer: pointer, TextProperty.overflowWraps)
        case .maxLines:
            let lines = try float(value, name, allowNegative: false, pointer: pointer)
            guard lines == lines.rounded(), lines <= TextProperty.maxMaxLines else {
                throw .invalid("invalid-value", "maxLines must be a whole number (0: no limit)", pointer: pointer)
            }
            style.maxLines = Int(lines)
        case .textOverflow:
            style.textOverflow = try keyword(value: value, name: name, pointer: pointer, TextProperty.textOverflows)
        }
    }

    /// One of `table`'s keywords (the value of the text property `name`).
    /// A method, not a local function of `decodeTextProperty`: one capturing `self` copies
    /// the whole decoder.
    private func keyword<T>(value: Int, name: String, pointer: @autoclosure () -> String,
                            _ table: KeyValuePairs<StaticString, T>) throws(WireError) -> T {
        func accepted() -> String { table.map { "\"\($0.key)\"" }.joined(separator: ", ") }
        guard doc.tokens[value].kind == .string else { throw wrongType(value, "\(name) must be one of \(accepted())", pointer: pointer()) }
        // A loop, not `first(where:)`: a closure would copy the decoder.
        for entry in table where doc.equals(value, entry.key) { return entry.value }
        throw .invalid("unknown-value", "unknown \(name) \"\(doc.string(at: value))\"; expected \(accepted())", pointer: pointer())
    }

    /// `"DejaVu Serif"`, `"Inter, sans-serif"` (a CSS list) or `["Inter", "sans-serif"]`.
    private func fontFamilies(_ value: Int, pointer: @autoclosure () -> String) throws(WireError) -> [String] {
        let names = TextProperty.familyNames
        var result: [String] = []
        if doc.tokens[value].kind == .string {
            result = names(doc.string(at: value))
        } else if doc.tokens[value].kind == .array {
            for (position, item) in doc.elements(of: value) {
                guard doc.tokens[item].kind == .string else {
                    throw wrongType(item, "each fontFamily must be a string", pointer: pointer() + "/\(position)")
                }
                result += names(doc.string(at: item))
            }
        } else {
            throw wrongType(value, "fontFamily must be a family name or an array of names", pointer: pointer())
        }
        guard !result.isEmpty else { throw .invalid("invalid-value", "fontFamily names no family", pointer: pointer()) }
        return result
    }

    /// 1 ... 1000, `"normal"` (400), `"bold"` (700), or a number in a string (`"600"`).
    private func fontWeight(_ value: Int, pointer: @autoclosure () -> String) throws(WireError) -> Int {
        let message = "fontWeight must be a number from 1 to 1000, \"normal\" or \"bold\""
        var weight: Float?
        if doc.tokens[value].kind == .number {
            weight = try float(value, "fontWeight", allowNegative: false, pointer: pointer())
        } else if doc.tokens[value].kind == .string {
            weight = TextProperty.weight(word: doc.string(at: value))
        } else {
            throw wrongType(value, message, pointer: pointer())
        }
        guard let weight, weight >= 1, weight <= 1000 else { throw .invalid("unknown-value", message, pointer: pointer()) }
        return Int(weight.rounded())
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}
