import LayoutTestSupport
import LayoutWire
import Testing
import TestSupport

/// Random flexbox requests and random patches on them, and reading frames out of answers, for
/// the patch tests.
enum PatchFixture {
    /// `tag` as a JSON string.
    static func quoted(_ tag: String) -> String {
        String(decoding: JSONTree.string(tag).jsonBytes(), as: UTF8.self)
    }

    static func pick<T>(_ choices: [T], _ random: inout SplitMix64) -> T {
        choices[Int(random.next() % UInt64(choices.count))]
    }

    static func number(_ range: ClosedRange<Int>, _ random: inout SplitMix64) -> JSONTree {
        .number(Double(range.lowerBound + Int(random.next() % UInt64(range.count))))
    }

    /// What random styles may set.
    enum Styles {
        /// Sizes, flex factors, padding, margin, direction, alignment, wrap, minWidth, maxHeight.
        case plain
        /// Those and fractional flex bases (pixel rounding then moves edges).
        case flexBases
        /// Those and percentages, min and max sizes of both kinds, aspect ratios, align-content,
        /// baselines, absolute positions, `display: none`: the styles with which Yoga's own
        /// relayout gives other frames than a whole layout (see `LayoutTree.relayoutsExactly`).
        case rich
        /// The plain ones, text style keys and `direction`, with text leaves among the leaves.
        case text
    }

    /// A random style property and value of `styles`.
    static func styleMember(_ random: inout SplitMix64, styles: Styles = .plain) -> JSONMember {
        let kinds: UInt64 = styles == .plain ? 12 : styles == .flexBases ? 13 : styles == .text ? 14 : 24
        switch random.next() % kinds {
        case 12 where styles == .text:
            return pick([JSONMember(key: "fontSize", value: number(10...24, &random)),
                         JSONMember(key: "fontWeight", value: .string(pick(["bold", "normal"], &random))),
                         JSONMember(key: "lineHeight", value: number(14...30, &random))], &random)
        case 13 where styles == .text: return JSONMember(key: "direction", value: .string(pick(["ltr", "rtl"], &random)))
        case 12: return JSONMember(key: "flexBasis", value: .number(Double(random.next() % 9000) / 100))
        case 13: return JSONMember(key: pick(["width", "height", "minHeight", "maxWidth"], &random),
                                   value: .string("\(random.next() % 101)%"))
        case 14: return JSONMember(key: pick(["padding", "marginLeft", "paddingTop"], &random), value: .string("\(random.next() % 15)%"))
        case 15: return JSONMember(key: pick(["minHeight", "maxWidth", "minWidth", "maxHeight"], &random), value: number(0...200, &random))
        case 16: return JSONMember(key: "aspectRatio", value: .number(pick([0.5, 1, 1.5, 2], &random)))
        case 17: return JSONMember(key: "alignContent", value: .string(pick(["flex-start", "center", "stretch", "space-between", "space-around"], &random)))
        case 18: return JSONMember(key: pick(["alignItems", "alignSelf"], &random), value: .string("baseline"))
        case 19: return JSONMember(key: "position", value: .string(pick(["absolute", "relative", "static"], &random)))
        case 20: return JSONMember(key: pick(["left", "top", "right", "bottom"], &random), value: number(0...40, &random))
        case 21: return JSONMember(key: "display", value: .string(pick(["none", "flex"], &random)))
        case 22: return JSONMember(key: "flexWrap", value: .string(pick(["wrap", "wrap-reverse"], &random)))
        case 23: return JSONMember(key: "alignSelf", value: .string(pick(["flex-start", "center", "flex-end", "stretch"], &random)))
        case 0: return JSONMember(key: "width", value: number(10...220, &random))
        case 1: return JSONMember(key: "height", value: number(10...160, &random))
        case 2: return JSONMember(key: "flexGrow", value: number(0...2, &random))
        case 3: return JSONMember(key: "flexShrink", value: number(0...2, &random))
        case 4: return JSONMember(key: "padding", value: number(0...12, &random))
        case 5: return JSONMember(key: "margin", value: number(0...8, &random))
        case 6: return JSONMember(key: "flexDirection", value: .string(pick(["row", "column", "row-reverse", "column-reverse"], &random)))
        case 7: return JSONMember(key: "alignItems", value: .string(pick(["flex-start", "center", "flex-end", "stretch"], &random)))
        case 8: return JSONMember(key: "justifyContent", value: .string(pick(["flex-start", "center", "space-between", "flex-end"], &random)))
        case 9: return JSONMember(key: "flexWrap", value: .string(pick(["wrap", "nowrap"], &random)))
        case 10: return JSONMember(key: "minWidth", value: number(0...60, &random))
        default: return JSONMember(key: "maxHeight", value: number(40...300, &random))
        }
    }

