import LayoutEngine

// StackViewLayout on the wire.
//
//   {"type": "stack", "id"?, "direction"?, "justifyContent"?, "alignItems"?, "padding"?,
//    "children"?: [items], ...item members when the stack is itself an item}
//   {"type": "stack-item", "id"?, "sizeThatFits": {"width", "height"} | "measure": {...},
//    ...item members}
//
// Item members: grow, shrink, alignSelf, width, height, minWidth, maxWidth, minHeight,
// maxHeight (points, or "N%"), margin (a length for every edge, or an object of top, left,
// bottom, right, start, end, horizontal, vertical, all), aspectRatio, isHidden,
// isIncludedInLayout. Keywords use the library's names ("spaceBetween", "start", ...).

private typealias StackView = StackViewLayout.StackView
private typealias StackItem = StackViewLayout.StackItem

extension RequestDecoder {
    func decodeStackNode(at index: Int) throws(WireError) -> DecodedNode {
        var node = DecodedNode(id: nil, style: Style(), content: .none)
        var stack = StackView()
        var item = StackItem(width: 0, height: 0)
        for (i, value) in doc.members(of: index) {
            if doc.equals(i, "direction") {
                stack.direction = try keyword(value, StackKeywords.direction, "direction", pointer: "/direction")
            } else if doc.equals(i, "justifyContent") {
                stack.justifyContent = try keyword(value, StackKeywords.justify, "justifyContent", pointer: "/justifyContent")
            } else if doc.equals(i, "alignItems") {
                stack.alignItems = try keyword(value, StackKeywords.alignItems, "alignItems", pointer: "/alignItems")
            } else if doc.equals(i, "padding") {
                stack.padding = try within("/padding") { () throws(WireError) in try stackInsets(value, "padding", allowNegative: false) }
            } else if doc.equals(i, "children") {
                try expect(value, .array, "children", "/children")
                node.children = value
            } else if try !decodeStackItemMember(key: i, value: value, into: &item, id: &node.id) {
                throw unknownKey(i, in: "a stack", accepted: "type, id, direction, justifyContent, alignItems, padding, children, "
                                 + Self.stackItemMembers, pointer: "")
            }
        }
        node.style = stack.containerStyle(item.itemStyle())
        return node
    }

    func decodeStackItemNode(at index: Int) throws(WireError) -> DecodedNode {
        var node = DecodedNode(id: nil, style: Style(), content: .none)
        var item = StackItem(width: 0, height: 0)
        var sizeThatFits = -1, measure = -1
        for (i, value) in doc.members(of: index) {
            if doc.equals(i, "sizeThatFits") {
                sizeThatFits = value
            } else if doc.equals(i, "measure") {
                measure = value
            } else if try !decodeStackItemMember(key: i, value: value, into: &item, id: &node.id) {
                throw unknownKey(i, in: "a stack item", accepted: "type, id, sizeThatFits, measure, " + Self.stackItemMembers,
                                 pointer: "")
            }
        }
        if sizeThatFits >= 0 && measure >= 0 {
            throw .invalid("invalid-value", "a stack item takes sizeThatFits or measure, not both", pointer: "/measure")
        }
        if sizeThatFits >= 0 {
            node.content = .fixed(try within("/sizeThatFits") { () throws(WireError) in try size(sizeThatFits, "sizeThatFits") })
        } else if measure >= 0 {
            node.content = try within("/measure") { () throws(WireError) in try decodeMeasure(at: measure) }
        }
        node.style = item.itemStyle()
        return node
    }

    static let stackItemMembers = "grow, shrink, alignSelf, width, height, minWidth, maxWidth, minHeight, maxHeight, "
        + "margin, aspectRatio, isHidden, isIncludedInLayout"

    /// Applies one item member (or `id`); false when `key` names none of them.
    private func decodeStackItemMember(key i: Int, value: Int, into item: inout StackItem,
                                       id: inout String?) throws(WireError) -> Bool {
        func length(_ name: String, allowNegative: Bool = false) throws(WireError) -> StackViewLayout.Length {
            try stackLength(value, name, allowNegative: allowNegative, pointer: "/" + name)
        }
        if doc.equals(i, "id") { id = try idString(value, "id", pointer: "/id") }
        else if doc.equals(i, "grow") { item.grow = try float(value, "grow", allowNegative: false, pointer: "/grow") }
        else if doc.equals(i, "shrink") { item.shrink = try float(value, "shrink", allowNegative: false, pointer: "/shrink") }
        else if doc.equals(i, "alignSelf") {
            item.alignSelf = try keyword(value, StackKeywords.alignSelf, "alignSelf", pointer: "/alignSelf")
        }
        else if doc.equals(i, "width") || doc.equals(i, "height") {
            let isWidth = doc.equals(i, "width")
            let name = isWidth ? "width" : "height"
            if doc.tokens[value].kind == .object {
                try within("/" + name) { () throws(WireError) in try recordSizeOf(value, isWidth ? .width : .height, path: "/" + name) }
            } else if isWidth {
                item.width = try length(name)
            } else {
                item.height = try length(name)
            }
        }
        else if doc.equals(i, "minWidth") { item.minWidth = try length("minWidth") }
        else if doc.equals(i, "maxWidth") { item.maxWidth = try length("maxWidth") }
        else if doc.equals(i, "minHeight") { item.minHeight = try length("minHeight") }
        else if doc.equals(i, "maxHeight") { item.maxHeight = try length("maxHeight") }
        else if doc.equals(i, "margin") {
            item.margin = try within("/margin") { () throws(WireError) in try stackInsets(value, "margin", allowNegative: true) }
        }
        else if doc.equals(i, "aspectRatio") {
            item.aspectRatio = try float(value, "aspectRatio", allowNegative: false, pointer: "/aspectRatio")
        }
        else if doc.equals(i, "isHidden") { item.isHidden = try bool(value, "isHidden", pointer: "/isHidden") }
        else if doc.equals(i, "isIncludedInLayout") {
            item.isIncludedInLayout = try bool(value, "isIncludedInLayout", pointer: "/isIncludedInLayout")
        }
        else if !doc.equals(i, "type") { return false }
        return true
    }

