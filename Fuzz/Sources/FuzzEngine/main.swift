// libFuzzer harness for LayoutEngine on random VALID trees: the fuzz bytes drive a generator
// of trees (styles, contents, config, available size) that the engine accepts, so every run
// reaches the layout pass. Checks, besides "no trap and no sanitizer report":
// - every frame is finite, with non-negative width and height (inputs are bounded, so an
//   infinity can only come from the engine);
// - laying out again gives the same frames (cached pass == fresh pass);
// - with FUZZ_RELAYOUT=1: laying out at another size and back gives the same frames (off by
//   default: the engine, like Yoga, keys its caches on the node's own constraints, so a
//   percentage min/max against a changed owner can go stale — see Fuzz/README.md, Findings);
// - a copy of the tree laid out from scratch gives the same frames.
import FuzzSupport
import LayoutEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lengths the generator picks from: zero, small, fractional, large but far from Float limits.
let lengths: [Float] = [0, 1, 2.5, 10, 13.37, 33.3, 50, 100, 120.25, 200, 333.333, 1000, 4096, 10_000]

func length(_ r: inout ByteReader, negative: Bool) -> Float {
    let choice = r.byte()
    var value = choice < 224 ? lengths[Int(choice) % lengths.count] : Float(r.uint16()) / 8
    if negative && r.byte() & 3 == 0 { value = -value }
    return value
}

/// A style value of the forms the property accepts (matches what the wire decoder allows).
func styleValue(_ r: inout ByteReader, percent: Bool = true, auto: Bool = false, intrinsic: Bool = false,
                negative: Bool = false) -> StyleValue {
    switch r.below(8) {
    case 0 where percent: return .percent(min(length(&r, negative: negative), 400))
    case 1 where auto: return .auto
    case 2 where intrinsic: return [StyleValue.maxContent, .fitContent, .stretch][r.below(3)]
    case 3: return .undefined
    default: return .points(length(&r, negative: negative))
    }
}

func pick<T: CaseIterable>(_ r: inout ByteReader, _: T.Type) -> T {
    let all = Array(T.allCases)
    return all[r.below(all.count)]
}

func edges(_ r: inout ByteReader, auto: Bool, negative: Bool, percent: Bool = true) -> Edges {
    var e = Edges()
    let count = r.below(4)
    for _ in 0..<count {
        e[pick(&r, Edge.self)] = styleValue(&r, percent: percent, auto: auto, negative: negative)
    }
    return e
}

func makeStyle(_ r: inout ByteReader, webDefaults: Bool) -> Style {
    var s = Style(webDefaults: webDefaults)
    // One mask byte per group decides which properties are set, so short inputs stay simple.
    let m1 = r.byte(), m2 = r.byte(), m3 = r.byte()
    if m1 & 1 != 0 { s.flexDirection = pick(&r, FlexDirection.self) }
    if m1 & 2 != 0 { s.justifyContent = pick(&r, Justify.self) }
    if m1 & 4 != 0 { s.alignItems = pick(&r, Align.self) }
    if m1 & 8 != 0 { s.alignSelf = pick(&r, Align.self) }
    if m1 & 16 != 0 { s.alignContent = pick(&r, Align.self) }
    if m1 & 32 != 0 { s.flexWrap = pick(&r, Wrap.self) }
    if m1 & 64 != 0 { s.positionType = pick(&r, PositionType.self) }
    if m1 & 128 != 0 { s.display = pick(&r, Display.self) }
    if m2 & 1 != 0 { s.direction = pick(&r, Direction.self) }
    if m2 & 2 != 0 { s.overflow = pick(&r, Overflow.self) }
    if m2 & 4 != 0 { s.boxSizing = pick(&r, BoxSizing.self) }
    if m2 & 8 != 0 { s.flexGrow = Float(r.below(5)) / 2 }
    if m2 & 16 != 0 { s.flexShrink = Float(r.below(5)) / 2 }
    if m2 & 32 != 0 { s.flex = Float(r.below(7)) / 2 - 1 }
    if m2 & 64 != 0 { s.flexBasis = styleValue(&r, auto: true, intrinsic: true) }
    if m2 & 128 != 0 { s.aspectRatio = [0.25, 0.5, 1, 1.5, 2, 16.0 / 9][r.below(6)] }
    if m3 & 1 != 0 { s.width = styleValue(&r, auto: true, intrinsic: true) }
    if m3 & 2 != 0 { s.height = styleValue(&r, auto: true, intrinsic: true) }
    if m3 & 4 != 0 {
        s.minWidth = styleValue(&r, intrinsic: true)
        s.minHeight = styleValue(&r, intrinsic: true)
    }
    if m3 & 8 != 0 {
        s.maxWidth = styleValue(&r, intrinsic: true)
        s.maxHeight = styleValue(&r, intrinsic: true)
    }
    if m3 & 16 != 0 { s.margin = edges(&r, auto: true, negative: true) }
    if m3 & 32 != 0 { s.padding = edges(&r, auto: false, negative: false) }
    if m3 & 64 != 0 { s.border = edges(&r, auto: false, negative: false, percent: false) }
    if m3 & 128 != 0 { s.position = edges(&r, auto: true, negative: true) }
    if r.byte() & 7 == 0 {
        s.gap = styleValue(&r)
        s.rowGap = styleValue(&r)
        s.columnGap = styleValue(&r)
    }
    return s
}

