@_spi(Decoding) import LayoutEngine

/// One node as a node-kind decoder reads it: everything but its children, which the tree
/// walk decodes without recursion.
struct DecodedNode {
    var id: String?
    var style: Style
    var content: NodeContent
    /// Token of the `children` array, or -1 when the node has none.
    var children: Int = -1
    /// The `children` array holds constraint items (`/items/N`, each a child node through
    /// `decodeConstraintItemChild`) rather than nodes.
    var childrenAreItems = false
    /// Every style and content value went through this decoder's checks (flex nodes), so the
    /// tree need not validate them again. Other node kinds leave it false.
    var prevalidated = false
}

extension RequestDecoder {
    /// Builds the tree under the node object at `index` (the request's `root`), depth-first
    /// with an explicit stack, and returns the root's id. `ids` gets each node's `id` by index.
    // Not mutating: the nested `add` then reads `self` in place instead of copying the whole
    // decoder per node, as it did when capturing an inout `self`.
    func decodeTree(at index: Int, into tree: inout LayoutTree, ids: inout NodeIdentifiers) throws(WireError) -> NodeID {
        // One entry per node whose children are being decoded.
        struct Frame {
            var node: NodeID
            var next: Int          // token of the next child
            var remaining: Int
            var position: Int      // index of the child being decoded
            var items = false      // children are constraint items
            var nested = false     // the current item's node is its `node` member
        }
        var stack: [Frame] = []
        func pointer(_ stack: [Frame]) -> String {
            JSONPointer.node(stack) { ($0.items, $0.position, $0.nested) }
        }
        // One scratch node reused for every node, so a Style is not copied around per node.
        var node = DecodedNode(id: nil, style: baseStyle, content: .none)
        // A local: passed on by address, where `self.baseStyle` was copied to the stack per node.
        let base = baseStyle
        // Every node is a flexbox node object (the estimate's walk saw them all): no node needs
        // its members scanned for `"type"` before it is decoded.
        var onlyFlexNodes = false
        func add(_ index: Int, parent: NodeID?, stack: [Frame]) throws(WireError) -> (NodeID, children: Int, items: Bool, nested: Bool) {
            guard tree.nodeCount < limits.maxNodes else {
                throw .tooLarge("too-many-nodes", "the tree has more than \(limits.maxNodes) nodes", pointer: pointer(stack))
            }
            guard stack.count < limits.maxDepth else {
                throw .tooLarge("too-deep", "the tree nests deeper than \(limits.maxDepth) nodes", pointer: pointer(stack))
            }
            var nested = false
            var direct: NodeID? = nil
            // Token of a model node's `"type"` (-1: a flexbox node or a constraint item).
            var modelKind = -1
            do {
                if stack.last?.items == true { nested = try decodeConstraintItemChild(at: index, into: &node) }
                else {
                    modelKind = onlyFlexNodes ? -1 : try modelType(at: index)
                    if modelKind < 0 {
                        // A flexbox node (most nodes): its style and content are decoded
                        // straight into the tree's storage, not through the scratch node.
                        var members = FlexMembers()
                        direct = try tree.addNode(base: base) { (style, content) throws(WireError) in
                            try decodeFlexMembers(at: index, style: &style, content: &content, members: &members)
                        }
                        node.id = members.id
                        node.children = members.children
                        node.childrenAreItems = false
                    } else { try decodeNode(at: index, into: &node) }
                }
            } catch { throw error.prefixed(by: pointer(stack)) }
            let id: NodeID
            if let direct {
                id = direct
            } else if node.prevalidated {
                id = tree.addNode(prevalidatedStyle: node.style, content: node.content)
            } else {
                do { id = try tree.addNode(style: node.style, content: node.content) } catch {
                    let where_ = error.property == "measure" ? "/measure" : "/style"
                    throw .invalid("invalid-style", error.description, pointer: pointer(stack) + (nested ? "/node" : "") + where_)
                }
            }
            if !sizeOf.pending.isEmpty { sizeOf.bind(to: id, pointer: pointer(stack) + (nested ? "/node" : "")) }
            if let parent { tree.appendChild(id, to: parent) }
            text.commit(id, pointer: pointer(stack))
            paints.attachPending(to: id)
            if modelKind >= 0 { paints.table.modelKinds[id.index] = doc.string(at: modelKind) }
            ids.append(node.id)
            return (id, node.children, node.childrenAreItems, nested)
        }

        // Room for every node up front, and no more: an over-reserved tree (every object,
        // styles included, is ~2x the nodes) is pushed into fresh `mmap`ed arrays and paid for
        // in page faults.
        let estimate = nodeCountEstimate(at: index)
        onlyFlexNodes = estimate.onlyFlexNodes
        let reserve = min(limits.maxNodes, estimate.count)
        if let storage, tree.nodeCount == 0 {
            tree = storage.tree(config: tree.config, reserving: reserve)
        } else {
            tree.reserveCapacity(reserve)
        }
        ids.reserveCapacity(reserve, bytes: reserve * 8)

        let (root, rootChildren, rootItems, _) = try add(index, parent: nil, stack: stack)
        if rootChildren >= 0 {
            stack.append(Frame(node: root, next: rootChildren + 1,
                               remaining: Int(doc.tokens[rootChildren].aux), position: -1, items: rootItems))
        }
        while let top = stack.last {
            guard top.remaining > 0 else { stack.removeLast(); continue }
            let child = top.next
            // One write back (one uniqueness check) instead of one per field.
            var advanced = top
            advanced.next = doc.next(after: child)
            advanced.remaining -= 1
            advanced.position += 1
            advanced.nested = false
            stack[stack.count - 1] = advanced
            let (id, children, items, nested) = try add(child, parent: top.node, stack: stack)
            stack[stack.count - 1].nested = nested
            if children >= 0 {
                stack.append(Frame(node: id, next: children + 1,
                                   remaining: Int(doc.tokens[children].aux), position: -1, items: items))
            }
        }
        return root
    }

