@_spi(Decoding) import LayoutEngine
import LayoutTextModel

/// The common request decoded in one pass over its bytes, straight into the tree's storage:
/// no token tape, no second walk over it, no count of the nodes beforehand.
///
/// It takes flexbox nodes whose members are `id`, `style` (numbers, keywords and lengths, and
/// text properties of one number or string), `measure` (`fixed` or `benchmark-leaf`), `text` (a
/// string), `type` (`"flex"`) and, last, `children`, under a
/// request of `root`, `available`, `direction`, `textLines` and a `config` (`pointScaleFactor`,
/// `useWebDefaults`) before `root`. Strings are read in place, or unescaped into a scratch
/// buffer when they hold escapes (clients that escape every non-ASCII character send them in
/// ids). Anything else (another member or node kind, text as spans, a family array, paint, a
/// size reference, a repeated member, a limit reached, any error) makes it give up, and
/// `RequestDecoder` decodes the request from the tape instead; that one also words the errors. A request both
/// accept decodes to the same tree, ids and hash either way (`OnePassDecoderTests`). In a large
/// tree, a child that repeats an earlier sibling but for its ids is copied from it instead of
/// being decoded (`RepeatedSiblings`; the copying is in `OnePassDecoder+Repeats.swift`, the
/// token readers in `OnePassDecoder+Tokens.swift`).
struct OnePassDecoder {
    let input: UnsafeBufferPointer<UInt8>
    let limits: WireLimits
    private let styleKeys = StyleProperty.keyTable
    var pos = 0
    /// The last string read with escapes, unescaped (made at the first escape).
    var unescaped: GrowableBuffer<UInt8>?
    /// The node's id when it had escapes: kept apart, since the node's other strings follow it.
    var unescapedID: GrowableBuffer<UInt8>?
    /// Text styles and leaves met on the way, resolved at the end as the tape decoder does.
    let text = TextCollector()
    /// Children the last `nodes` copied from an earlier sibling. (Its `RepeatedSiblings` is a
    /// local there, not a field: a copy of the decoder, which the compiler makes at times, would
    /// retain its arrays.)
    private var copies = 0
    /// Whether siblings are compared with earlier ones at all (`RepeatedSiblings.minimumNodes`).
    private var findsRepeats = false
    /// Whether a repeat becomes an instance of its sibling (`LayoutTree.addInstance(of:size:under:)`)
    /// instead of a copy of its nodes.
    private(set) var foldsRepeats = false
    /// The nodes the instances stand for, beyond the tree's (counted against `maxNodes`).
    var virtualNodes = 0
    /// The ids of those nodes (`LayoutRequest.instanceIDs`).
    var instanceIDs = NodeIdentifiers()
    /// The nodes the tree's arrays were reserved for (an estimate from the count of `{`).
    private(set) var reservedNodes = 0

    /// Thrown at the first thing outside the accepted shape; nothing is reported.
    struct GaveUp: Error {}

    private init(input: UnsafeBufferPointer<UInt8>, limits: WireLimits) {
        self.input = input
        self.limits = limits
    }