    static func style(_ random: inout SplitMix64, styles: Styles = .plain) -> JSONTree {
        var members: [JSONMember] = []
        for _ in 0..<Int(random.next() % 4) {
            let member = styleMember(&random, styles: styles)
            if !members.contains(where: { $0.key == member.key }) { members.append(member) }
        }
        return .object(members)
    }

    static func leaf(_ random: inout SplitMix64, id: Int, styles: Styles = .plain) -> JSONTree {
        var members = [JSONMember(key: "id", value: .string("n\(id)")), JSONMember(key: "style", value: style(&random, styles: styles))]
        if styles == .text && random.next() % 2 == 0 {
            members.append(JSONMember(key: "text", value: .string(phrase(&random))))
        } else if random.next() % 2 == 0 {
            members.append(JSONMember(key: "measure", value: .object([
                JSONMember(key: "kind", value: .string("fixed")),
                JSONMember(key: "width", value: number(5...120, &random)),
                JSONMember(key: "height", value: number(5...40, &random)),
            ])))
        }
        return .object(members)
    }

    /// A few words for a text leaf.
    static func phrase(_ random: inout SplitMix64) -> String {
        let words = ["layout", "of", "a", "chat", "message", "that", "wraps", "onto", "lines", "extraordinarily"]
        return (0..<(1 + Int(random.next() % 9))).map { _ in pick(words, &random) }.joined(separator: " ")
    }

    /// A request with a random tree of about `nodes` nodes.
    static func randomRequest(_ random: inout SplitMix64, nodes: Int, styles: Styles = .plain) -> JSONTree {
        var next = 0
        func node(depth: Int, budget: Int) -> JSONTree {
            next += 1
            let id = next
            guard budget > 1, depth < 5, random.next() % 5 != 0 else { return leaf(&random, id: id, styles: styles) }
            var children: [JSONTree] = []
            var left = budget - 1
            while left > 0 {
                let share = 1 + Int(random.next() % UInt64(left))
                children.append(node(depth: depth + 1, budget: share))
                left -= share
            }
            return .object([JSONMember(key: "id", value: .string("n\(id)")),
                            JSONMember(key: "style", value: style(&random, styles: styles)),
                            JSONMember(key: "children", value: .array(children))])
        }
        return .object([
            JSONMember(key: "available", value: .object([JSONMember(key: "width", value: number(200...600, &random)),
                                                          JSONMember(key: "height", value: .null)])),
            JSONMember(key: "root", value: node(depth: 0, budget: nodes)),
        ])
    }

    /// Each node's pointer tokens in pre-order, with whether it is a measured or text leaf.
    static func nodes(of request: JSONTree) -> [(path: [String], measured: Bool)] {
        var found: [(path: [String], measured: Bool)] = []
        var pending: [[String]] = [["root"]]
        while let path = pending.popLast() {
            guard let node = request.value(at: path) else { continue }
            found.append((path, node["measure"] != nil || node["text"] != nil))
            if case .array(let children)? = node["children"] {
                for k in children.indices.reversed() { pending.append(path + ["children", "\(k)"]) }
            }
        }
        return found
    }

    static func pointer(_ tokens: [String]) -> String { JSONPointer.make(tokens) }

