import LayoutEngine
import LayoutWire

/// What one JSON Patch operation does to a kept flexbox tree, so that a patch that adds,
/// removes or moves nodes is applied to the laid-out tree as it was applied to the document:
/// operation by operation, each path read in the document as the operations before it left it.
enum TreeEdit {
    /// The own members (`style`, `id`, ...) of the node at these child indices from the root.
    case members([Int])
    /// A node object added as child `index` of the node at `parent` (nil: appended).
    case insert(parent: [Int], index: Int?, FlexSubtree)
    /// Child `index` of the node at `parent` removed.
    case remove(parent: [Int], index: Int)
    /// Child `index` of the node at `parent` replaced by a node object.
    case replace(parent: [Int], index: Int, FlexSubtree)
    /// A child moved (RFC 6902 `move`: removed from `from`, then added at `to` in the document
    /// without it).
    case move(from: (parent: [Int], index: Int), to: (parent: [Int], index: Int?))

    var changesStructure: Bool {
        if case .members = self { return false }
        return true
    }

    /// The edits of `operation` (none for a `test`), or nil when it is none of the above: it
    /// edits the request's own members, a whole `children` array, a span of a text, or copies
    /// a node; or a node object it brings is not a flexbox subtree (`FlexSubtree`). Node
    /// objects are decoded with `config`'s base style.
    static func edits(of operation: JSONPatch.Operation, config: LayoutConfig, limits: WireLimits) -> [TreeEdit]? {
        func subtree() -> FlexSubtree? {
            guard let value = operation.value else { return nil }
            return FlexSubtree(value, config: config, limits: limits)
        }
        let slot = childSlot(operation.path)
        switch operation.kind {
        case .test:
            return []
        case .add:
            if let slot {
                guard let subtree = subtree() else { return nil }
                return [.insert(parent: slot.parent, index: slot.index, subtree)]
            }
        case .replace:
            if let slot {
                guard let index = slot.index, let subtree = subtree() else { return nil }
                return [.replace(parent: slot.parent, index: index, subtree)]
            }
        case .remove:
            if let slot {
                guard let index = slot.index else { return nil }
                return [.remove(parent: slot.parent, index: index)]
            }
        case .move:
            guard let from = operation.from else { return nil }
            if let source = childSlot(from) {
                guard let slot, let index = source.index else { return nil }
                return [.move(from: (source.parent, index), to: slot)]
            }
            guard slot == nil, let node = PatchComputer.editedNode(from) else { return nil }
            guard let target = PatchComputer.editedNode(operation.path) else { return nil }
            return [.members(node), .members(target)]
        case .copy:
            guard slot == nil else { return nil }
        }
        return PatchComputer.editedNode(operation.path).map { [.members($0)] }
    }

    /// The parent's child indices and the position a path names in its `children`
    /// (`/root/children/2/children/0` → ([2], 0); `…/children/-` → index nil), or nil when the
    /// path does not name a child node.
    static func childSlot(_ path: [String]) -> (parent: [Int], index: Int?)? {
        guard path.first == "root", path.count >= 3, path.count % 2 == 1 else { return nil }
        var parent: [Int] = []
        var k = 1
        while k + 2 < path.count {
            guard path[k] == "children", let index = JSONPointer.arrayIndex(path[k + 1]) else { return nil }
            parent.append(index)
            k += 2
        }
        guard path[k] == "children" else { return nil }
        if path[k + 1] == "-" { return (parent, nil) }
        guard let index = JSONPointer.arrayIndex(path[k + 1]) else { return nil }
        return (parent, index)
    }
}

/// Applies `TreeEdit`s to a kept request, and keeps what they add up to. The request is
/// passed to each call (`inout`), never held: a second reference to its tree would make the
/// edits copy its arrays (copy-on-write).
struct TreeEditor {
    /// Nodes whose own members an edit changes, in the order first edited.
    private(set) var editedNodes: [NodeID] = []
    /// Nodes added less nodes taken out of the tree.
    private(set) var nodeBalance = 0
    /// Whether children were added, removed or moved.
    private(set) var changedStructure = false
    /// Nodes whose children changed (their child count is part of their hashed record).
    private(set) var parentsEdited: [NodeID] = []
    /// Roots of the subtrees inserted (added or moved), in order.
    private(set) var placedRoots: [NodeID] = []
    /// Roots of subtrees placed by this patch whose text leaves must be resolved again in their
    /// new place (they inherit text styles): added subtrees with text, and moved ones.
    private(set) var placedWithText: [NodeID] = []
    let limits: WireLimits