    /// The request in `bytes`, or nil when it is outside the shape this decoder takes.
    /// `objectCount`: the count of `{` in `bytes`, when the caller has it.
    /// `storage`: where a large tree takes its arrays from, and gives them back to when this
    /// decoder gives up.
    /// `foldsRepeats`: repeats become instances (see `LayoutRequest.instanceIDs`).
    /// `body`: the array `bytes` are the storage of, when there is one: the instances' ids
    /// then point into it instead of being copied (`NodeIdentifiers.init(referencing:)`).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, limits: WireLimits, objectCount: Int? = nil,
                       storage: TreeStoragePool? = nil, foldsRepeats: Bool = false, body: [UInt8]? = nil) -> LayoutRequest? {
        var copies = 0
        return decode(bytes, limits: limits, objectCount: objectCount, storage: storage, foldsRepeats: foldsRepeats,
                      body: body, copies: &copies)
    }

    /// `decode`, counting the children copied from an earlier sibling (`RepeatedSiblings`), in
    /// trees of about `repeatsFrom` nodes or more (estimated from the count of `{`).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, limits: WireLimits, objectCount: Int? = nil,
                       storage: TreeStoragePool? = nil, repeatsFrom: Int = RepeatedSiblings.minimumNodes,
                       foldsRepeats: Bool = false, body: [UInt8]? = nil, copies: inout Int) -> LayoutRequest? {
        // Nearly every node is an object with a style object: half the objects, a guess that
        // keeps the arrays near their final size (over-reserving pushes them into fresh pages).
        let reserve = min(limits.maxNodes, (objectCount ?? LayoutWire.openBraceCount(in: bytes)) / 2 + 1)
        var decoder = OnePassDecoder(input: bytes, limits: limits)
        decoder.findsRepeats = reserve >= repeatsFrom
        decoder.foldsRepeats = foldsRepeats
        decoder.reservedNodes = reserve
        if foldsRepeats, let body, body.withUnsafeBufferPointer({ $0.baseAddress == bytes.baseAddress && $0.count == bytes.count }) {
            decoder.instanceIDs = NodeIdentifiers(referencing: body)
        }
        defer {
            decoder.unescaped?.free()
            decoder.unescapedID?.free()
        }
        var tree = TreeStoragePool.tree(config: LayoutConfig(), reserving: reserve, from: storage)
        defer { copies = decoder.copies }
        do {
            return try decoder.request(into: &tree, reserved: reserve)
        } catch {
            // The tape decoder builds the tree again, in the same storage.
            storage?.recycle(&tree)
            return nil
        }
    }

    // MARK: Request

    /// The request, its nodes added to `tree` (empty, with room for `reserve` nodes).
    private mutating func request(into tree: inout LayoutTree, reserved reserve: Int) throws(GaveUp) -> LayoutRequest {
        var ids = NodeIdentifiers()
        // Ids take a part of the body: a sixth, as in a tree of short ids and small styles.
        ids.reserveCapacity(reserve, bytes: input.count / 6)
        var config = LayoutConfig()
        var root: NodeID?
        var available = AvailableSize()
        var direction = Direction.ltr
        var textLines = false
        var copied: [CopiedSubtree] = []
        try members { (decoder, key) throws(GaveUp) in
            if spells(key, "root") {
                // The config sets the tree's and the base style's defaults: it must come first.
                tree.config = config
                root = try decoder.nodes(into: &tree, ids: &ids, base: Style(webDefaults: config.useWebDefaults),
                                         copied: &copied)
                return 1
            } else if spells(key, "config") {
                guard root == nil else { throw GaveUp() }
                config = try decoder.config()
                return 2
            } else if spells(key, "available") {
                available = try decoder.availableSize()
                return 4
            } else if spells(key, "direction") {
                guard let value = Keywords.ownerDirection.match(try decoder.string()) else { throw GaveUp() }
                direction = value
                return 8
            } else if spells(key, "textLines") {
                textLines = try decoder.bool()
                return 16
            }
            return 0
        }
        skipWhitespace()
        guard pos == input.count, let root else { throw GaveUp() }
        // Every id was read by `string()`, which refuses a control character; with no escape in
        // the document, no id holds a quote or a backslash either.
        if unescaped == nil {
            ids.vouchEscapeFree()
            instanceIDs.vouchEscapeFree()
        }
        var request = LayoutRequest(tree: tree, root: root, ids: ids, available: available, direction: direction)
        // Handed over: the caller's copy must not keep the arrays shared.
        tree = LayoutTree()
        request.textLines = textLines
        request.subtreeCopies = SubtreeCopies(list: copied, structureVersion: request.tree.structureVersion)
        if request.tree.hasInstances { request.instanceIDs = instanceIDs }
        if !text.leaves.isEmpty {
            (request.textLeaves, request.textLeafCopies) = text.resolve(tree: request.tree, ownerDirection: direction)
        }
        return request
    }

    /// `{"pointScaleFactor": s, "useWebDefaults": b}`, either or both (errata and experimental
    /// features are the tape decoder's).
    private mutating func config() throws(GaveUp) -> LayoutConfig {
        var config = LayoutConfig()
        try members { (decoder, key) throws(GaveUp) in
            if spells(key, "pointScaleFactor") {
                config.pointScaleFactor = try decoder.measurement()
                return 1
            } else if spells(key, "useWebDefaults") {
                config.useWebDefaults = try decoder.bool()
                return 2
            }
            return 0
        }
        return config
    }

    private mutating func availableSize() throws(GaveUp) -> AvailableSize {
        var size = AvailableSize()
        try members { (decoder, key) throws(GaveUp) in
            let bit: UInt8 = spells(key, "width") ? 1 : spells(key, "height") ? 2 : 0
            guard bit != 0 else { return 0 }
            var value: Float?
            if decoder.peek() == UInt8(ascii: "n") {
                try decoder.literal("null")
            } else {
                value = try decoder.measurement()
            }
            if bit == 1 { size.width = value } else { size.height = value }
            return bit
        }
        return size
    }

    /// The members of the object at `pos`, each read by `member` after its key (at its value),
    /// which returns the key's bit, or 0 for a key it does not take; an unknown or repeated key
    /// gives up, as does anything but a comma or the closing brace after a value.
    private mutating func members(
        _ member: (inout OnePassDecoder, UnsafeBufferPointer<UInt8>) throws(GaveUp) -> UInt8
    ) throws(GaveUp) {
        try open(UInt8(ascii: "{"))
        if try closesEmpty(UInt8(ascii: "}")) { return }
        var seen: UInt8 = 0
        repeat {
            let key = try key()
            let bit = try member(&self, key)
            guard bit != 0, seen & bit == 0 else { throw GaveUp() }
            seen |= bit
        } while try nextMember()
    }

    // MARK: Nodes

    /// The node tree at `pos` (the root's object), depth-first without recursion; returns the root.
    /// The children it copies from an earlier sibling are listed in `copied`.
    private mutating func nodes(into tree: inout LayoutTree, ids: inout NodeIdentifiers, base: Style,
                                copied: inout [CopiedSubtree]) throws(GaveUp) -> NodeID {
        // The nodes whose `children` array is open, innermost last, and the position in it of
        // the child being read (a text leaf's pointer is made of them).
        var open: [NodeID] = []
        var positions: [Int] = []
        var siblings = RepeatedSiblings(root: RepeatedSiblings.Start(byte: pos, node: 0, declarations: 0, leaves: 0),
                                        reservingNodes: findsRepeats ? tree.nodeCapacity : 0)
        defer { copies = siblings.copies }
        // What `text` holds, counted here: read from it, each count is an access check.
        var filed = (declarations: 0, leaves: 0)
        let (root, rootHasChildren) = try node(into: &tree, ids: &ids, base: base, under: nil, depth: 0, siblings: &siblings)
        filed = text.commit(root, pointer: "/root")
        guard rootHasChildren else { return root }
        open.append(root)
        positions.append(0)
        while let parent = open.last {
            // At the start of a child, after `[` or `,`.
            skipWhitespace()
            let (childByte, childNode) = (pos, tree.nodeCount)
            var repeated = false
            if findsRepeats && siblings.mayRepeat {
                repeated = try cloneEarlierSibling(into: &tree, ids: &ids, under: parent, positions: positions,
                                                   siblings: &siblings, filed: &filed, copied: &copied)
            }
            if !repeated {
                let (child, hasChildren) = try node(into: &tree, ids: &ids, base: base, under: parent, depth: open.count,
                                                    siblings: &siblings)
                if hasChildren && findsRepeats {
                    // What was filed before the child's own text (a leaf is never a source).
                    siblings.openChildren(of: RepeatedSiblings.Start(byte: childByte, node: childNode,
                                                                     declarations: filed.declarations,
                                                                     leaves: filed.leaves))
                }
                let own = text.commit(child, pointer: Self.pointer(positions))
                filed.declarations += own.declarations
                filed.leaves += own.leaves
                if hasChildren {
                    open.append(child)
                    positions.append(0)
                    continue
                }
                if findsRepeats { siblings.completedLeaf() }
            }
            // After a node's closing brace: its next sibling, or the end of its parent.
            while true {
                skipWhitespace()
                guard pos < input.count else { throw GaveUp() }
                if input[pos] == UInt8(ascii: ",") {
                    pos += 1
                    positions[positions.count - 1] += 1
                    break
                }
                guard input[pos] == UInt8(ascii: "]") else { throw GaveUp() }
                pos += 1
                try endOfNode()
                open.removeLast()
                positions.removeLast()
                if open.isEmpty { return root }
                guard findsRepeats else { continue }
                let parentStart = siblings.closeChildren()
                // A copy of a subtree holding an instance would copy that instance's row as a
                // leaf, and an instance of it would nest instances: such a child is no source.
                if foldsRepeats && tree.hasInstance(in: parentStart.node..<tree.nodeCount) {
                    siblings.completedLeaf()
                    continue
                }
                siblings.completed(RepeatedSiblings.Source(
                    start: parentStart, byteEnd: pos, nodeEnd: tree.nodeCount, declarationEnd: filed.declarations,
                    leafEnd: filed.leaves,
                    pointerLength: filed.leaves > parentStart.leaves ? Self.pointerLength(positions) : 0))
            }
        }
        return root
    }

    /// Adds the node object at `pos` as the last child of `parent` and reads its members up to
    /// the end of the object, or into its non-empty `children` array (true: `pos` is at the
    /// first child).
    private mutating func node(into tree: inout LayoutTree, ids: inout NodeIdentifiers, base: Style,
                               under parent: NodeID?, depth: Int,
                               siblings: inout RepeatedSiblings) throws(GaveUp) -> (NodeID, hasChildren: Bool) {
        // Each node level nests two JSON values (its object and its children array), under
        // the request object, with the style object inside.
        guard tree.nodeCount + virtualNodes < limits.maxNodes, depth < limits.maxDepth, 2 * depth + 3 < limits.maxNesting else {
            throw GaveUp()
        }
        try open(UInt8(ascii: "{"))
        var id: UnsafeBufferPointer<UInt8>?
        var idSpan: Range<Int>?
        var hasChildren = false
        let node = try tree.addNode(base: base, under: parent, reportingGroups: { (style, content, groups) throws(GaveUp) in
            if try closesEmpty(UInt8(ascii: "}")) { return }
            var seen: UInt8 = 0
            repeat {
                let key = try nodeKey()
                let bit: UInt8
                switch key.count {
                case 2 where spells(key, "id"):
                    bit = 1
                    skipWhitespace()
                    let start = pos
                    let text = try string()
                    idSpan = start..<pos
                    // Only a document with escapes can have read it into `unescaped`.
                    id = unescaped == nil ? text : keptID(text)
                case 5 where spells(key, "style"):
                    bit = 2
                    try self.style(into: &style, groups: &groups)
                case 7 where spells(key, "measure"):
                    bit = 4
                    guard seen & 16 == 0 else { throw GaveUp() }
                    content = try measure()
                case 4 where spells(key, "type"):
                    bit = 8
                    guard spells(try string(), "flex") else { throw GaveUp() }
                case 4 where spells(key, "text"):
                    // A text leaf takes no measure (the tape decoder words the error).
                    bit = 16
                    guard seen & 4 == 0 else { throw GaveUp() }
                    text.pendingText = DecodedText(spans: [(String(decoding: try string(), as: UTF8.self), TextStyleDeclaration())])
                    // Measured by the service's text layout, as the tape decoder sets it.
                    content = .custom(tag: 0)
                case 8 where spells(key, "children"):
                    try open(UInt8(ascii: "["))
                    if try closesEmpty(UInt8(ascii: "]")) {
                        // `children` comes last here; other orders go to the tape decoder.
                        try endOfNode()
                        return
                    }
                    // A measured node or a text node is a leaf: the tape decoder words the error.
                    guard seen & (4 | 16) == 0 else { throw GaveUp() }
                    hasChildren = true
                    return
                default:
                    throw GaveUp()
                }
                guard seen & bit == 0 else { throw GaveUp() }
                seen |= bit
            } while try nextMember()
        })
        ids.append(utf8: id)
        if findsRepeats { siblings.noteID(idSpan) }
        return (node, hasChildren)
    }

    /// The closing brace of a node object after its `children` array.
    private mutating func endOfNode() throws(GaveUp) {
        skipWhitespace()
        guard pos < input.count, input[pos] == UInt8(ascii: "}") else { throw GaveUp() }
        pos += 1
    }

    /// The members of a `style` object, applied to `style` with the tape decoder's checks;
    /// `groups` gets the length groups they set.
    private mutating func style(into style: inout Style, groups: inout SetStyleGroups) throws(GaveUp) {
        try open(UInt8(ascii: "{"))
        if try closesEmpty(UInt8(ascii: "}")) { return }
        // One bit per slot of the key table, to refuse a repeated key as the parser does.
        var seen: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var textStyle = TextStyleDeclaration()
        var declaresText = false
        defer { if declaresText { text.pendingStyle = textStyle } }
        repeat {
            guard let (slot, property) = styleKeys.slotAndProperty(named: try key()) else { throw GaveUp() }
            let bit: UInt64 = 1 << (slot & 63)
            switch slot >> 6 {
            case 0: guard seen.0 & bit == 0 else { throw GaveUp() }; seen.0 |= bit
            case 1: guard seen.1 & bit == 0 else { throw GaveUp() }; seen.1 |= bit
            case 2: guard seen.2 & bit == 0 else { throw GaveUp() }; seen.2 |= bit
            default: guard seen.3 & bit == 0 else { throw GaveUp() }; seen.3 |= bit
            }
            let value: StyleInput
            switch peek() {
            case UInt8(ascii: "\""): value = .string(try string())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try number())
            default: throw GaveUp()  // objects are size references; the rest are errors
            }
            if case .text(let textProperty) = property {
                do { try textProperty.set(value, on: &textStyle) } catch { throw GaveUp() }
                declaresText = true
                continue
            }
            do { try property.set(value, on: &style) } catch { throw GaveUp() }
            groups.formUnion(property.group)
        } while try nextMember()
    }

    /// `{"kind": "fixed" | "benchmark-leaf", "width": w, "height": h}`, members in any order.
    private mutating func measure() throws(GaveUp) -> NodeContent {
        var isFixed: Bool?
        var width: Float?, height: Float?
        try members { (decoder, key) throws(GaveUp) in
            if spells(key, "kind") {
                let kind = try decoder.string()
                if spells(kind, "fixed") { isFixed = true }
                else if spells(kind, "benchmark-leaf") { isFixed = false }
                else { throw GaveUp() }
                return 1
            } else if spells(key, "width") {
                width = try decoder.measurement()
                return 2
            } else if spells(key, "height") {
                height = try decoder.measurement()
                return 4
            }
            return 0
        }
        guard let isFixed, let width, let height else { throw GaveUp() }
        let size = Size(width: width, height: height)
        return isFixed ? .fixed(size) : .benchmarkLeaf(size)
    }
}

extension StyleProperty {
    /// The length group the property sets (none for keywords, factors, gaps and text). Every
    /// value a length property accepts is other than `undefined`, so setting it sets its group.
    var group: SetStyleGroups {
        switch self {
        case .margin: return .margin
        case .padding, .border: return .paddingOrBorder
        case .inset: return .insets
        case .minWidth, .minHeight: return .minimum
        case .maxWidth, .maxHeight: return .maximum
        default: return []
        }
    }
}
