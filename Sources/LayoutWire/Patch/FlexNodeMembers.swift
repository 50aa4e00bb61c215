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
        guard case .object(let members) = node else { return nil }
        var hasChildren = false
        var own: [JSONMember] = []
        own.reserveCapacity(members.count)
        for member in members {
            switch member.key {
            case "children":
                if case .array(let children) = member.value { hasChildren = !children.isEmpty }
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
