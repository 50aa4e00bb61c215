// libFuzzer harness for the non-flexbox layout models on the wire: FixFlex stacks, FlexibleLayout
// spacer groups and plain Auto Layout constraints (the simplex solver behind all three),
// StackView stacks and Core Layout nodes, nested in one another and in flexbox nodes.
//
// Input: byte 0 picks the mode: generated (the rest drives a generator of request documents
// made of these kinds, so most inputs decode and reach the solver and the layout pass) or raw
// (the rest is the request body, for the mutator's sake). Checks, besides "no trap and no
// sanitizer report":
// - a refused document gets a well-formed error (code, message, pointer, offset);
// - a decoded request lays out to finite frames (the generator keeps every number within ±10⁴,
//   so an infinity or NaN can only come from a model; sizes may be negative where required
//   constraints demand it, as in Auto Layout);
// - laying out again gives the same frames (the measure caches and the constraint
//   containers' solutions are reused the second time);
// - the response is valid JSON.
import FuzzSupport
import LayoutEngine
import LayoutWire
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: the generator

/// Writes a request document from the fuzz bytes.
struct DocumentWriter {
    var r: ByteReader
    var out = ""
    var budget = 24   // nodes left: larger documents mostly slow the solver down
    var counter = 0

    init(_ bytes: [UInt8]) { r = ByteReader(bytes) }

    mutating func number(negative: Bool = false) -> String {
        let values = ["0", "1", "2.5", "8", "10", "15", "20", "33.3", "44", "50", "100", "120.5", "200", "320", "1000", "0.5"]
        var text = values[r.below(values.count)]
        if r.below(16) == 0 { text = String(Int(r.uint16()) % 10_000) }
        if negative && r.below(6) == 0 { text = "-" + text }
        return text
    }

    mutating func pick(_ options: [String]) -> String { options[r.below(options.count)] }

    mutating func priority() -> String {
        pick(["1000", "750", "250", "1", "999", "500", "\"required\"", "\"high\"", "\"low\"", "0.5"])
    }

