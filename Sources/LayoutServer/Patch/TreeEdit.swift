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
    /// a node; or a node object it brings is not a plain flexbox subtree. Node objects are
    /// decoded with `config`'s base style.
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

/// Structural edits applied to a kept request, with what they add up to.
struct TreeEditor {
    var request: LayoutRequest
    /// Nodes whose own members an edit changes, in the order first edited.
    private(set) var editedNodes: [NodeID] = []
    /// Nodes added less nodes taken out of the tree.
    private(set) var nodeBalance = 0
    /// Whether children were added, removed or moved.
    private(set) var changedStructure = false
    let limits: WireLimits

    init(request: consuming LayoutRequest, limits: WireLimits) {
        self.request = request
        self.limits = limits
    }

    /// Applies `edit`; false when its paths do not name nodes of the tree as it stands (the
    /// tree may be half edited then).
    mutating func apply(_ edit: TreeEdit) -> Bool {
        switch edit {
        case .members(let path):
            guard let node = node(at: path) else { return false }
            if !editedNodes.contains(node) { editedNodes.append(node) }
            return true
        case .insert(let parentPath, let index, let subtree):
            return insert(subtree, parent: parentPath, index: index)
        case .remove(let parentPath, let index):
            return remove(parent: parentPath, index: index) != nil
        case .replace(let parentPath, let index, let subtree):
            return remove(parent: parentPath, index: index) != nil && insert(subtree, parent: parentPath, index: index)
        case .move(let from, let to):
            guard let child = remove(parent: from.parent, index: from.index), let parent = node(at: to.parent) else { return false }
            let index = to.index ?? request.tree.childCount(of: parent)
            guard index <= request.tree.childCount(of: parent),
                  depth(of: parent) + subtreeDepth(child) <= limits.maxDepth else { return false }
            request.tree.insertChild(child, into: parent, at: index)
            nodeBalance += subtreeSize(child)
            return true
        }
    }

    /// The edited request, handed over.
    consuming func finish() -> LayoutRequest { request }

    /// The child indices from the root to `node`, or nil when it is no longer under the root.
    func path(of node: NodeID) -> [Int]? {
        var path: [Int] = []
        var n = node
        while n != request.root {
            guard let parent = request.tree.parent(of: n) else { return nil }
            var index = 0
            var sibling = request.tree.firstChild(of: parent)
            while sibling != n {
                sibling = request.tree.nextSibling(of: sibling)
                index += 1
            }
            path.append(index)
            n = parent
        }
        return path.reversed()
    }

    private mutating func insert(_ subtree: FlexSubtree, parent parentPath: [Int], index: Int?) -> Bool {
        guard let parent = node(at: parentPath) else { return false }
        let count = request.tree.childCount(of: parent)
        let index = index ?? count
        guard index <= count, depth(of: parent) + subtree.depth <= limits.maxDepth else { return false }
        let root = request.add(subtree)
        request.tree.insertChild(root, into: parent, at: index)
        nodeBalance += subtree.nodes.count
        changedStructure = true
        return true
    }

    private mutating func remove(parent parentPath: [Int], index: Int) -> NodeID? {
        guard let parent = node(at: parentPath), index < request.tree.childCount(of: parent) else { return nil }
        let child = request.tree.removeChild(at: index, of: parent)
        nodeBalance -= subtreeSize(child)
        changedStructure = true
        return child
    }

    private func node(at path: [Int]) -> NodeID? {
        var node = request.root
        for index in path {
            guard index < request.tree.childCount(of: node) else { return nil }
            node = request.tree.child(at: index, of: node)
        }
        return node
    }

    /// Nodes from the root down to `node`, both counted.
    private func depth(of node: NodeID) -> Int {
        var depth = 1
        var n = node
        while let parent = request.tree.parent(of: n) {
            depth += 1
            n = parent
        }
        return depth
    }

    private func subtreeSize(_ root: NodeID) -> Int {
        request.tree.preorderNodes(root: root).count
    }

    private func subtreeDepth(_ root: NodeID) -> Int {
        var deepest = 0
        var stack: [(NodeID, Int)] = [(root, 1)]
        while let (node, level) = stack.popLast() {
            deepest = max(deepest, level)
            for child in request.tree.children(of: node) { stack.append((child, level + 1)) }
        }
        return deepest
    }
}