    /// A number of points or a `"N%"` string.
    private func stackLength(_ index: Int, _ what: String, allowNegative: Bool,
                             pointer: String) throws(WireError) -> StackViewLayout.Length {
        let token = doc.tokens[index]
        if token.kind == .number {
            return .points(try float(index, what, allowNegative: allowNegative, pointer: pointer))
        }
        let forms = allowNegative ? "a number or a percentage string like \"-10%\"" : "a non-negative number or a percentage string like \"50%\""
        guard token.kind == .string else { throw wrongType(index, "\(what) must be \(forms)", pointer: pointer) }
        // The same percentage grammar as flexbox lengths: a JSON number followed by "%".
        let text = doc.bytes(at: index)
        if let last = text.last, last == UInt8(ascii: "%") {
            let digits = UnsafeBufferPointer(rebasing: text[..<(text.count - 1)])
            if let (number, end) = JSONNumber.parse(digits, from: 0), end == digits.count {
                return .percent(try checked(number, what, allowNegative: allowNegative, pointer: pointer))
            }
        }
        throw .invalid("unknown-value", "invalid \(what) \"\(doc.string(at: index))\"; expected \(forms)", pointer: pointer)
    }

    /// A length for every edge, or an object of edges: `all` first, then `horizontal` and
    /// `vertical`, then the single edges, whatever their order in the document.
    private func stackInsets(_ index: Int, _ what: String, allowNegative: Bool) throws(WireError) -> StackViewLayout.Insets {
        if doc.tokens[index].kind != .object {
            return .all(try stackLength(index, what, allowNegative: allowNegative, pointer: ""))
        }
        var all: StackViewLayout.Length?, horizontal: StackViewLayout.Length?, vertical: StackViewLayout.Length?
        var edges = StackViewLayout.Insets()
        for (key, value) in doc.members(of: index) {
            let name = doc.string(at: key)
            let length = { () throws(WireError) -> StackViewLayout.Length in
                try self.stackLength(value, "\(what) \(name)", allowNegative: allowNegative, pointer: "/" + JSONPointer.escape(name))
            }
            switch name {
            case "all": all = try length()
            case "horizontal": horizontal = try length()
            case "vertical": vertical = try length()
            case "top": edges.top = try length()
            case "left": edges.left = try length()
            case "bottom": edges.bottom = try length()
            case "right": edges.right = try length()
            case "start": edges.start = try length()
            case "end": edges.end = try length()
            default:
                throw unknownKey(key, in: what, accepted: "top, left, bottom, right, start, end, horizontal, vertical, all", pointer: "")
            }
        }
        var result = all.map { StackViewLayout.Insets.all($0) } ?? StackViewLayout.Insets()
        if let horizontal { result.left = horizontal; result.right = horizontal; result.start = horizontal; result.end = horizontal }
        if let vertical { result.top = vertical; result.bottom = vertical }
        if let top = edges.top { result.top = top }
        if let left = edges.left { result.left = left }
        if let bottom = edges.bottom { result.bottom = bottom }
        if let right = edges.right { result.right = right }
        if let start = edges.start { result.start = start }
        if let end = edges.end { result.end = end }
        return result
    }

    /// `{"width": w, "height": h}`, both required and non-negative.
    func size(_ index: Int, _ what: String) throws(WireError) -> Size {
        try expect(index, .object, what, "")
        var width: Float?, height: Float?
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "width") { width = try float(value, "width", allowNegative: false, pointer: "/width") }
            else if doc.equals(key, "height") { height = try float(value, "height", allowNegative: false, pointer: "/height") }
            else { throw unknownKey(key, in: what, accepted: "width, height", pointer: "") }
        }
        guard let width else { throw .invalid("missing-key", "\(what) needs \"width\"", pointer: "") }
        guard let height else { throw .invalid("missing-key", "\(what) needs \"height\"", pointer: "") }
        return Size(width: width, height: height)
    }
}

/// Keyword tables of the stack's properties, built once.
enum StackKeywords {
    static let direction = KeywordTable(StackViewLayout.Direction.self)
    static let justify = KeywordTable(StackViewLayout.JustifyContent.self)
    static let alignItems = KeywordTable(StackViewLayout.AlignItems.self)
    static let alignSelf = KeywordTable(StackViewLayout.AlignSelf.self)
}