    mutating func newID(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)\(counter)"
    }

    /// `{"width": n, "height": n}` with members left out now and then.
    mutating func size(_ key1: String = "width", _ key2: String = "height", allowNull: Bool = false) -> String {
        var members: [String] = []
        if r.below(5) != 0 { members.append("\"\(key1)\":\(allowNull && r.below(6) == 0 ? "null" : number())") }
        if r.below(5) != 0 { members.append("\"\(key2)\":\(allowNull && r.below(6) == 0 ? "null" : number())") }
        return "{" + members.joined(separator: ",") + "}"
    }

    mutating func node(depth: Int) -> String {
        budget -= 1
        let kind = depth > 3 || budget <= 0 ? 5 : r.below(7)
        switch kind {
        case 0, 1, 2: return constraintNode(kind: ["constraints", "fixflex", "flexible-spaces"][kind], depth: depth)
        case 3: return stackNode(depth: depth)
        case 4: return coreLayoutNode(depth: depth)
        case 5: return leaf()
        default: return flexNode(depth: depth)
        }
    }

    mutating func leaf() -> String {
        switch r.below(3) {
        case 0: return "{\"style\":\(size())}"
        case 1: return "{\"type\":\"stack-item\",\"sizeThatFits\":\(size())}"
        default: return "{\"type\":\"core-layout\",\"size\":{\"mode\":\"absolute\",\"width\":\(number()),\"height\":\(number())}}"
        }
    }

    mutating func flexNode(depth: Int) -> String {
        let direction = pick(["row", "column", "row-reverse"])
        let children = (0..<r.below(4)).map { _ in node(depth: depth + 1) }
        return "{\"style\":{\"flexDirection\":\"\(direction)\",\"padding\":\(number())},\"children\":[\(children.joined(separator: ","))]}"
    }

    // MARK: constraint kinds

    mutating func constraintNode(kind: String, depth: Int) -> String {
        var members = ["\"type\":\"\(kind)\""]
        if r.below(3) != 0 { members.append("\"style\":\(size())") }
        if r.below(6) == 0 { members.append("\"layoutMargins\":\(number())") }
        let itemCount = r.below(5)
        let ids = (0..<itemCount).map { "i\($0)" }
        var items: [String] = []
        for id in ids {
            var item = ["\"id\":\"\(id)\""]
            if r.below(3) != 0 { item.append("\"intrinsicSize\":\(size(allowNull: true))") }
            if r.below(4) == 0 { item.append("\"hugging\":\(priority())") }
            if r.below(4) == 0 { item.append("\"compressionResistance\":{\"horizontal\":\(priority()),\"vertical\":\(priority())}") }
            if r.below(8) == 0 { item.append("\"layoutMargins\":{\"top\":\(number()),\"leading\":\(number())}") }
            if r.below(5) == 0 { item.append("\"node\":\(node(depth: depth + 1))") }
            items.append("{" + item.joined(separator: ",") + "}")
        }
        members.append("\"items\":[\(items.joined(separator: ","))]")
        let anchors = ids + ["container"]
        let constraintCount = kind == "constraints" ? r.below(8) : r.below(3)
        var constraints: [String] = []
        for _ in 0..<constraintCount { constraints.append(constraint(anchors)) }
        members.append("\"constraints\":[\(constraints.joined(separator: ","))]")
        if kind == "fixflex" { members.append("\"stacks\":[\((0..<r.below(4)).map { _ in fixFlexStack(ids, anchors) }.joined(separator: ","))]") }
        if kind == "flexible-spaces" { members.append("\"groups\":[\((0..<r.below(3)).map { _ in spaceGroup(anchors) }.joined(separator: ","))]") }
        return "{" + members.joined(separator: ",") + "}"
    }

    mutating func anchorKind(axis: Int? = nil) -> String {
        let horizontal = ["left", "right", "leading", "trailing", "width", "centerX", "leadingMargin", "trailingMargin"]
        let vertical = ["top", "bottom", "height", "centerY", "topMargin", "bottomMargin"]
        switch axis ?? r.below(2) {
        case 0: return pick(horizontal)
        default: return pick(vertical)
        }
    }

    mutating func constraint(_ anchors: [String]) -> String {
        let axis = r.below(2)
        let first = "\(pick(anchors)).\(anchorKind(axis: axis))"
        let relation = pick(["==", "<=", ">=", "="])
        var rhs: [String] = []
        if r.below(4) != 0 {
            let second = "\(pick(anchors)).\(anchorKind(axis: r.below(8) == 0 ? 1 - axis : axis))"
            rhs.append(r.below(3) == 0 ? "\(pick(["0.5", "2", "1", "-1", "0"])) * \(second)" : second)
        }
        if rhs.isEmpty || r.below(2) == 0 { rhs.append(number()) }
        var text = "\(first) \(relation) \(rhs.joined(separator: pick([" + ", " - "])))"
        if r.below(3) == 0 { text += " @\(pick(["750", "250", "required", "high", "low", "1", "999"]))" }
        if r.below(4) == 0 {
            // The object form.
            let parts = ["\"first\":\"\(first)\"", "\"relation\":\"\(relation == "=" ? "==" : relation)\"",
                         "\"second\":\"\(pick(anchors)).\(anchorKind(axis: axis))\"", "\"multiplier\":\(pick(["1", "0.5", "2", "0"]))",
                         "\"constant\":\(number(negative: true))", "\"priority\":\(priority())"]
            var kept: [String] = []
            for part in parts where part.hasPrefix("\"first\"") || r.below(5) != 0 { kept.append(part) }
            return "{" + kept.joined(separator: ",") + "}"
        }
        return "\"\(text)\""
    }

    mutating func fixFlexStack(_ ids: [String], _ anchors: [String]) -> String {
        let axis = r.below(2)
        var members = ["\"axis\":\"\(pick(axis == 0 ? ["h", "horizontal"] : ["v", "vertical"]))\""]
        if r.below(5) == 0 { members.append("\"startAnchor\":\"\(pick(anchors)).\(anchorKind(axis: axis))\"") }
        if r.below(5) == 0 { members.append("\"startOffset\":\(number(negative: true))") }
        if r.below(5) == 0 { members.append("\"endAnchor\":\"\(pick(anchors)).\(anchorKind(axis: axis))\"") }
        if r.below(5) == 0 { members.append("\"endOffset\":\(number(negative: true))") }
        if r.below(5) == 0 { members.append("\"positioning\":\"\(pick(["natural", "absolute"]))\"") }
        var intents: [String] = []
        for _ in 0..<(1 + r.below(6)) {
            var views = ""
            if !ids.isEmpty && r.below(3) != 0 {
                views = r.below(2) == 0 ? ",\"view\":\"\(pick(ids))\"" : ",\"views\":[\"\(pick(ids))\",\"\(pick(ids))\"]"
            }
            switch r.below(6) {
            case 0: intents.append(number())
            case 1: intents.append("{\"kind\":\"fix\",\"value\":\(number())\(views)}")
            case 2:
                var flex = "{\"kind\":\"flex\"\(views)"
                if r.below(3) == 0 { flex += ",\"min\":\(number())" }
                if r.below(3) == 0 { flex += ",\"max\":\(number())" }
                if r.below(4) == 0 { flex += ",\"huggingPriority\":\(priority()),\"compressionResistancePriority\":\(priority())" }
                intents.append(flex + "}")
            case 3: intents.append("{\"kind\":\"fill\"\(views)\(r.below(2) == 0 ? ",\"weight\":\(pick(["1", "2", "0.5", "3"]))" : "")}")
            default:
                let dimension = anchors.isEmpty ? "container.width" : "\(pick(anchors)).\(pick(["width", "height"]))"
                intents.append("{\"kind\":\"match\"\(views),\"dimension\":\"\(dimension)\",\"multiplier\":\(pick(["1", "0.5", "2"])),\"offset\":\(number(negative: true))}")
            }
        }
        members.append("\"intents\":[\(intents.joined(separator: ","))]")
        return "{" + members.joined(separator: ",") + "}"
    }

    mutating func spaceGroup(_ anchors: [String]) -> String {
        let axis = r.below(2)
        var spaces: [String] = []
        for _ in 0..<(1 + r.below(4)) {
            let from = "\(pick(anchors)).\(anchorKind(axis: axis))", to = "\(pick(anchors)).\(anchorKind(axis: axis))"
            if r.below(4) == 0 {
                spaces.append("{\"from\":\"\(from)\",\"to\":\"\(to)\",\"reversedWith\":\(pick(["1", "2", "0.5"]))}")
            } else {
                spaces.append("{\"from\":\"\(from)\",\"to\":\"\(to)\",\"coefficient\":\(pick(["1", "2", "0.5", "3", "0"]))}")
            }
        }
        var group = "{\"axis\":\"\(axis == 0 ? "h" : "v")\",\"spaces\":[\(spaces.joined(separator: ","))]"
        if r.below(3) == 0 { group += ",\"minimalSize\":{\"coefficient\":\(pick(["1", "2"])),\"value\":\(number())}" }
        return group + "}"
    }

    // MARK: StackView and Core Layout

    mutating func stackItemMembers() -> [String] {
        var members: [String] = []
        if r.below(3) == 0 { members.append("\"grow\":\(pick(["0", "1", "2", "0.5"]))") }
        if r.below(3) == 0 { members.append("\"shrink\":\(pick(["0", "1", "2"]))") }
        if r.below(4) == 0 { members.append("\"alignSelf\":\"\(pick(StackViewLayout.AlignSelf.allCases.map(\.cssName)))\"") }
        for key in ["width", "height", "minWidth", "maxWidth", "minHeight", "maxHeight"] where r.below(6) == 0 {
            members.append("\"\(key)\":\(r.below(3) == 0 ? "\"\(pick(["50", "100", "33.3", "0"]))%\"" : number())")
        }
        if r.below(4) == 0 {
            members.append(r.below(2) == 0 ? "\"margin\":\(number(negative: true))"
                : "\"margin\":{\"\(pick(["top", "left", "bottom", "right", "start", "end", "horizontal", "vertical", "all"]))\":\(number(negative: true))}")
        }
        if r.below(6) == 0 { members.append("\"aspectRatio\":\(pick(["1", "0.5", "2", "1.5"]))") }
        if r.below(8) == 0 { members.append("\"isHidden\":true") }
        if r.below(8) == 0 { members.append("\"isIncludedInLayout\":false") }
        return members
    }

    mutating func stackNode(depth: Int) -> String {
        var members = ["\"type\":\"stack\""]
        if r.below(2) == 0 { members.append("\"direction\":\"\(pick(StackViewLayout.Direction.allCases.map(\.cssName)))\"") }
        if r.below(2) == 0 { members.append("\"justifyContent\":\"\(pick(StackViewLayout.JustifyContent.allCases.map(\.cssName)))\"") }
        if r.below(2) == 0 { members.append("\"alignItems\":\"\(pick(StackViewLayout.AlignItems.allCases.map(\.cssName)))\"") }
        if r.below(3) == 0 { members.append("\"padding\":\(number())") }
        members += stackItemMembers()
        var children: [String] = []
        for _ in 0..<r.below(5) {
            if r.below(3) == 0 {
                children.append(node(depth: depth + 1))
            } else {
                budget -= 1
                let item = ["\"type\":\"stack-item\"", "\"sizeThatFits\":\(size())"] + stackItemMembers()
                children.append("{" + item.joined(separator: ",") + "}")
            }
        }
        members.append("\"children\":[\(children.joined(separator: ","))]")
        return "{" + members.joined(separator: ",") + "}"
    }

    mutating func coreEdges() -> String {
        if r.below(2) == 0 { return number() }
        let key = pick(["top", "leading", "bottom", "trailing", "all", "topAndBottom", "sides"])
        return "{\"\(key)\":\(number())}"
    }

    mutating func coreLayoutNode(depth: Int) -> String {
        var members = ["\"type\":\"core-layout\""]
        if r.below(3) != 0 {
            var container: [String] = []
            if r.below(2) == 0 { container.append("\"primaryAxis\":\"\(pick(CoreLayout.Axis.allCases.map(\.cssName)))\"") }
            if r.below(2) == 0 { container.append("\"primaryAxisDistribution\":\"\(pick(CoreLayout.PrimaryAxisDistribution.allCases.map(\.cssName)))\"") }
            if r.below(2) == 0 { container.append("\"secondaryAxisDistribution\":\"\(pick(CoreLayout.SecondaryAxisDistribution.allCases.map(\.cssName)))\"") }
            if r.below(3) == 0 {
                container.append("\"secondaryAxisDistributionWhenWrapping\":\"\(pick(CoreLayout.SecondaryAxisDistributionWhenWrapping.allCases.map(\.cssName)))\"")
            }
            if r.below(3) == 0 { container.append("\"shouldWrap\":true") }
            if r.below(4) == 0 { container.append("\"overflow\":\"\(pick(["visible", "hidden", "scroll"]))\"") }
            members.append("\"container\":{\(container.joined(separator: ","))}")
        }
        if r.below(3) != 0 {
            var size: [String] = []
            switch r.below(4) {
            case 0: size.append("\"mode\":\"flexibleShrinksButDoesntGrow\"")
            case 1:
                size.append("\"mode\":\"flexible\"")
                if r.below(2) == 0 { size.append("\"units\":\(pick(["1", "2", "0", "0.5"]))") }
            case 2: size.append("\"mode\":\"absolute\",\"width\":\(number()),\"height\":\(number())")
            default:
                size.append("\"mode\":\"relative\"")
                if r.below(2) == 0 { size.append("\"width\":{\"multiplier\":\(pick(["1", "0.5", "2"])),\"constant\":\(number(negative: true))}") }
                if r.below(2) == 0 { size.append("\"height\":{\"multiplier\":\(pick(["1", "0.5"]))}") }
            }
            for key in ["minWidth", "maxWidth", "minHeight", "maxHeight"] where r.below(6) == 0 { size.append("\"\(key)\":\(number())") }
            members.append("\"size\":{\(size.joined(separator: ","))}")
        }
        if r.below(3) == 0 { members.append("\"margin\":\(coreEdges())") }
        if r.below(3) == 0 { members.append("\"padding\":\(coreEdges())") }
        if r.below(5) == 0 { members.append("\"border\":\(coreEdges())") }
        if r.below(6) == 0 { members.append("\"overriddenPosition\":{\"type\":\"\(pick(["relative", "absolute"]))\",\"top\":\(number()),\"leading\":\(number())}") }
        if r.below(6) == 0 { members.append("\"overriddenSecondaryAxisDistribution\":\"\(pick(CoreLayout.SecondaryAxisDistribution.allCases.map(\.cssName)))\"") }
        if r.below(8) == 0 { members.append("\"isIncludedInLayout\":false") }
        let children = (0..<r.below(5)).map { _ in r.below(2) == 0 ? coreLayoutNode(depth: depth + 1) : node(depth: depth + 1) }
        if depth < 4 { members.append("\"children\":[\(children.joined(separator: ","))]") }
        return "{" + members.joined(separator: ",") + "}"
    }

    mutating func request() -> [UInt8] {
        var members: [String] = []
        members.append("\"available\":\(size(allowNull: true))")
        if r.below(3) == 0 { members.append("\"direction\":\"\(pick(["ltr", "rtl"]))\"") }
        members.append("\"root\":\(node(depth: 0))")
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }
}