func makeContent(_ r: inout ByteReader) -> NodeContent {
    switch r.below(7) {
    case 0: return .fixed(Size(width: length(&r, negative: false), height: length(&r, negative: false)))
    case 1:
        let words = ["a", "bb", "ccc", "dddd", "e", "ffffff"]
        let text = (0..<(1 + r.below(6))).map { _ in words[r.below(words.count)] }.joined(separator: " ")
        return .intrinsicText(text)
    case 2: return .benchmarkLeaf(Size(width: length(&r, negative: false), height: length(&r, negative: false)))
    case 3: return .custom(tag: r.below(customWords.count), flexSizing: r.byte() & 3 == 0 ? .yoga : .css)
    default: return .none
    }
}

/// The words of `.custom` leaves (as text, sized `FlexItemSizing.css` mostly), by tag: their
/// widths, broken greedily into 10 px lines by `measureWords`.
let customWords: [[Float]] = [[40, 30, 50], [60, 60], [84, 65.5], [13.37, 7, 7, 120.25], [154, 19], [0.5], []]

func measureWords(_ words: [Float], _ width: Float, _ mode: MeasureMode, _ height: Float,
                  _ heightMode: MeasureMode) -> Size {
    let limit = mode == .undefined ? Float.infinity : width
    var lines: Float = 0, line: Float = 0, widest: Float = 0
    for word in words {
        if line > 0 && line + word > limit {
            lines += 1
            widest = max(widest, line)
            line = 0
        }
        line += word
    }
    if !words.isEmpty { lines += 1 }
    widest = max(widest, line)
    let h = lines * 10
    return Size(width: mode == .exactly ? width : widest,
                height: heightMode == .exactly ? height : heightMode == .atMost ? min(h, height) : h)
}

/// Measures the tree's `.custom` leaves by `measureWords` (their tags read once, by node).
func installMeasure(_ tree: inout LayoutTree) {
    let tags: [Int] = (0..<tree.nodeCount).map {
        if case .custom(let tag, _) = tree.content(of: NodeID($0)) { return tag }
        return -1
    }
    tree.measureFunction = { node, width, widthMode, height, heightMode in
        let tag = tags[Int(node.index)]
        return measureWords(tag >= 0 ? customWords[tag] : [], width, widthMode, height, heightMode)
    }
}

struct Built {
    var tree: LayoutTree
    var root: NodeID
    var available: AvailableSize
    var direction: Direction
}

func build(_ bytes: [UInt8]) -> Built? {
    var r = ByteReader(bytes)
    var config = LayoutConfig()
    config.pointScaleFactor = [1, 0, 2, 3, 0.5, 1.5, 1, 1][r.below(8)]
    config.useWebDefaults = r.byte() & 7 == 0
    let errata = Errata.named.map(\.errata)
    config.errata = errata[r.below(errata.count)]
    if r.byte() & 3 == 0 { config.experimentalFeatures = ExperimentalFeatures(rawValue: UInt32(r.below(4))) }
    var tree = LayoutTree(config: config)
    let nodeCount = 1 + r.below(40)
    var measured: [Bool] = []
    var nodes: [NodeID] = []
    for i in 0..<nodeCount {
        let style = makeStyle(&r, webDefaults: config.useWebDefaults)
        let content = i == 0 ? NodeContent.none : makeContent(&r)
        guard let id = try? tree.addNode(style: style, content: content) else {
            // The generator only makes valid styles; a refusal is itself worth a look.
            preconditionFailure("the engine refused a generated style: \(style)")
        }
        if i > 0 {
            // Attach to an earlier node that is not a measured leaf (the root never is).
            var parent = r.below(i)
            while measured[parent] { parent = (parent + 1) % i }
            tree.appendChild(id, to: nodes[parent])
        }
        nodes.append(id)
        measured.append(content.isMeasured)
    }
    func side() -> Float? {
        let b = r.byte()
        return b & 3 == 0 ? nil : Float(b) * 4
    }
    let available = AvailableSize(width: side(), height: side())
    // The service only passes ltr or rtl as the owner direction; `.inherit` (public API only)
    // once gave NaN frames (Tests/LayoutEngineTests/FuzzRegressionTests.swift). FUZZ_NO_INHERIT=1
    // leaves it out.
    let direction: Direction = allowInherit ? pick(&r, Direction.self) : (r.byte() & 1 == 0 ? .ltr : .rtl)
    installMeasure(&tree)
    return Built(tree: tree, root: nodes[0], available: available, direction: direction)
}