    /// The number of nodes under the node object at `index` when every node is a flexbox node
    /// (a walk over `children` arrays), with `onlyFlexNodes` true: every node is an object
    /// whose `type`, if any, is the string `"flex"`. For other node kinds, or malformed input the
    /// decode will refuse, the objects in the subtree (an upper bound), and false.
    private func nodeCountEstimate(at index: Int) -> (count: Int, onlyFlexNodes: Bool) {
        var count = 0
        var pending = [index]
        while let node = pending.popLast() {
            guard doc.tokens[node].kind == .object else { return (objectCount(in: index), false) }
            count += 1
            if count > limits.maxNodes { return (count, false) }
            for (key, value) in doc.members(of: node) {
                let keyLength = doc.tokens[key].aux
                if keyLength == 8 && doc.equals(key, "children") {
                    guard doc.tokens[value].kind == .array else { return (objectCount(in: index), false) }
                    for (_, child) in doc.elements(of: value) { pending.append(child) }
                } else if keyLength == 4 && doc.equals(key, "type")
                            && !(doc.tokens[value].kind == .string && doc.equals(value, "flex")) {
                    return (objectCount(in: index), false)
                }
            }
        }
        return (count, true)
    }

    /// Objects in the value at `index`, found by scanning its stretch of the tape.
    private func objectCount(in index: Int) -> Int {
        var count = 0
        for i in index..<doc.next(after: index) where doc.tokens[i].kind == .object { count += 1 }
        return count
    }

    /// Decodes one node by its kind: the optional `"type"` member picks the decoder (absent
    /// means a flexbox node). Another model adds its kind here with a decoder in its own file;
    /// every kind fills a `DecodedNode` (style, content, children), resetting all of it.
    func decodeNode(at index: Int, into node: inout DecodedNode) throws(WireError) {
        let type = try modelType(at: index)
        if type < 0 { return try decodeFlexNode(at: index, into: &node) }
        if let model = try decodeModelNode(type: type, at: index) { node = model; return } // Models/
        throw WireError.invalid("unknown-value", "unknown node type \"\(doc.string(at: type))\"; expected \"flex\", \(Self.modelNodeKinds)",
                                pointer: "/type")
    }

    /// For the node object at `index`: -1 for a flexbox node (no `"type"` member, or
    /// `"flex"`), else the token of its `"type"` string. Throws unless it is an object whose
    /// first `type` member (if any) is a string.
    func modelType(at index: Int) throws(WireError) -> Int {
        try expect(index, .object, "a node", "")
        // The length first: one compare rejects nearly every other member.
        for (key, type) in doc.members(of: index) where doc.tokens[key].aux == 4 && doc.equals(key, "type") {
            guard doc.tokens[type].kind == .string else {
                throw wrongType(type, "type must be a string", pointer: "/type")
            }
            return doc.equals(type, "flex") ? -1 : type
        }
        return -1
    }

    /// A flexbox node: `id`, `style`, `children`, `measure` (and `type: "flex"`).
    func decodeFlexNode(at index: Int, into node: inout DecodedNode) throws(WireError) {
        node.style = baseStyle
        node.content = .none
        var members = FlexMembers()
        try decodeFlexMembers(at: index, style: &node.style, content: &node.content, members: &members)
        node.id = members.id
        node.children = members.children
        node.childrenAreItems = false
        // decodeStyle and decodeMeasure check every value as `Style.validate` does.
        node.prevalidated = true
    }

    /// What a flexbox node holds besides its style and content.
    struct FlexMembers {
        var id: String? = nil
        /// Token of the `children` array, or -1.
        var children = -1
    }