// MARK: the checks

let unlimited = WireLimits(maxNodes: .max, maxDepth: 1 << 20, maxStringBytes: .max, maxDocumentBytes: .max)

func frames(_ request: LayoutRequest) -> [Frame] {
    (0..<request.tree.nodeCount).map { request.tree.frame(of: NodeID($0)) }
}

func same(_ a: [Frame], _ b: [Frame]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { x, y in
        x.left.bitPattern == y.left.bitPattern && x.top.bitPattern == y.top.bitPattern
            && x.width.bitPattern == y.width.bitPattern && x.height.bitPattern == y.height.bitPattern
    }
}

/// FUZZ_DUMP=1 prints the document (to turn a crash into a test).
let dumping = getenv("FUZZ_DUMP") != nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 1 else { return 0 }
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let body: [UInt8]
    if data[0] & 1 == 0 {
        var writer = DocumentWriter(rest)
        body = writer.request()
    } else {
        body = rest
    }
    if dumping { report(String(decoding: body, as: UTF8.self)) }

    var request: LayoutRequest
    do {
        request = try LayoutWire.decodeRequest(bytes: body, limits: .default)
    } catch {
        precondition(!error.code.isEmpty && !error.message.isEmpty, "error without code or message")
        if let pointer = error.pointer {
            // Bytes: "/" and a combining mark are one Character (see FuzzWireDecoder).
            precondition(pointer.isEmpty || pointer.utf8.first == UInt8(ascii: "/"), "malformed pointer \(pointer)")
        }
        if let offset = error.offset { precondition(offset >= 0 && offset <= body.count, "offset \(offset) outside the document") }
        return 0
    }
    request.computeLayout()
    let first = frames(request)
    for (i, f) in first.enumerated() {
        if !(f.left.isFinite && f.top.isFinite && f.width.isFinite && f.height.isFinite) {
            report(String(decoding: body, as: UTF8.self))
            preconditionFailure("node \(i) has the frame \(f)")
        }
    }
    request.computeLayout()
    precondition(same(first, frames(request)), "a second layout pass changed the frames")

    let response = LayoutWire.encodeResponse(request)
    precondition((try? JSONValue.parse(bytes: response, limits: unlimited)) != nil, "the response is not JSON")
    return 0
}

runFuzzer { data, size in fuzzOne(data, size) }
