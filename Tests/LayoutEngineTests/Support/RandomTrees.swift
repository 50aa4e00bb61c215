import LayoutEngine
import TestSupport

/// The draws random trees are made of, from the seeded generator so trees are the same on
/// every run.
extension SplitMix64 {
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }
    /// A number with a fractional part, so rounding has work to do.
    mutating func float(_ range: ClosedRange<Int>) -> Float {
        Float(int(range)) + Float(int(0...3)) * 0.25 + (chance(30) ? 0.33 : 0)
    }
}

/// Random but valid trees: every style passes `Style.validate()`.
enum RandomTrees {
    static func length(_ rng: inout SplitMix64, allowAuto: Bool = true) -> StyleValue {
        switch rng.int(0...9) {
        case 0...3: return .points(rng.float(0...120))
        case 4...5: return .percent(rng.float(0...100))
        case 6 where allowAuto: return .auto
        default: return .undefined
        }
    }

    static func edges(_ rng: inout SplitMix64, negative: Bool, auto: Bool) -> Edges {
        var e = Edges()
        for edge in Edge.allCases where rng.chance(12) {
            switch rng.int(0...3) {
            case 0: e[edge] = .percent(rng.float(0...20) * (negative && rng.chance(30) ? -1 : 1))
            case 1 where auto: e[edge] = .auto
            default: e[edge] = .points(rng.float(0...15) * (negative && rng.chance(30) ? -1 : 1))
            }
        }
        return e
    }

    static func style(_ rng: inout SplitMix64, webDefaults: Bool, baseline: Bool = true) -> Style {
        var s = Style(webDefaults: webDefaults)
        s.flexDirection = rng.pick(FlexDirection.allCases)
        s.justifyContent = rng.pick(Justify.allCases)
        s.alignItems = rng.chance(90) ? rng.pick([.flexStart, .center, .flexEnd, .stretch, .baseline]) : rng.pick(Align.allCases)
        s.alignSelf = rng.chance(30) ? rng.pick(Align.allCases) : .auto
        if !baseline {
            if s.alignItems == .baseline { s.alignItems = .flexStart }
            if s.alignSelf == .baseline { s.alignSelf = .auto }
        }
        s.alignContent = rng.pick(Align.allCases)
        s.flexWrap = rng.chance(30) ? rng.pick(Wrap.allCases) : .noWrap
        s.positionType = rng.chance(15) ? rng.pick(PositionType.allCases) : .relative
        s.display = rng.chance(5) ? .none : (rng.chance(5) ? .contents : .flex)
        s.overflow = rng.chance(10) ? rng.pick(Overflow.allCases) : .visible
        s.boxSizing = rng.chance(15) ? .contentBox : .borderBox
        s.direction = rng.chance(15) ? rng.pick(Direction.allCases) : .inherit
        if rng.chance(30) { s.flexGrow = Float(rng.int(0...3)) }
        if rng.chance(30) { s.flexShrink = Float(rng.int(0...3)) }
        if rng.chance(10) { s.flex = Float(rng.int(-2...3)) }
        if rng.chance(25) { s.flexBasis = length(&rng) }
        if rng.chance(5) { s.width = rng.pick([.maxContent, .fitContent, .stretch]) }
        if rng.chance(60) { s.width = length(&rng) }
        if rng.chance(60) { s.height = length(&rng) }
        if rng.chance(15) { s.minWidth = length(&rng, allowAuto: false) }
        if rng.chance(15) { s.minHeight = length(&rng, allowAuto: false) }
        if rng.chance(15) { s.maxWidth = length(&rng, allowAuto: false) }
        if rng.chance(15) { s.maxHeight = length(&rng, allowAuto: false) }
        if rng.chance(10) { s.aspectRatio = rng.pick([0.5, 1, 1.5, 2]) }
        if rng.chance(15) { s.gap = .points(rng.float(0...10)) }
        if rng.chance(10) { s.rowGap = .percent(rng.float(0...10)) }
        s.margin = edges(&rng, negative: true, auto: true)
        s.padding = edges(&rng, negative: false, auto: false)
        s.border = edges(&rng, negative: false, auto: false)
        if rng.chance(20) { s.position = edges(&rng, negative: true, auto: true) }
        return s
    }

    /// A random tree of about `size` nodes; leaves sometimes carry text.
    static func make(seed: UInt64, size: Int, config: LayoutConfig = LayoutConfig(),
                     text: Bool = true, baseline: Bool = true) throws -> (tree: LayoutTree, root: NodeID, nodes: [NodeID]) {
        var rng = SplitMix64(seed: seed)
        var tree = LayoutTree(config: config)
        var rootStyle = style(&rng, webDefaults: config.useWebDefaults, baseline: baseline)
        rootStyle.display = .flex
        let root = try tree.addNode(style: rootStyle)
        var nodes = [root]
        while nodes.count < size {
            let parent = nodes[rng.int(0...(nodes.count - 1))]
            if case .intrinsicText = tree.content(of: parent) { continue }
            let content: NodeContent = text && rng.chance(20)
                ? .intrinsicText(rng.pick(["hello", "hello world", "a bb ccc dddd", "longwordhere x"])) : .none
            let child = try tree.addNode(style: style(&rng, webDefaults: config.useWebDefaults, baseline: baseline), content: content)
            tree.appendChild(child, to: parent)
            nodes.append(child)
        }
        return (tree, root, nodes)
    }
}
