import Testing
@testable import LayoutEngine
import TestSupport

/// `LayoutTree.relayoutsExactly`: relayouts after edits give the frames of laying the edited
/// tree out whole, bit for bit, where Yoga's relayout does not.
@Suite struct ExactRelayoutTests {
    /// A new tree with the nodes, styles and contents of `tree` (built in `nodes`' order, each
    /// parent before its children and children in order, as `RandomTrees.make` adds them).
    static func rebuilt(_ tree: LayoutTree, _ nodes: [NodeID]) throws -> LayoutTree {
        var copy = LayoutTree(config: tree.config)
        for node in nodes {
            let id = try copy.addNode(style: tree.style(of: node), content: tree.content(of: node))
            #expect(id == node)
            if let parent = tree.parent(of: node) { copy.appendChild(id, to: parent) }
        }
        return copy
    }

    /// One random edit of `node`: mostly a size, padding, margin or flex factor, sometimes a
    /// whole random style (in flow with `inFlow`) or new content.
    static func edit(_ tree: inout LayoutTree, _ node: NodeID, _ root: NodeID, baseline: Bool, inFlow: Bool,
                     _ rng: inout SplitMix64) throws {
        var style = tree.style(of: node)
        switch rng.int(0...9) {
        case 0:
            style = RandomTrees.style(&rng, webDefaults: tree.config.useWebDefaults, baseline: baseline)
            if node == root || inFlow { style.display = .flex }
            if inFlow && style.positionType == .absolute { style.positionType = .relative }
        case 1 where tree.childCount(of: node) == 0:
            try tree.setContent(rng.chance(70) ? .fixed(Size(width: rng.float(0...90), height: rng.float(0...40))) : .none,
                                for: node)
            return
        case 2: style.width = rng.chance(70) ? .points(rng.float(10...200)) : .percent(rng.float(10...100))
        case 3: style.height = rng.chance(80) ? .points(rng.float(10...200)) : .auto
        case 4: style.padding[rng.pick(Edge.allCases)] = .points(rng.float(0...12))
        case 5: style.margin[rng.pick([Edge.left, .top, .right, .bottom])] = .points(rng.float(0...12))
        case 6: style.flexBasis = rng.chance(50) ? .points(rng.float(0...90)) : .auto
        default: style.flexGrow = Float(rng.int(0...3))
        }
        try tree.setStyle(style, for: node)
    }

