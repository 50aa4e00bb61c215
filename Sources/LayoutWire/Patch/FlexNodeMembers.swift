import LayoutEngine

/// One flexbox node's own members (everything but its children), decoded as a whole request's
/// decoder decodes them: what a patch that edits a node's members changes in the tree.
public struct FlexNodeMembers: Sendable {
    public var style: Style
    public var content: NodeContent
    public var id: String?
    /// The node's paint style keys (for renderers), or nil.
    public var paint: NodePaint?

    /// The members of the flexbox node object `node` with `config`'s base style, or nil when
    /// they cannot be applied to a node in place: the node is not a flexbox node, has a text
    /// leaf or a size reference (`{"of": id}`), or does not decode (a whole decode of the
    /// document then gives the error with its pointer).
    public static func decode(_ node: JSONTree, config: LayoutConfig, limits: WireLimits) -> FlexNodeMembers? {
        guard case .object(let members) = node.expanded else { return nil }
        return decodeDirectly(members, config: config) ?? decodeAsRequest(members, config: config, limits: limits)
    }

    /// Whether node objects `a` and `b` give the text leaves at and below them the same text
    /// style: the same text style keys and `direction` in `style` (what a text leaf inherits,
    /// see `TextCollector.resolve`). Unequal but equivalent spellings (`"bold"` and `700`)
    /// count as different.
    public static func sameTextStyle(_ a: JSONTree, _ b: JSONTree) -> Bool {
        let styleA = a["style"], styleB = b["style"]
        if styleA == styleB { return true }
        return textStyleKeys.allSatisfy { styleA?[$0] == styleB?[$0] }
    }

    /// The style keys a text leaf's text depends on: its own and its ancestors'.
    private static let textStyleKeys = TextProperty.allCases.map(\.name) + ["direction"]

    /// The members of a text leaf's object other than its text, as `decode` reads a node's
    /// (its content then comes from the text, which these do not give).
    public static func decode(textLeaf node: JSONTree, config: LayoutConfig, limits: WireLimits) -> FlexNodeMembers? {
        guard case .object(let members) = node.expanded else { return nil }
        return decode(.object(members.filter { $0.key != "text" }), config: config, limits: limits)
    }

    /// The common node read from the tree as it stands: an `id`, layout style keys with
    /// number and string values, a `fixed` or `benchmark-leaf` measure, `children` and `type`
    /// `"flex"`. Nil for anything else, including a value that does not decode: the request
    /// decoder then answers (`decodeAsRequest`), with the same checks (`StyleProperty.set`).
    static func decodeDirectly(_ members: [JSONMember], config: LayoutConfig) -> FlexNodeMembers? {
        var style = Style(webDefaults: config.useWebDefaults)
        var content = NodeContent.none
        var id: String?
        var hasChildren = false
        for member in members {
            switch member.key {
            case "id":
                guard case .string(let text) = member.value else { return nil }
                id = text
            case "style":
                guard case .object(let properties) = member.value.expanded else { return nil }
                for property in properties {
                    guard set(property, on: &style) else { return nil }
                }
            case "measure":
                guard let measured = fixedMeasure(member.value.expanded) else { return nil }
                content = measured
            case "children":
                guard let nonEmpty = member.value.hasElements else { return nil }
                hasChildren = nonEmpty
            case "type":
                guard case .string("flex") = member.value else { return nil }
            default:
                return nil
            }
        }
        // A measured leaf with children is refused by the whole decode, with its pointer.
        guard !(hasChildren && content != .none) else { return nil }
        return FlexNodeMembers(style: style, content: content, id: id, paint: nil)
    }

    /// Applies one layout style member; false for any other key or a value it refuses.
    private static func set(_ member: JSONMember, on style: inout Style) -> Bool {
        var key = member.key
        guard let property = key.withUTF8({ StyleProperty.named($0) }) else { return false }
        if case .text = property { return false }
        switch member.value {
        case .number(let number):
            return (try? property.set(.number(number), on: &style)) != nil
        case .string(var text):
            return text.withUTF8 { (try? property.set(.string($0), on: &style)) != nil }
        default:
            return false
        }
    }

    /// `{"kind": "fixed" | "benchmark-leaf", "width": w, "height": h}`, or nil.
    private static func fixedMeasure(_ value: JSONTree) -> NodeContent? {
        guard case .object(let members) = value, members.count == 3 else { return nil }
        var isFixed: Bool?
        var width: Float?, height: Float?
        for member in members {
            switch (member.key, member.value) {
            case ("kind", .string("fixed")): isFixed = true
            case ("kind", .string("benchmark-leaf")): isFixed = false
            case ("width", .number(let number)): width = try? StyleProperty.checked(number, allowNegative: false)
            case ("height", .number(let number)): height = try? StyleProperty.checked(number, allowNegative: false)
            default: return nil
            }
        }
        guard let isFixed, let width, let height else { return nil }
        let size = Size(width: width, height: height)
        return isFixed ? .fixed(size) : .benchmarkLeaf(size)
    }

    /// The members written out and decoded as a request's decoder decodes a node: every kind
    /// of member, with the whole decoder's checks.
    static func decodeAsRequest(_ members: [JSONMember], config: LayoutConfig, limits: WireLimits) -> FlexNodeMembers? {
        var hasChildren = false
        var own: [JSONMember] = []
        own.reserveCapacity(members.count)
        for member in members {
            switch member.key {
            case "children":
                hasChildren = member.value.hasElements ?? false
                continue
            case "text": return nil
            case "type":
                guard case .string("flex") = member.value else { return nil }
            default: break
            }
            own.append(member)
        }
        let bytes = JSONTree.object(own).jsonBytes()
        return bytes.withUnsafeBytes { raw -> FlexNodeMembers? in
            guard let document = try? JSONValue.parseDocument(bytes: raw, limits: limits, borrowingInput: true) else { return nil }
            var decoder = RequestDecoder(doc: document, limits: limits)
            decoder.baseStyle = Style(webDefaults: config.useWebDefaults)
            var style = decoder.baseStyle
            var content = NodeContent.none
            var flex = RequestDecoder.FlexMembers()
            do {
                try decoder.decodeFlexMembers(at: 0, style: &style, content: &content, members: &flex)
            } catch {
                return nil
            }
            // A measured leaf with children is refused by the whole decode, with its pointer.
            guard decoder.sizeOf.pending.isEmpty, decoder.text.pendingText == nil,
                  !(hasChildren && content != .none) else { return nil }
            return FlexNodeMembers(style: style, content: content, id: flex.id, paint: decoder.paints.pending)
        }
    }
}