func frames(_ tree: LayoutTree) -> [Frame] {
    (0..<tree.nodeCount).map { tree.frame(of: NodeID($0)) }
}

func same(_ a: [Frame], _ b: [Frame]) -> Bool {
    // Bitwise equality, with NaN == NaN so the finite check reports NaNs, not this one.
    zip(a, b).allSatisfy { x, y in
        x.left.bitPattern == y.left.bitPattern && x.top.bitPattern == y.top.bitPattern
            && x.width.bitPattern == y.width.bitPattern && x.height.bitPattern == y.height.bitPattern
    }
}

/// FUZZ_DUMP=1: print the tree and the frames of each pass (for turning a crash into a test).
let dumping = getenv("FUZZ_DUMP") != nil
let checkRelayout = getenv("FUZZ_RELAYOUT") != nil
let allowInherit = getenv("FUZZ_NO_INHERIT") == nil
let reducing = getenv("FUZZ_REDUCE") != nil

func dump(_ built: Built) {
    let t = built.tree
    report("config: \(t.config)")
    report("available: \(built.available) direction: \(built.direction)")
    let defaults = Style(webDefaults: t.config.useWebDefaults)
    for i in 0..<t.nodeCount {
        let id = NodeID(i)
        report("node \(i) parent \(t.parent(of: id).map { String($0.index) } ?? "-") content \(t.content(of: id))")
        // Only the properties that differ from the defaults.
        let style = t.style(of: id)
        for (label, value) in Mirror(reflecting: style).children {
            let base = Mirror(reflecting: defaults).children.first { $0.label == label }?.value
            if "\(value)" != "\(base ?? "")" { report("    \(label ?? "?"): \(value)") }
        }
    }
}

func dumpFrames(_ label: String, _ f: [Frame]) {
    report(label + ": " + f.enumerated().map { "\($0.offset)=(\($0.element.left),\($0.element.top),\($0.element.width),\($0.element.height))" }.joined(separator: " "))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard var built = build(Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    if reducing, stillFails(TreePlan(built)), let reduced = reduce(built).build() {
        report("reduced from \(built.tree.nodeCount) to \(reduced.tree.nodeCount) nodes")
        built = reduced
    }
    var tree = built.tree
    let pristine = tree
    if dumping { dump(built) }
    tree.computeLayout(root: built.root, available: built.available, direction: built.direction)
    let first = frames(tree)
    if dumping { dumpFrames("frames", first) }
    // A runaway layout (finding 8): percentages that feed back into the size they resolve
    // against multiply it on every measuring pass until Float overflows, in Yoga too (and the
    // service answers 422 layout-overflow). Such a tree is recognised by a finite frame far
    // beyond anything the generator's lengths (|x| <= 10^4) reach without that feedback; its
    // NaNs are not checked, its determinism below still is.
    let runaway = first.contains { f in
        [f.left, f.top, f.width, f.height].contains { $0.isFinite && abs($0) > 1e15 }
    }
    for (i, f) in first.enumerated() where !runaway {
        precondition(f.left.isFinite && f.top.isFinite && f.width.isFinite && f.height.isFinite,
                     "node \(i) has a non-finite frame \(f)")
        precondition(f.width >= 0 && f.height >= 0, "node \(i) has a negative size \(f)")
    }

    tree.computeLayout(root: built.root, available: built.available, direction: built.direction)
    precondition(same(first, frames(tree)), "a second layout pass changed the frames")

    var fresh = pristine
    fresh.computeLayout(root: built.root, available: built.available, direction: built.direction)
    precondition(same(first, frames(fresh)), "a copy laid out from scratch differs")

    guard checkRelayout else { return 0 }
    let other = AvailableSize(width: built.available.width.map { $0 / 2 + 7 } ?? 300,
                              height: built.available.height == nil ? 500 : nil)
    tree.computeLayout(root: built.root, available: other, direction: built.direction)
    if dumping { dumpFrames("first", first); dumpFrames("other \(other)", frames(tree)) }
    tree.computeLayout(root: built.root, available: built.available, direction: built.direction)
    if dumping { dumpFrames("back", frames(tree)) }
    precondition(same(first, frames(tree)), "laying out at another size and back changed the frames")
    return 0
}

runFuzzer { data, size in fuzzOne(data, size) }
