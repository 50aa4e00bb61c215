import LayoutEngine

// The node kinds of the seed models, reached through `decodeNode`'s `"type"` dispatch:
// `"stack"` and `"stack-item"` (StackViewLayout), `"core-layout"` (Core Layout). Each wire
// node is one engine node; its children are decoded by the generic tree walk, so kinds nest
// freely (a flexbox node inside a stack, a stack inside a Core Layout, ...).

extension RequestDecoder {
    /// The model kinds, for the unknown-type message.
    static let modelNodeKinds = "\"stack\", \"stack-item\", \"core-layout\", " + constraintNodeKinds

    /// Decodes the node at `index` when `type` (a string token) names a model kind; nil
    /// when it names none.
    func decodeModelNode(type: Int, at index: Int) throws(WireError) -> DecodedNode? {
        if doc.equals(type, "stack") { return try decodeStackNode(at: index) }
        if doc.equals(type, "stack-item") { return try decodeStackItemNode(at: index) }
        if doc.equals(type, "core-layout") { return try decodeCoreLayoutNode(at: index) }
        if doc.equals(type, "constraints") { return try decodeConstraintNode(at: index, kind: .constraints) }
        if doc.equals(type, "fixflex") { return try decodeConstraintNode(at: index, kind: .fixFlex) }
        if doc.equals(type, "flexible-spaces") { return try decodeConstraintNode(at: index, kind: .flexibleSpaces) }
        return nil
    }

    // MARK: shared value forms

    /// `true` or `false`.
    func bool(_ index: Int, _ what: @autoclosure () -> String, pointer: @autoclosure () -> String) throws(WireError) -> Bool {
        switch doc.tokens[index].kind {
        case .true: return true
        case .false: return false
        default: throw wrongType(index, "\(what()) must be true or false", pointer: pointer())
        }
    }

    /// A string id.
    func idString(_ index: Int, _ what: String, pointer: String) throws(WireError) -> String {
        guard doc.tokens[index].kind == .string else { throw wrongType(index, "\(what) must be a string", pointer: pointer) }
        return doc.string(at: index)
    }
}