    /// Chains of random edits on random trees (every style feature the generator has: wrap,
    /// percentages, min and max sizes, aspect ratios, baselines, absolute positions, display
    /// none and contents, text leaves): after each edit the exact tree's frames equal those of
    /// a new tree built from the edited one and laid out once. A third of the trees align by
    /// baseline (laid out fresh every time), a third keep every node in flow with sizes mostly
    /// in points (where relayouts stop at boundaries). Most relayouts without baselines are
    /// incremental, some stop at boundaries, and Yoga's own relayout (the same chains without
    /// the option) gives other frames at some steps, so the comparison is not empty.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func relayoutsGiveTheFramesOfAWholeLayout(seed: UInt64) throws {
        try Self.chains(seed: seed, anyAncestorAsBoundary: false)
    }

    /// The same where every edit's nearest ancestor is tried as its boundary, whatever its
    /// style: many then answer otherwise, and the relayout goes on from the root.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func boundariesThatAnswerOtherwiseAreLaidOutFromTheRoot(seed: UInt64) throws {
        try Self.chains(seed: seed, anyAncestorAsBoundary: true)
    }

    static func chains(seed: UInt64, anyAncestorAsBoundary: Bool) throws {
        var incremental = 0, steps = 0, yogaDiffers = 0, stoppedAtBoundaries = 0, answeredOtherwise = 0, framesRead = 0, framesKept = 0, replayed = 0
        for chain in 0..<UInt64(25) {
            let treeSeed = seed * 1000 + chain
            var rng = SplitMix64(seed: treeSeed)
            let config = LayoutConfig(pointScaleFactor: Float(treeSeed % 3), useWebDefaults: treeSeed % 4 == 0)
            let baseline = treeSeed % 3 == 0, inFlow = treeSeed % 3 == 1
            var (yoga, root, nodes) = try RandomTrees.make(seed: treeSeed, size: rng.int(20...160), config: config,
                                                           text: treeSeed % 2 == 0, baseline: baseline)
            if inFlow {
                try IncrementalRelayoutTests.putInFlow(&yoga, nodes)
                for node in nodes.dropFirst() {
                    var style = yoga.style(of: node)
                    if rng.chance(70) { style.width = .points(rng.float(10...200)) }
                    if rng.chance(70) { style.height = .points(rng.float(10...200)) }
                    if rng.chance(50) { style.flexWrap = .noWrap }
                    try yoga.setStyle(style, for: node)
                }
            }
            var exact = yoga
            exact.relayoutsExactly = true
            exact.triesAnyAncestorAsBoundary = anyAncestorAsBoundary
            // Half the chains keep rounded frames (as the service does): their frames are kept
            // between layouts and brought up to date from what each layout rounded anew.
            exact.memoizesPixelRounding = chain % 2 == 0
            let available = AvailableSize(width: rng.float(100...500), height: rng.chance(30) ? rng.float(100...500) : nil)
            yoga.computeLayout(root: root, available: available)
            exact.computeLayout(root: root, available: available)
            #expect(exact.lastLayoutStartedFresh)
            var kept = exact.preorderFrames(root: root)
            for step in 0..<12 {
                for _ in 0..<rng.int(1...2) {
                    let node = rng.pick(nodes)
                    var copy = rng
                    try Self.edit(&yoga, node, root, baseline: baseline, inFlow: inFlow, &copy)
                    try Self.edit(&exact, node, root, baseline: baseline, inFlow: inFlow, &rng)
                }
                yoga.computeLayout(root: root, available: available)
                exact.computeLayout(root: root, available: available)
                var whole = try Self.rebuilt(exact, nodes)
                whole.computeLayout(root: root, available: available)
                // The flags a call asks the whole tree about are counted as styles change.
                #expect(exact.flagCounts.outOfFlow == exact.styleFlags.filter { $0.contains(.outOfFlow) }.count)
                #expect(exact.flagCounts.baseline == exact.styleFlags.filter { $0.contains(.baseline) }.count)
                // The last pass listed every node it answered from its log (what `replayEndedEarly`
                // looks at, instead of every node).
                let replaying = exact.requestLogStates.indices.filter {
                    exact.requestLogStates[$0].generation == exact.generation && exact.requestLogStates[$0].replaying
                }
                #expect(Set(replaying).isSubset(of: Set(exact.records.replayed.map(Int.init))), "tree \(treeSeed) step \(step)")
                replayed += replaying.count
                let before = kept
                let moved = exact.updatePreorderFrames(&kept, root: root)
                let now = exact.preorderFrames(root: root)
                #expect(kept.map(\.bits) == now.map(\.bits), "tree \(treeSeed) step \(step): kept frames out of date")
                #expect(moved.map(\.position) == now.indices.filter { before[$0].bits != now[$0].bits },
                        "tree \(treeSeed) step \(step): moved frames")
                #expect(moved.allSatisfy { exact.frame(of: $0.node).bits == now[$0.position].bits })
                if exact.memoizesPixelRounding && exact.records.roundedAnewIsComplete {
                    framesRead += exact.records.roundedAnew.count
                    framesKept += nodes.count
                }
                if !baseline { steps += 1 }
                if !exact.lastLayoutStartedFresh {
                    #expect(!baseline)
                    incremental += 1
                }
                if exact.boundaryRelayouts > 0 { stoppedAtBoundaries += 1 }
                if exact.boundariesAnsweredOtherwise { answeredOtherwise += 1 }
                if nodes.contains(where: { yoga.frame(of: $0) != whole.frame(of: $0) }) { yogaDiffers += 1 }
                for node in nodes {
                    let a = exact.frame(of: node), b = whole.frame(of: node)
                    #expect([a.left, a.top, a.width, a.height].map(\.bitPattern) == [b.left, b.top, b.width, b.height].map(\.bitPattern),
                            "tree \(treeSeed) step \(step) node \(node.index): \(a) relaid out, \(b) whole")
                }
            }
        }
        print("exact relayout seed \(seed): \(incremental) of \(steps) relayouts without baselines incremental, "
              + "\(stoppedAtBoundaries) stopped at boundaries, \(answeredOtherwise) went on from the root; "
              + "Yoga's relayout differs at \(yogaDiffers) of 300\(anyAncestorAsBoundary ? " (any ancestor tried)" : ""); "
              + "\(framesRead) of \(framesKept) kept frames read again")
        #expect(replayed > 0)
        // Kept frames are read only where rounded anew, most of the time.
        #expect(framesRead * 2 < framesKept, "\(framesRead) frames read of \(framesKept) kept")
        #expect(incremental * 2 > steps, "\(incremental) of \(steps) relayouts without baselines were incremental")
        #expect(stoppedAtBoundaries >= 5)
        if anyAncestorAsBoundary { #expect(answeredOtherwise > 0) }
        #expect(yogaDiffers > 0)
    }
}

