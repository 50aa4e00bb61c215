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

    /// The keywords this property accepts, quoted and listed for an error message; nil for a
    /// property that is not a keyword.
    var acceptedKeywords: String? {
        func list<T>(_ table: KeyValuePairs<StaticString, T>) -> String {
            table.map { "\"\($0.key)\"" }.joined(separator: ", ")
        }
        switch self {
        case .fontStyle: return list(Self.fontStyles)
        case .textAlign: return list(Self.textAligns)
        case .whiteSpace: return list(Self.whiteSpaces)
        case .overflowWrap: return list(Self.overflowWraps)
        case .textOverflow: return list(Self.textOverflows)
        default: return nil
        }
    }

    /// Declares this property in `style` from a number or a string: the one definition of what
    /// each text property accepts, for both decoders. A `fontFamily` array is the tape
    /// decoder's (it comes as `.other`, refused here). Throws what is wrong, for the tape decoder
    /// to word (`RequestDecoder.decodeTextProperty`); the one-pass decoder gives up instead.
    func set(_ input: StyleInput, on style: inout TextStyleDeclaration) throws(TextInputFailure) {
        func number(negative: Bool) throws(TextInputFailure) -> Float {
            guard case .number(let value) = input else { throw .number(.wrongType) }
            do { return try StyleProperty.checked(value, allowNegative: negative) } catch { throw .number(error) }
        }
        func word() -> String? {
            guard case .string(let bytes) = input else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        func keyword<T>(_ table: KeyValuePairs<StaticString, T>) throws(TextInputFailure) -> T {
            guard case .string(let bytes) = input else { throw .wrongType }
            for entry in table where spells(bytes, entry.key) { return entry.value }
            throw .unknownValue
        }
        switch self {
        case .fontFamily:
            guard let names = word().map(Self.familyNames) else { throw .wrongType }
            guard !names.isEmpty else { throw .outOfRange }
            style.fontFamilies = names
        case .fontSize:
            let size = try number(negative: false)
            guard size > 0 && size <= Self.maxFontSize else { throw .outOfRange }
            style.fontSize = size
        case .fontWeight:
            let weight: Float?
            switch input {
            case .number: weight = try number(negative: false)
            case .string: weight = word().flatMap(Self.weight(word:))
            case .other: throw .wrongType
            }
            guard let weight, weight >= 1, weight <= 1000 else { throw .unknownValue }
            style.fontWeight = Int(weight.rounded())
        case .fontStyle:
            style.fontStyle = try keyword(Self.fontStyles)
        case .lineHeight:
            if case .number = input {
                style.lineHeight = .pixels(try number(negative: false))
            } else if let word = word(), word == "normal" {
                style.lineHeight = .normal
            } else if let percent = word().flatMap(Self.lineHeightPercent) {
                style.lineHeight = .percent(percent)
            } else {
                throw .unknownValue
            }
        case .letterSpacing:
            let spacing = try number(negative: true)
            guard abs(spacing) <= Self.maxLetterSpacing else { throw .outOfRange }
            style.letterSpacing = spacing
        case .textAlign:
            style.textAlign = try keyword(Self.textAligns)
        case .whiteSpace:
            style.whiteSpace = try keyword(Self.whiteSpaces)
        case .overflowWrap:
            style.overflowWrap = try keyword(Self.overflowWraps)
        case .maxLines:
            let lines = try number(negative: false)
            guard lines == lines.rounded(), lines <= Self.maxMaxLines else { throw .outOfRange }
            style.maxLines = Int(lines)
        case .textOverflow:
            style.textOverflow = try keyword(Self.textOverflows)
        }
    }
}

/// Why a value does not fit a text property; the tape decoder words it with the property.
enum TextInputFailure: Error {
    /// A number was expected and this is why it was refused (not a number, negative, too large).
    case number(StyleInputFailure)
    /// Neither of the kinds the property takes.
    case wrongType
    /// A string that is none of the property's keywords or forms (for `fontWeight` and
    /// `lineHeight`: any value they cannot read).
    case unknownValue
    /// A value of the right kind outside the property's bounds.
    case outOfRange
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
    /// `source`, here and in `leaves`: the index of the one it was copied from by `fileCopies`
    /// (equal to it, filed for a node `offset` below it), or -1. `resolve` takes a copy's
    /// result from its source's where both inherit the same style, instead of working it out
    /// again. In the same tuples, not arrays of their own: each access of a class's array is
    /// checked at run time.
    var declarations: [(node: Int32, style: TextStyleDeclaration, source: Int32)] = []
    var leaves: [(node: NodeID, text: DecodedText, pointer: String, source: Int32)] = []
    var textLines = false