    /// A random patch of one to three operations that applies to `request`, as JSON.
    static func randomPatch(_ request: JSONTree, _ random: inout SplitMix64, styles: Styles = .plain) -> String {
        var document = request
        var operations: [String] = []
        for _ in 0..<(1 + Int(random.next() % 3)) {
            let nodes = nodes(of: document)
            let target = pick(nodes, &random)
            let inner = nodes.filter { !$0.measured }
            var operation: String
            switch random.next() % 10 {
            case 0, 1, 2:
                let member = styleMember(&random, styles: styles)
                operation = #"{"op":"add","path":"\#(pointer(target.path + ["style", member.key]))","value":\#(String(decoding: member.value.jsonBytes(), as: UTF8.self))}"#
            case 3:
                guard case .object(let members)? = document.value(at: target.path + ["style"]), let member = members.first else {
                    operation = #"{"op":"replace","path":"\#(pointer(target.path + ["style"]))","value":{"padding":3}}"#
                    break
                }
                operation = #"{"op":"remove","path":"\#(pointer(target.path + ["style", member.key]))"}"#
            case 4:
                guard let leaf = nodes.first(where: { $0.measured && random.next() % 2 == 0 }) ?? nodes.first(where: \.measured) else {
                    operation = #"{"op":"replace","path":"/root/id","value":"top"}"#
                    break
                }
                operation = #"{"op":"replace","path":"\#(pointer(leaf.path + ["measure", "width"]))","value":\#(random.next() % 150)}"#
            case 5:
                let parent = pick(inner.isEmpty ? [nodes[0]] : inner, &random)
                let child = String(decoding: leaf(&random, id: 900 + Int(random.next() % 99), styles: styles).jsonBytes(), as: UTF8.self)
                if parent.measured || document.value(at: parent.path + ["children"]) == nil {
                    operation = #"{"op":"replace","path":"/root/style/padding","value":2}"#
                } else {
                    operation = #"{"op":"add","path":"\#(pointer(parent.path + ["children", "-"]))","value":\#(child)}"#
                }
            case 6 where nodes.count > 2:
                operation = #"{"op":"remove","path":"\#(pointer(pick(Array(nodes.dropFirst()), &random).path))"}"#
            case 7 where nodes.count > 2:
                let source = pick(Array(nodes.dropFirst()), &random)
                let destinations = inner.filter { !$0.path.starts(with: source.path) && document.value(at: $0.path + ["children"]) != nil }
                guard let destination = destinations.first else {
                    operation = #"{"op":"test","path":"/root/id","value":"n1"}"#
                    break
                }
                operation = #"{"op":"move","from":"\#(pointer(source.path))","path":"\#(pointer(destination.path + ["children", "0"]))"}"#
            case 8:
                operation = #"{"op":"replace","path":"/available/width","value":\#(150 + random.next() % 400)}"#
            case 9 where styles == .text:
                guard let leaf = nodes.first(where: { document.value(at: $0.path + ["text"]) != nil && random.next() % 2 == 0 }) else {
                    operation = #"{"op":"replace","path":"/root/id","value":"top"}"#
                    break
                }
                let text = String(decoding: JSONTree.string(phrase(&random)).jsonBytes(), as: UTF8.self)
                operation = #"{"op":"replace","path":"\#(pointer(leaf.path + ["text"]))","value":\#(text)}"#
            default:
                operation = #"{"op":"replace","path":"\#(pointer(target.path + ["id"]))","value":"r\#(random.next() % 1000)"}"#
            }
            if operation.contains("\"test\"") && document.value(at: ["root", "id"]) != .string("n1") {
                operation = #"{"op":"replace","path":"/root/id","value":"n1"}"#
            }
            var count = 0
            guard (try? JSONPatch(JSONValue.parse("[\(operation)]"), maxOperations: 1)
                .apply(to: &document, valueCount: &count, maxValues: .max, maxNesting: 1_000)) != nil else { continue }
            operations.append(operation)
        }
        return "[" + operations.joined(separator: ",") + "]"
    }

    /// The request document `request` with `patch` applied, as a client computes it.
    static func patched(_ request: String, _ patch: String) throws -> JSONTree {
        try patched(request, [patch])
    }

    /// `request` with each of `patches` applied in turn.
    static func patched(_ request: String, _ patches: [String]) throws -> JSONTree {
        var document = JSONTree(try JSONValue.parse(request))
        var count = 0
        for patch in patches {
            try JSONPatch(JSONValue.parse(patch), maxOperations: 10).apply(to: &document, valueCount: &count, maxValues: .max, maxNesting: 100)
        }
        return document
    }

    /// Each node's frame in an answer, by pointer.
    static func frames(of answer: [UInt8]) -> [String: [Double]] {
        AnswerFrames.frames(of: answer)
    }

    /// `frames` carried through `patch` by node (`AnswerFrames.carried`).
    static func carried(_ frames: [String: [Double]], by patch: JSONPatch, document: JSONTree) -> [String: [Double]]? {
        AnswerFrames.carried(frames, by: patch, document: document)
    }

    /// `frames` with a `changesOnly` answer applied (`AnswerFrames.applying`).
    static func applying(changes answer: [UInt8], to frames: [String: [Double]]) throws -> [String: [Double]] {
        try #require(AnswerFrames.applying(changes: answer, to: frames), "not a changesOnly answer: \(String(decoding: answer, as: UTF8.self))")
    }
}

extension JSONTree {
    /// The value as JSON text.
    var text: String { String(decoding: jsonBytes(), as: UTF8.self) }
}