extension ExactRelayoutTests {
    /// A column 300 points wide of `count` rows in `row`'s style, each an icon of size `icon`
    /// and what `fill` puts after it in the row; every node in order, and the icons.
    static func iconRows(_ count: Int, row: Style, icon: Size,
                         fill: (inout LayoutTree, NodeID) throws -> [NodeID]) throws
        -> (tree: LayoutTree, root: NodeID, nodes: [NodeID], icons: [NodeID]) {
        var tree = LayoutTree()
        var root = Style()
        root.width = .points(300)
        let rootID = try tree.addNode(style: root)
        var nodes = [rootID], icons: [NodeID] = []
        for _ in 0..<count {
            let rowID = try tree.addNode(style: row)
            tree.appendChild(rowID, to: rootID)
            var iconStyle = Style()
            iconStyle.width = .points(icon.width)
            iconStyle.height = .points(icon.height)
            let iconID = try tree.addNode(style: iconStyle)
            tree.appendChild(iconID, to: rowID)
            nodes += [rowID, iconID] + (try fill(&tree, rowID))
            icons.append(iconID)
        }
        return (tree, rootID, nodes, icons)
    }

    /// A call the logs cannot follow (subtree reuse copies results past them) is laid out
    /// fresh and leaves no logs, so the next call starts fresh too; the one after that replays.
    /// Every call gives the whole layout's frames.
    @Test func aCallWithoutLogsIsFollowedByAFreshOne() throws {
        // A column of rows, each an icon of fixed width and a label that grows.
        var row = Style()
        row.flexDirection = .row
        row.padding[.all] = .points(4)
        let built = try Self.iconRows(6, row: row, icon: Size(width: 20, height: 20)) { tree, rowID in
            var label = Style()
            label.flexGrow = 1
            let labelID = try tree.addNode(style: label, content: .fixed(Size(width: 80, height: 16)))
            tree.appendChild(labelID, to: rowID)
            return [labelID]
        }
        var tree = built.tree
        let (rootID, nodes, icons) = (built.root, built.nodes, built.icons)
        tree.relayoutsExactly = true
        tree.subtreeReuse = SubtreeReuse(key: SubtreeReuseTests.key, minimumNodes: 1)
        let available = AvailableSize(width: 400)
        var started: [Bool] = []
        for step in 0..<4 {
            if step == 1 { tree.subtreeReuse = nil }
            var style = tree.style(of: icons[step])
            style.width = .points(Float(30 + step * 7))
            try tree.setStyle(style, for: icons[step])
            tree.computeLayout(root: rootID, available: available)
            started.append(tree.lastLayoutStartedFresh)
            var whole = try Self.rebuilt(tree, nodes)
            whole.computeLayout(root: rootID, available: available)
            #expect(nodes.allSatisfy { tree.frame(of: $0) == whole.frame(of: $0) }, "step \(step)")
        }
        #expect(started == [true, true, false, false])
    }
}

extension ExactRelayoutTests {
    /// A feed's edit: a row's icon grows, so the row asks the message column beside it (which
    /// grows into the rest) a question its log does not hold. The column and what is inside it
    /// are computed again from where a fresh call has them, the rest of the tree replayed: the
    /// relayouts stay incremental, with the whole layout's frames.
    @Test func aFlexibleSiblingAskedSomethingNewIsComputedAgainInPlace() throws {
        var row = Style()
        row.flexDirection = .row
        row.alignItems = .center
        row.padding[.all] = .points(8)
        let built = try Self.iconRows(8, row: row, icon: Size(width: 36, height: 40)) { tree, rowID in
            var column = Style()
            column.flexGrow = 1
            let columnID = try tree.addNode(style: column)
            tree.appendChild(columnID, to: rowID)
            var title = Style()
            title.width = .percent(60)
            title.height = .points(18)
            let titleID = try tree.addNode(style: title)
            tree.appendChild(titleID, to: columnID)
            let messageID = try tree.addNode(style: Style(), content: .fixed(Size(width: 150, height: 14)))
            tree.appendChild(messageID, to: columnID)
            return [columnID, titleID, messageID]
        }
        var tree = built.tree
        let (rootID, nodes, icons) = (built.root, built.nodes, built.icons)
        tree.relayoutsExactly = true
        let available = AvailableSize(width: 400)
        tree.computeLayout(root: rootID, available: available)
        var started: [Bool] = []
        for step in 0..<6 {
            var style = tree.style(of: icons[step % icons.count])
            style.width = .points(Float(40 + step * 9))
            try tree.setStyle(style, for: icons[step % icons.count])
            tree.computeLayout(root: rootID, available: available)
            started.append(tree.lastLayoutStartedFresh)
            var whole = try Self.rebuilt(tree, nodes)
            whole.computeLayout(root: rootID, available: available)
            for node in nodes {
                let a = tree.frame(of: node), b = whole.frame(of: node)
                #expect([a.left, a.top, a.width, a.height].map(\.bitPattern) == [b.left, b.top, b.width, b.height].map(\.bitPattern),
                        "step \(step) node \(node.index): \(a) relaid out, \(b) whole")
            }
        }
        #expect(started == [false, false, false, false, false, false])
    }
}

extension Frame {
    /// The four floats' bits, for exact comparisons.
    var bits: [UInt32] { [left.bitPattern, top.bitPattern, width.bitPattern, height.bitPattern] }
}