    /// Files what was decoded for `node`.
    /// Returns how many declarations and leaves it filed (0 or 1 each).
    @discardableResult
    func commit(_ node: NodeID, pointer: @autoclosure () -> String) -> (declarations: Int, leaves: Int) {
        guard hasPending else { return (0, 0) }
        defer { hasPending = false }
        var filed = (declarations: 0, leaves: 0)
        if !pendingStyle.isEmpty {
            declarations.append((node.index, pendingStyle, -1))
            pendingStyle = TextStyleDeclaration()
            filed.declarations = 1
        }
        if let text = pendingText {
            leaves.append((node, text, pointer(), -1))
            pendingText = nil
            filed.leaves = 1
        }
        return filed
    }

    /// Files for a copy of some nodes what was filed for them: the declarations and leaves in
    /// `declarations` and `leaves` (filed for nodes `offset` below their copies), a copied
    /// leaf's pointer made by `pointer` from the original's.
    func fileCopies(declarations filed: Range<Int>, leaves: Range<Int>, offset: Int32, pointer: (String) -> String) {
        for k in filed {
            declarations.append((declarations[k].node + offset, declarations[k].style, Int32(k)))
        }
        for k in leaves {
            let leaf = self.leaves[k]
            self.leaves.append((NodeID(leaf.node.index + offset), leaf.text, pointer(leaf.pointer), Int32(k)))
        }
    }