    init(limits: WireLimits) {
        self.limits = limits
    }

    /// Applies `edit` to `request`; false when its paths do not name nodes of the tree as it
    /// stands (the tree may be half edited then).
    mutating func apply(_ edit: TreeEdit, to request: inout LayoutRequest) -> Bool {
        switch edit {
        case .members(let path):
            guard let node = Self.node(at: path, in: request) else { return false }
            if !editedNodes.contains(node) { editedNodes.append(node) }
            return true
        case .insert(let parentPath, let index, let subtree):
            return insert(subtree, parent: parentPath, index: index, into: &request)
        case .remove(let parentPath, let index):
            return remove(parent: parentPath, index: index, from: &request) != nil
        case .replace(let parentPath, let index, let subtree):
            return remove(parent: parentPath, index: index, from: &request) != nil
                && insert(subtree, parent: parentPath, index: index, into: &request)
        case .move(let from, let to):
            guard let child = remove(parent: from.parent, index: from.index, from: &request),
                  place(parent: to.parent, index: to.index, depth: Self.subtreeDepth(child, in: request.tree), into: &request,
                        root: { _ in child }) != nil
            else { return false }
            if !request.textLeaves.isEmpty { placedWithText.append(child) }
            return true
        }
    }

    /// The child indices from the root to `node`, or nil when it is no longer under the root.
    static func path(of node: NodeID, in request: LayoutRequest) -> [Int]? {
        request.tree.links.path(to: node, from: request.root)
    }

    private mutating func insert(_ subtree: FlexSubtree, parent parentPath: [Int], index: Int?,
                                 into request: inout LayoutRequest) -> Bool {
        guard let root = place(parent: parentPath, index: index, depth: subtree.depth, into: &request,
                               root: { $0.add(subtree) }) else { return false }
        if subtree.hasText { placedWithText.append(root) }
        return true
    }

    /// Inserts the subtree `root` gives (`depth` levels deep, made only once the place is
    /// checked) as child `index` of the node at `parent` (nil: appended); nil when there is no
    /// such place, the tree would nest deeper than the limit, or `parent` is a leaf by its
    /// content (a measure or a text, even with an empty `children` array in the document: the
    /// whole decode refuses it with children, which the rebuild then answers).
    private mutating func place(parent parentPath: [Int], index: Int?, depth: Int, into request: inout LayoutRequest,
                                root: (inout LayoutRequest) -> NodeID) -> NodeID? {
        guard let parent = Self.node(at: parentPath, in: request), request.tree.content(of: parent) == .none else { return nil }
        let count = request.tree.childCount(of: parent)
        let index = index ?? count
        guard index <= count, Self.depth(of: parent, in: request.tree) + depth <= limits.maxDepth else { return nil }
        let child = root(&request)
        request.tree.insertChild(child, into: parent, at: index)
        nodeBalance += request.tree.preorderNodes(root: child).count
        changedStructure = true
        changedChildren(of: parent)
        placedRoots.append(child)
        return child
    }

    private mutating func remove(parent parentPath: [Int], index: Int, from request: inout LayoutRequest) -> NodeID? {
        guard let parent = Self.node(at: parentPath, in: request), index < request.tree.childCount(of: parent) else { return nil }
        changedChildren(of: parent)
        let child = request.tree.removeChild(at: index, of: parent)
        nodeBalance -= request.tree.preorderNodes(root: child).count
        changedStructure = true
        return child
    }

    /// Notes that `parent`'s children changed: its own record (which holds its child count)
    /// changes.
    private mutating func changedChildren(of parent: NodeID) {
        if !parentsEdited.contains(parent) { parentsEdited.append(parent) }
    }

    private static func node(at path: [Int], in request: LayoutRequest) -> NodeID? {
        var node = request.root
        for index in path {
            guard index < request.tree.childCount(of: node) else { return nil }
            node = request.tree.child(at: index, of: node)
        }
        return node
    }

    /// Nodes from the root down to `node`, both counted.
    private static func depth(of node: NodeID, in tree: LayoutTree) -> Int {
        var depth = 1
        var n = node
        while let parent = tree.parent(of: n) {
            depth += 1
            n = parent
        }
        return depth
    }

    private static func subtreeDepth(_ root: NodeID, in tree: LayoutTree) -> Int {
        var deepest = 0
        var stack: [(NodeID, Int)] = [(root, 1)]
        while let (node, level) = stack.popLast() {
            deepest = max(deepest, level)
            for child in tree.children(of: node) { stack.append((child, level + 1)) }
        }
        return deepest
    }
}
