import LayoutEngine

// The constraint-based node kinds on the wire, reached through `decodeNode`'s `"type"`
// dispatch. All three share the container members and the items:
//
//   {"type": "constraints" | "fixflex" | "flexible-spaces", "id"?, "style"?: flex style,
//    "layoutMargins"?: n | {top, leading, bottom, trailing},
//    "items"?: [item], "constraints"?: [constraint],
//    "stacks"?: [...]   (fixflex only, see ConstraintFixFlexDecoder.swift),
//    "groups"?: [...]}  (flexible-spaces only, see ConstraintFlexibleSpacesDecoder.swift)
//   item: {"id", "intrinsicSize"?: {"width"?, "height"?}, "hugging"?: p | {"horizontal"?, "vertical"?},
//          "compressionResistance"?: p | {...}, "layoutMargins"?: ..., "node"?: any node}
//   constraint: {"first": "title.leading", "relation"?: "==" | "<=" | ">=", "second"?: "icon.trailing",
//                "multiplier"?: 1, "constant"?: 0, "priority"?: 1000, "label"?: "..."}
//               or "title.leading == icon.trailing + 8 @750" (ConstraintExpressionParser.swift)
//
// The container is one engine node with `.constraints` content; each item becomes one child
// node (its nested `node`, or an empty leaf), so item frames come back in the response and any
// node kind nests inside an item. An item with a `node` and no intrinsic size on an axis takes
// the node's max-content size there. Required constraints that conflict even with the
// container size left free are refused here (422 `unsatisfiable-constraints`).

/// Which constraint model a node uses.
enum ConstraintNodeKind {
    case constraints, fixFlex, flexibleSpaces

    var name: String {
        switch self {
        case .constraints: return "constraints"
        case .fixFlex: return "fixflex"
        case .flexibleSpaces: return "flexible-spaces"
        }
    }
}

/// The decoded base of a constraint node: items by name and constraints, plus where each
/// generated or given constraint label came from.
struct ConstraintNodeBase {
    var layout = ConstraintLayout()
    /// Item index by id.
    var itemIndex: [String: Int] = [:]
    var intrinsicFromChild: [ConstraintContainer.IntrinsicAxes] = []
    /// Pointers (relative to the node) of the constraints with a label.
    var labelPointers: [String: [String]] = [:]

    /// `"item.kind"` as an anchor; `container` names the container itself.
    func anchor(_ text: String) -> (LayoutAnchor?, String?) {
        guard let dot = text.lastIndex(of: ".") else {
            return (nil, "anchor \"\(text)\" must be \"<item id>.<anchor>\" (e.g. \"title.leading\")")
        }
        let itemName = String(text[..<dot])
        let kindName = String(text[text.index(after: dot)...])
        guard let kind = ConstraintWireNames.anchorKinds[kindName] else {
            return (nil, "unknown anchor \"\(kindName)\" in \"\(text)\"; expected one of \(ConstraintWireNames.anchorList)")
        }
        if itemName == "container" { return (LayoutAnchor(.container, kind), nil) }
        guard let i = itemIndex[itemName] else {
            return (nil, "no item \"\(itemName)\" (in \"\(text)\"); items are named by their id, the container is \"container\"")
        }
        return (LayoutAnchor(.item(i), kind), nil)
    }
}

enum ConstraintWireNames {
    static let anchorKinds: [String: LayoutAnchorKind] = {
        var table: [String: LayoutAnchorKind] = [:]
        for kind in LayoutAnchorKind.allCases { table[String(describing: kind)] = kind }
        return table
    }()
    static let anchorList = LayoutAnchorKind.allCases.map { String(describing: $0) }.joined(separator: ", ")
}

extension RequestDecoder {
    static let constraintNodeKinds = "\"constraints\", \"fixflex\" or \"flexible-spaces\""