    /// Each leaf's content, its styles inherited down the tree as CSS inherits them (the
    /// base direction from the nearest `direction` that is not `inherit`). One pass over the
    /// nodes in index order, which puts every parent before its children: linear in the tree,
    /// however deep.
    /// `copies`: for each leaf, the earlier leaf whose content it took (a copy the decoder
    /// made, resolved as its source was), or -1; empty when no leaf took one.
    func resolve(tree: LayoutTree, ownerDirection: Direction) -> (leaves: [TextLeaf], copies: [Int32]) {
        let count = tree.nodeCount
        // The resolved style of the nearest declaring ancestor-or-self (-1: none), and the
        // direction each node inherits or sets.
        var styleOf = [Int32](repeating: -1, count: count)
        var styles: [TextStyle] = []
        var directions = [Direction](repeating: ownerDirection, count: count)
        var declares = [Bool](repeating: false, count: count)
        if !declarations.indices.dropFirst().allSatisfy({ declarations[$0 - 1].node < declarations[$0].node }) {
            // Sorted, the sources' indices no longer hold.
            declarations = declarations.sorted { $0.node < $1.node }.map { ($0.node, $0.style, -1) }
        }
        // Per declaration: the style it resolved to and the one it inherited (indices in
        // `styles`). A copy that inherits what its source inherited resolves to the same
        // style: the same declaration applied to the same base.
        var resolvedTo = [Int32](repeating: -1, count: declarations.count)
        var inheritedBy = [Int32](repeating: -1, count: declarations.count)
        var next = 0
        for n in 0..<count {
            let node = NodeID(n)
            let parent = tree.parent(of: node).map { Int($0.index) }
            let inheritedIndex = parent.map { styleOf[$0] } ?? -1
            if next < declarations.count && declarations[next].node == Int32(n) {
                let source = Int(declarations[next].source)
                if source >= 0 && inheritedBy[source] == inheritedIndex {
                    styleOf[n] = resolvedTo[source]
                } else {
                    let base = inheritedIndex >= 0 ? styles[Int(inheritedIndex)].inherited : TextStyle()
                    styles.append(declarations[next].style.applied(to: base))
                    styleOf[n] = Int32(styles.count - 1)
                }
                resolvedTo[next] = styleOf[n]
                inheritedBy[next] = inheritedIndex
                declares[n] = true
                next += 1
            } else {
                styleOf[n] = inheritedIndex
            }
            let own = tree.style(of: node).direction
            directions[n] = own != .inherit ? own : parent.map { directions[$0] } ?? ownerDirection
        }
        var resolved: [TextLeaf] = []
        resolved.reserveCapacity(leaves.count)
        var copies = [Int32](repeating: -1, count: leaves.count)
        var anyCopy = false
        for (index, leaf) in leaves.enumerated() {
            let n = Int(leaf.node.index)
            // A copy whose node resolves as its source's (the same style, declared or
            // inherited, and direction) has its source's content: its text is a copy too.
            let source = Int(leaf.source)
            if source >= 0 {
                let s = Int(leaves[source].node.index)
                if styleOf[n] == styleOf[s] && declares[n] == declares[s] && directions[n] == directions[s] {
                    resolved.append(TextLeaf(node: leaf.node, content: resolved[source].content, pointer: leaf.pointer))
                    copies[index] = Int32(source)
                    anyCopy = true
                    continue
                }
            }
            var style = styleOf[n] >= 0 ? styles[Int(styleOf[n])] : TextStyle()
            // A leaf that declares nothing inherits, without the properties CSS does not inherit.
            if !declares[n] { style = style.inherited }
            style.rightToLeft = directions[n] == .rtl
            let spans = leaf.text.spans.map { TextSpan(text: $0.text, style: $0.style.applied(to: style.inherited)) }
            resolved.append(TextLeaf(node: leaf.node, content: TextContent(style: style, spans: spans), pointer: leaf.pointer))
        }
        return (resolved, anyCopy ? copies : [])
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
    /// What a property accepts is `TextProperty.set`'s; here only a family array, and words.
    func decodeTextProperty(_ property: TextProperty, value: Int,
                            into style: inout TextStyleDeclaration) throws(WireError) {
        if case .fontFamily = property, doc.tokens[value].kind == .array {
            style.fontFamilies = try fontFamilies(inArray: value, pointer: property.pointer)
            return
        }
        do { try property.set(input(value), on: &style) } catch {
            throw textError(error, property, value: value)
        }
    }

    /// The error for a value `property` refused, pointing at its key.
    private func textError(_ failure: TextInputFailure, _ property: TextProperty, value: Int) -> WireError {
        let name = property.name, pointer = property.pointer
        switch failure {
        case .number(.negative):
            return .invalid("invalid-value", "\(name) must not be negative", pointer: pointer)
        case .number(.notRepresentable):
            return .invalid("not-representable", "\(name) is not representable as a 32-bit float", pointer: pointer)
        case .number, .wrongType:
            return wrongType(value, Self.expectation(of: property), pointer: pointer)
        case .unknownValue:
            if let accepted = property.acceptedKeywords {
                return .invalid("unknown-value", "unknown \(name) \"\(doc.string(at: value))\"; expected \(accepted)",
                                pointer: pointer)
            }
            return .invalid("unknown-value", Self.expectation(of: property), pointer: pointer)
        case .outOfRange:
            return .invalid("invalid-value", Self.bounds(of: property), pointer: pointer)
        }
    }

    /// What `property` takes, as its errors say it.
    private static func expectation(of property: TextProperty) -> String {
        switch property {
        case .fontFamily: return "fontFamily must be a family name or an array of names"
        case .fontWeight: return "fontWeight must be a number from 1 to 1000, \"normal\" or \"bold\""
        case .lineHeight: return "lineHeight must be \"normal\", a non-negative number of px or a percentage like \"150%\""
        case .letterSpacing: return "letterSpacing must be a number"
        case .fontSize, .maxLines: return "\(property.name) must be a non-negative number"
        case .fontStyle, .textAlign, .whiteSpace, .overflowWrap, .textOverflow:
            return "\(property.name) must be one of \(property.acceptedKeywords ?? "")"
        }
    }

    /// The bounds of `property`, as its errors say them.
    private static func bounds(of property: TextProperty) -> String {
        switch property {
        case .fontFamily: return "fontFamily names no family"
        case .fontSize: return "fontSize must be more than 0 and at most 10000 px"
        case .letterSpacing: return "letterSpacing must be within -10000 and 10000 px"
        case .maxLines: return "maxLines must be a whole number (0: no limit)"
        default: return "\(property.name) is out of range"
        }
    }

    /// `["Inter", "sans-serif"]`: each a name or a CSS list.
    private func fontFamilies(inArray value: Int, pointer: @autoclosure () -> String) throws(WireError) -> [String] {
        var result: [String] = []
        for (position, item) in doc.elements(of: value) {
            guard doc.tokens[item].kind == .string else {
                throw wrongType(item, "each fontFamily must be a string", pointer: pointer() + "/\(position)")
            }
            result += TextProperty.familyNames(doc.string(at: item))
        }
        guard !result.isEmpty else { throw .invalid("invalid-value", "fontFamily names no family", pointer: pointer()) }
        return result
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
