// FUZZ_REDUCE=1: shrink a failing input's tree before dumping it, so that a finding becomes a
// readable regression test. Greedily drops subtrees, resets whole styles, single style
// properties and contents to their defaults, and drops the available size, for as long as
// the first layout pass still gives a non-finite or negative frame; then dumps what is left.
import LayoutEngine

/// A generated tree as a list to rebuild from: node i's style, content and parent (< i).
struct TreePlan {
    var styles: [Style]
    var contents: [NodeContent]
    var parents: [Int]   // -1 for the root
    var config: LayoutConfig
    var available: AvailableSize
    var direction: Direction

    init(_ built: Built) {
        let t = built.tree
        styles = (0..<t.nodeCount).map { t.style(of: NodeID($0)) }
        contents = (0..<t.nodeCount).map { t.content(of: NodeID($0)) }
        parents = (0..<t.nodeCount).map { t.parent(of: NodeID($0)).map { Int($0.index) } ?? -1 }
        config = t.config
        available = built.available
        direction = built.direction
    }

    /// The tree, or nil when the engine refuses a style (a reduction step may make one invalid).
    func build() -> Built? {
        var tree = LayoutTree(config: config)
        for i in styles.indices {
            guard let id = try? tree.addNode(style: styles[i], content: contents[i]) else { return nil }
            if parents[i] >= 0 { tree.appendChild(id, to: NodeID(parents[i])) }
        }
        installMeasure(&tree)
        return Built(tree: tree, root: NodeID(0), available: available, direction: direction)
    }

    /// Without node `k` and its descendants (parents renumbered).
    func removing(_ k: Int) -> TreePlan? {
        guard k > 0 else { return nil }
        var dropped = Array(repeating: false, count: styles.count)
        for i in styles.indices where i == k || (parents[i] >= 0 && dropped[parents[i]]) { dropped[i] = true }
        var newIndex = Array(repeating: -1, count: styles.count)
        var out = self
        out.styles = []; out.contents = []; out.parents = []
        for i in styles.indices where !dropped[i] {
            newIndex[i] = out.styles.count
            out.styles.append(styles[i])
            out.contents.append(contents[i])
            out.parents.append(parents[i] < 0 ? -1 : newIndex[parents[i]])
        }
        return out
    }
}

/// Each resets one group of properties to the defaults' value.
func styleResets() -> [(inout Style, Style) -> Void] { [
    { $0.direction = $1.direction }, { $0.flexDirection = $1.flexDirection },
    { $0.justifyContent = $1.justifyContent }, { $0.alignContent = $1.alignContent },
    { $0.alignItems = $1.alignItems }, { $0.alignSelf = $1.alignSelf },
    { $0.positionType = $1.positionType }, { $0.flexWrap = $1.flexWrap }, { $0.overflow = $1.overflow },
    { $0.display = $1.display }, { $0.boxSizing = $1.boxSizing },
    { $0.width = $1.width }, { $0.height = $1.height }, { $0.minWidth = $1.minWidth },
    { $0.minHeight = $1.minHeight }, { $0.maxWidth = $1.maxWidth }, { $0.maxHeight = $1.maxHeight },
    { $0.flex = $1.flex }, { $0.flexGrow = $1.flexGrow }, { $0.flexShrink = $1.flexShrink },
    { $0.flexBasis = $1.flexBasis }, { $0.aspectRatio = $1.aspectRatio },
    { $0.columnGap = $1.columnGap }, { $0.rowGap = $1.rowGap }, { $0.gap = $1.gap },
    { $0.margin = $1.margin }, { $0.position = $1.position }, { $0.padding = $1.padding },
    { $0.border = $1.border }, { $0.percentMarginsAgainstContainerSize = $1.percentMarginsAgainstContainerSize },
] }

/// Whether the first layout pass of `plan` still fails the harness's frame checks.
func stillFails(_ plan: TreePlan) -> Bool {
    guard var built = plan.build() else { return false }
    built.tree.computeLayout(root: built.root, available: built.available, direction: built.direction)
    return (0..<built.tree.nodeCount).contains { i in
        let f = built.tree.frame(of: NodeID(i))
        return !(f.left.isFinite && f.top.isFinite && f.width.isFinite && f.height.isFinite) || f.width < 0 || f.height < 0
    }
}

/// The smallest plan the greedy steps reach from `built` (which must fail).
func reduce(_ built: Built) -> TreePlan {
    var plan = TreePlan(built)
    let defaults = Style(webDefaults: plan.config.useWebDefaults)
    var changed = true
    while changed {
        changed = false
        func attempt(_ candidate: TreePlan?) {
            if let candidate, stillFails(candidate) { plan = candidate; changed = true }
        }
        var k = plan.styles.count - 1
        while k > 0 { attempt(plan.removing(k)); k = min(k, plan.styles.count) - 1 }
        for i in plan.styles.indices {
            if plan.styles[i] != defaults { var whole = plan; whole.styles[i] = defaults; attempt(whole) }
            for reset in styleResets() {
                var candidate = plan
                reset(&candidate.styles[i], defaults)
                if candidate.styles[i] != plan.styles[i] { attempt(candidate) }
            }
            if i > 0, plan.contents[i] != .none, plan.styles.indices.allSatisfy({ plan.parents[$0] != i }) {
                var candidate = plan; candidate.contents[i] = .none; attempt(candidate)
            }
        }
        if plan.available.width != nil { var c = plan; c.available.width = nil; attempt(c) }
        if plan.available.height != nil { var c = plan; c.available.height = nil; attempt(c) }
    }
    return plan
}