    /// The members of the flexbox node at `index`, applied to `style` (which starts as the
    /// base style) and `content` (`.none`); every value is checked as `Style.validate` does.
    func decodeFlexMembers(at index: Int, style: inout Style, content: inout NodeContent,
                           members: inout FlexMembers) throws(WireError) {
        var measure = -1, textValue = -1
        var excluded = false
        for (key, value) in doc.members(of: index) {
            // The name's length picks the one candidate to compare with.
            switch doc.tokens[key].aux {
            case 2 where doc.equals(key, "id"):
                guard doc.tokens[value].kind == .string else { throw wrongType(value, "id must be a string", pointer: "/id") }
                members.id = doc.string(at: value)
            case 5 where doc.equals(key, "style"):
                do { try decodeStyle(at: value, into: &style) } catch { throw error.prefixed(by: "/style") }
            case 8 where doc.equals(key, "children"):
                try expect(value, .array, "children", "/children")
                members.children = value
            case 7 where doc.equals(key, "measure"):
                measure = value
            case 4 where doc.equals(key, "text"):
                textValue = value
            case 4 where doc.equals(key, "type"):
                break
            case 18 where doc.equals(key, "isIncludedInLayout"):
                excluded = !(try bool(value, "isIncludedInLayout", pointer: "/isIncludedInLayout"))
            default:
                throw unknownKey(key, in: "a node", accepted: "id, style, children, measure, text, isIncludedInLayout, type", pointer: "")
            }
        }
        // FlexLayout's isIncludedInLayout(false): the view and its subtree leave the layout.
        if excluded { style.display = .none }
        if measure >= 0 {
            if members.children >= 0 && doc.tokens[members.children].aux > 0 {
                throw WireError.invalid("measure-with-children", "a node with measure is a leaf; it cannot have children",
                                        pointer: "/measure")
            }
            content = try within("/measure") { () throws(WireError) in try decodeMeasure(at: measure) }
        }
        if textValue >= 0 {
            if members.children >= 0 && doc.tokens[members.children].aux > 0 {
                throw WireError.invalid("text-with-children", "a node with text is a leaf; it cannot have children", pointer: "/text")
            }
            if measure >= 0 {
                throw WireError.invalid("text-with-measure", "a text leaf is measured by its text; it takes no measure", pointer: "/measure")
            }
            text.pendingText = try within("/text") { () throws(WireError) in try decodeText(at: textValue) }
            // Measured by the service's text layout (LayoutText), through the engine's hook;
            // the service sets the tag to a digest of the text, its style and the fonts.
            content = .custom(tag: 0)
        }
    }

    /// `{"kind": "fixed" | "intrinsic-text" | "benchmark-leaf", ...}`.
    func decodeMeasure(at index: Int) throws(WireError) -> NodeContent {
        try expect(index, .object, "measure", "")
        var kind = -1, text = -1, width = -1, height = -1
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "kind") { kind = value }
            else if doc.equals(key, "text") { text = value }
            else if doc.equals(key, "width") { width = value }
            else if doc.equals(key, "height") { height = value }
            else { throw unknownKey(key, in: "measure", accepted: "kind, text, width, height", pointer: "") }
        }
        let kinds = "\"fixed\", \"intrinsic-text\" or \"benchmark-leaf\""
        guard kind >= 0 else { throw .invalid("missing-key", "measure needs a \"kind\": \(kinds)", pointer: "") }
        guard doc.tokens[kind].kind == .string else { throw wrongType(kind, "kind must be \(kinds)", pointer: "/kind") }
        if doc.equals(kind, "intrinsic-text") {
            guard text >= 0 else { throw .invalid("missing-key", "intrinsic-text needs \"text\"", pointer: "") }
            guard doc.tokens[text].kind == .string else { throw wrongType(text, "text must be a string", pointer: "/text") }
            if width >= 0 { throw .invalid("unknown-key", "intrinsic-text takes no width", pointer: "/width") }
            if height >= 0 { throw .invalid("unknown-key", "intrinsic-text takes no height", pointer: "/height") }
            return .intrinsicText(doc.string(at: text))
        }
        let isFixed = doc.equals(kind, "fixed")
        guard isFixed || doc.equals(kind, "benchmark-leaf") else {
            throw .invalid("unknown-value", "unknown measure kind \"\(doc.string(at: kind))\"; expected \(kinds)", pointer: "/kind")
        }
        if text >= 0 { throw .invalid("unknown-key", "\(doc.string(at: kind)) takes no text", pointer: "/text") }
        guard width >= 0 else { throw .invalid("missing-key", "\(doc.string(at: kind)) needs \"width\"", pointer: "") }
        guard height >= 0 else { throw .invalid("missing-key", "\(doc.string(at: kind)) needs \"height\"", pointer: "") }
        let size = Size(width: try float(width, "width", allowNegative: false, pointer: "/width"),
                        height: try float(height, "height", allowNegative: false, pointer: "/height"))
        return isFixed ? .fixed(size) : .benchmarkLeaf(size)
    }
}