    /// Decodes a `constraints`, `fixflex` or `flexible-spaces` node.
    func decodeConstraintNode(at index: Int, kind: ConstraintNodeKind) throws(WireError) -> DecodedNode {
        var node = DecodedNode(id: nil, style: baseStyle, content: .none)
        var items = -1, constraints = -1, margins = -1, stacks = -1, groups = -1
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "id") { node.id = try idString(value, "id", pointer: "/id") }
            else if doc.equals(key, "style") {
                do { try decodeStyle(at: value, into: &node.style) } catch { throw error.prefixed(by: "/style") }
            }
            else if doc.equals(key, "items") { try expect(value, .array, "items", "/items"); items = value }
            else if doc.equals(key, "constraints") { try expect(value, .array, "constraints", "/constraints"); constraints = value }
            else if doc.equals(key, "layoutMargins") { margins = value }
            else if kind == .fixFlex && doc.equals(key, "stacks") { try expect(value, .array, "stacks", "/stacks"); stacks = value }
            else if kind == .flexibleSpaces && doc.equals(key, "groups") { try expect(value, .array, "groups", "/groups"); groups = value }
            else if !doc.equals(key, "type") {
                let extra = kind == .fixFlex ? ", stacks" : kind == .flexibleSpaces ? ", groups" : ""
                throw unknownKey(key, in: "a \(kind.name) node", accepted: "type, id, style, layoutMargins, items, constraints" + extra,
                                 pointer: "")
            }
        }
        var base = ConstraintNodeBase()
        if margins >= 0 { base.layout.containerMargins = try within("/layoutMargins") { () throws(WireError) in try layoutMargins(margins) } }
        if items >= 0 { try within("/items") { () throws(WireError) in try decodeConstraintItems(items, into: &base) } }
        if constraints >= 0 {
            try within("/constraints") { () throws(WireError) in try decodeConstraintList(constraints, into: &base) }
        }
        let lowered: ConstraintLayout
        do {
            switch kind {
            case .constraints:
                lowered = base.layout
            case .fixFlex:
                let stackList = stacks >= 0 ? try within("/stacks") { () throws(WireError) in try decodeFixFlexStacks(stacks, base) } : []
                lowered = try FixFlexLayout(base: base.layout, stacks: stackList).lowered()
            case .flexibleSpaces:
                let groupList = groups >= 0 ? try within("/groups") { () throws(WireError) in try decodeSpaceGroups(groups, base) } : []
                lowered = try FlexibleSpaceLayout(base: base.layout, groups: groupList).lowered()
            }
            try lowered.validate()
            // Required constraints must hold together for some container size.
            _ = try lowered.solve(containerSize: ConstraintContainerSize(width: nil, height: nil), limits: limits.constraintSolver)
        } catch let error as WireError {
            throw error
        } catch let error as ConstraintLayoutError {
            throw wireError(error, base)
        } catch {
            throw WireError.invalid("invalid-value", "\(error)")
        }
        node.content = .constraints(ConstraintContainer(layout: lowered, intrinsicFromChild: base.intrinsicFromChild,
                                                        limits: limits.constraintSolver))
        node.children = items
        node.childrenAreItems = items >= 0
        return node
    }

    /// One item as a child node: its nested `node` (the returned flag is true), or an empty leaf.
    /// Only `id` and `node` matter here; the container's decoder reads the rest.
    func decodeConstraintItemChild(at index: Int, into node: inout DecodedNode) throws(WireError) -> Bool {
        try expect(index, .object, "an item", "")
        var id: String? = nil, nested = -1
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "id") { id = doc.string(at: value) }
            else if doc.equals(key, "node") { nested = value }
        }
        guard nested >= 0 else {
            node = DecodedNode(id: id, style: baseStyle, content: .none)
            return false
        }
        try within("/node") { () throws(WireError) in try decodeNode(at: nested, into: &node) }
        if let own = node.id, own != id {
            throw .invalid("invalid-value", "the node's id \"\(own)\" differs from its item's id \"\(id ?? "")\"; omit it",
                           pointer: "/node/id")
        }
        node.id = id
        return true
    }

    /// Decodes each element of the array at `index`; an element's errors point below
    /// `/<position>`.
    func decodeElements<Element>(_ index: Int, _ element: (Int) throws(WireError) -> Element) throws(WireError) -> [Element] {
        var elements: [Element] = []
        elements.reserveCapacity(Int(doc.tokens[index].aux))
        for (position, i) in doc.elements(of: index) {
            elements.append(try within("/\(position)") { () throws(WireError) in try element(i) })
        }
        return elements
    }

    // MARK: items

    private func decodeConstraintItems(_ index: Int, into base: inout ConstraintNodeBase) throws(WireError) {
        for (position, i) in doc.elements(of: index) {
            try within("/\(position)") { () throws(WireError) in try decodeConstraintItem(i, into: &base) }
        }
    }

    private func decodeConstraintItem(_ index: Int, into base: inout ConstraintNodeBase) throws(WireError) {
        try expect(index, .object, "an item", "")
        var item = ConstraintItem(name: "")
        var hasName = false, nested = false
        var explicit: ConstraintContainer.IntrinsicAxes = []
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "id") {
                item.name = try idString(value, "id", pointer: "/id")
                hasName = true
            } else if doc.equals(key, "intrinsicSize") {
                try expect(value, .object, "intrinsicSize", "/intrinsicSize")
                for (innerKey, v) in doc.members(of: value) {
                    if doc.equals(innerKey, "width") {
                        item.intrinsicWidth = try optionalDouble(v, "intrinsic width", pointer: "/intrinsicSize/width")
                        explicit.insert(.width)
                    } else if doc.equals(innerKey, "height") {
                        item.intrinsicHeight = try optionalDouble(v, "intrinsic height", pointer: "/intrinsicSize/height")
                        explicit.insert(.height)
                    } else {
                        throw unknownKey(innerKey, in: "intrinsicSize", accepted: "width, height", pointer: "/intrinsicSize")
                    }
                }
            } else if doc.equals(key, "hugging") {
                let (h, v) = try within("/hugging") { () throws(WireError) in try axisPriorities(value, "hugging") }
                if let h { item.horizontalHugging = h }
                if let v { item.verticalHugging = v }
            } else if doc.equals(key, "compressionResistance") {
                let (h, v) = try within("/compressionResistance") { () throws(WireError) in
                    try axisPriorities(value, "compressionResistance")
                }
                if let h { item.horizontalCompressionResistance = h }
                if let v { item.verticalCompressionResistance = v }
            } else if doc.equals(key, "layoutMargins") {
                item.layoutMargins = try within("/layoutMargins") { () throws(WireError) in try layoutMargins(value) }
            } else if doc.equals(key, "node") {
                try expect(value, .object, "node", "/node")
                nested = true
            } else {
                throw unknownKey(key, in: "an item", accepted: "id, intrinsicSize, hugging, compressionResistance, layoutMargins, node",
                                 pointer: "")
            }
        }
        guard hasName else { throw .invalid("missing-key", "an item needs an \"id\" (constraints name items by it)", pointer: "") }
        guard !item.name.isEmpty, item.name != "container" else {
            throw .invalid("invalid-value", "an item id must be non-empty and not \"container\"", pointer: "/id")
        }
        guard base.itemIndex[item.name] == nil else {
            throw .invalid("invalid-value", "duplicate item id \"\(item.name)\"", pointer: "/id")
        }
        base.itemIndex[item.name] = base.layout.items.count
        base.layout.items.append(item)
        base.intrinsicFromChild.append(nested ? ConstraintContainer.IntrinsicAxes([.width, .height]).subtracting(explicit) : [])
    }

    /// A priority for both axes, or `{"horizontal"?, "vertical"?}`.
    private func axisPriorities(_ index: Int, _ what: String) throws(WireError) -> (LayoutPriority?, LayoutPriority?) {
        guard doc.tokens[index].kind == .object else {
            let p = try priority(index, what, pointer: "")
            return (p, p)
        }
        var h: LayoutPriority?, v: LayoutPriority?
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "horizontal") { h = try priority(value, "\(what) horizontal", pointer: "/horizontal") }
            else if doc.equals(key, "vertical") { v = try priority(value, "\(what) vertical", pointer: "/vertical") }
            else { throw unknownKey(key, in: what, accepted: "horizontal, vertical", pointer: "") }
        }
        return (h, v)
    }

    /// A priority in (0, 1000], or `"required"` (1000), `"high"` (750), `"low"` (250).
    func priority(_ index: Int, _ what: String, pointer: String) throws(WireError) -> LayoutPriority {
        if doc.tokens[index].kind == .string {
            if let p = ConstraintExpressionParser.namedPriority(doc.string(at: index)) { return p }
            throw .invalid("unknown-value", "unknown \(what) \"\(doc.string(at: index))\"; expected a number in (0, 1000], "
                           + "\"required\", \"high\" or \"low\"", pointer: pointer)
        }
        let p = try double(index, what, pointer: pointer)
        guard p > 0 && p <= 1000 else { throw .invalid("invalid-value", "\(what) must be in (0, 1000]", pointer: pointer) }
        return LayoutPriority(p)
    }

    /// A margin for every edge, or `{top, leading, bottom, trailing}` (missing edges 0).
    private func layoutMargins(_ index: Int) throws(WireError) -> LayoutMargins {
        if doc.tokens[index].kind != .object {
            let m = try double(index, "layoutMargins", pointer: "")
            return LayoutMargins(top: m, leading: m, bottom: m, trailing: m)
        }
        var m = LayoutMargins.zero
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "top") { m.top = try double(value, "top margin", pointer: "/top") }
            else if doc.equals(key, "leading") { m.leading = try double(value, "leading margin", pointer: "/leading") }
            else if doc.equals(key, "bottom") { m.bottom = try double(value, "bottom margin", pointer: "/bottom") }
            else if doc.equals(key, "trailing") { m.trailing = try double(value, "trailing margin", pointer: "/trailing") }
            else { throw unknownKey(key, in: "layoutMargins", accepted: "top, leading, bottom, trailing", pointer: "") }
        }
        return m
    }

    // MARK: constraints

    private func decodeConstraintList(_ index: Int, into base: inout ConstraintNodeBase) throws(WireError) {
        for (position, i) in doc.elements(of: index) {
            var c = try within("/\(position)") { () throws(WireError) in try decodeConstraint(i, base) }
            if c.label.isEmpty { c.label = "constraints[\(position)]" }
            base.labelPointers[c.label, default: []].append("/constraints/\(position)")
            base.layout.constraints.append(c)
        }
    }

    private func decodeConstraint(_ index: Int, _ base: ConstraintNodeBase) throws(WireError) -> LayoutConstraint {
        if doc.tokens[index].kind == .string {
            let text = doc.string(at: index)
            var parser = ConstraintExpressionParser(text: text, base: base)
            switch parser.parse() {
            case .success(var c):
                c.label = text
                return c
            case .failure(let error):
                throw .invalid(error.code, "constraint \"\(text)\": \(error.reason)", pointer: "")
            }
        }
        try expect(index, .object, "a constraint (an object or a string like \"a.leading == b.trailing + 8\")", "")
        var first: LayoutAnchor?, second: LayoutAnchor?, relation = LinearRelation.equal
        var multiplier: Double?, constant = 0.0, priority = LayoutPriority.required, label = ""
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "first") { first = try anchor(value, base, pointer: "/first") }
            else if doc.equals(key, "second") {
                if doc.tokens[value].kind != .null { second = try anchor(value, base, pointer: "/second") }
            }
            else if doc.equals(key, "relation") {
                guard doc.tokens[value].kind == .string,
                      let r = ConstraintExpressionParser.relation(doc.string(at: value)) else {
                    throw .invalid(doc.tokens[value].kind == .string ? "unknown-value" : "wrong-type",
                                   "relation must be \"==\", \"<=\" or \">=\"", pointer: "/relation")
                }
                relation = r
            }
            else if doc.equals(key, "multiplier") { multiplier = try double(value, "multiplier", pointer: "/multiplier") }
            else if doc.equals(key, "constant") { constant = try double(value, "constant", pointer: "/constant") }
            else if doc.equals(key, "priority") { priority = try self.priority(value, "priority", pointer: "/priority") }
            else if doc.equals(key, "label") { label = try idString(value, "label", pointer: "/label") }
            else {
                throw unknownKey(key, in: "a constraint", accepted: "first, relation, second, multiplier, constant, priority, label",
                                 pointer: "")
            }
        }
        guard let first else { throw .invalid("missing-key", "a constraint needs a \"first\" anchor", pointer: "") }
        if second == nil && multiplier != nil {
            throw .invalid("invalid-value", "multiplier needs a \"second\" anchor", pointer: "/multiplier")
        }
        return LayoutConstraint(first, relation, second, multiplier: multiplier ?? 1, constant: constant,
                                priority: priority, label: label)
    }

    /// An anchor given as `"item.kind"`.
    func anchor(_ index: Int, _ base: ConstraintNodeBase, pointer: String) throws(WireError) -> LayoutAnchor {
        guard doc.tokens[index].kind == .string else {
            throw wrongType(index, "an anchor must be a string like \"title.leading\"", pointer: pointer)
        }
        let (anchor, problem) = base.anchor(doc.string(at: index))
        guard let anchor else { throw .invalid("unknown-value", problem ?? "bad anchor", pointer: pointer) }
        return anchor
    }

    // MARK: numbers

    /// A number that fits the engine's 32-bit frames: the solver works in Double, but a value
    /// beyond Float's range could only come back as a non-finite frame.
    func double(_ index: Int, _ what: @autoclosure () -> String, pointer: @autoclosure () -> String) throws(WireError) -> Double {
        let token = doc.tokens[index]
        guard token.kind == .number else { throw wrongType(index, "\(what()) must be a number", pointer: pointer()) }
        let value = Double(bitPattern: token.payload)
        guard Float(value).isFinite else {
            throw .invalid("not-representable", "\(what()) is beyond the range of a 32-bit float", pointer: pointer())
        }
        return value
    }

    /// A finite non-negative number, or null.
    private func optionalDouble(_ index: Int, _ what: String, pointer: String) throws(WireError) -> Double? {
        if doc.tokens[index].kind == .null { return nil }
        let value = try double(index, what, pointer: pointer)
        guard value >= 0 else { throw .invalid("invalid-value", "\(what) must not be negative", pointer: pointer) }
        return value
    }
}
