// libFuzzer harness for `/compute/patch` (issue 11's promise): a chain of patches answers what
// the patched document sent whole to `/compute` answers.
//
// Input: a stream of choices (`ByteReader`). The first ones build a flexbox request (up to ~48
// nodes: rows and columns, fixed-size measured leaves, text leaves, the styles with which Yoga's
// own relayout differs from a whole layout, text style keys); the rest are up to eight patches
// of one to three operations, most on nodes and styles that exist (replace, add and remove
// style members; add, remove, move and copy children; ids; texts and measured sizes; `test`;
// `available`), some on made-up paths. Each patch goes through
// `PatchChain` (the service's `PatchComputer`, base store and frame cache, without HTTP), asking
// for the whole answer or `changesOnly`. Checks, besides "no trap and no sanitizer report":
// - a patch that does not apply to the document (applied here with `JSONPatch` alone) is a 4xx;
//   the next patch names the same base again, so a refusal that spoilt the base shows there;
// - otherwise the chain's status, and an error's code and pointer, are those of `LayoutOnce` on
//   the patched document; a whole answer is its body byte for byte, and `changesOnly` answers
//   applied in turn to the frames give its frames (with `changesBy: node`, to the frames carried
//   through the patch node by node, as a client that patches its own tree carries them);
// - after a 200, the patched document sent whole to `/compute` (`PatchChain.compute`) is a
//   frame-cache hit with the patch's ETag and `LayoutOnce`'s body (what a patch caches is what
//   everyone is served), and with that ETag in `If-None-Match` a 304.
// FUZZ_DUMP=1 prints the document and each patch with its answer.
import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif
@_spi(Benchmarks) import LayoutServer
import LayoutTestSupport
import LayoutWire

let dump = getenv("FUZZ_DUMP") != nil

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        report("FuzzPatch: " + message())
        abort()
    }
}

// MARK: Requests

func number(_ reader: inout ByteReader, _ range: ClosedRange<Int>) -> JSONTree {
    .number(Double(range.lowerBound + reader.below(range.count)))
}

func pick<T>(_ reader: inout ByteReader, _ choices: [T]) -> T { choices[reader.below(choices.count)] }

/// A style member: sizes, flex factors, spacing, alignment, wrap, and the rich ones (flex bases,
/// percentages, min/max, aspect ratio, baselines, absolute positions, `display: none`).
func styleMember(_ reader: inout ByteReader) -> JSONMember {
    switch reader.below(25) {
    case 0: return JSONMember(key: "width", value: number(&reader, 0...220))
    case 1: return JSONMember(key: "height", value: number(&reader, 0...160))
    case 2: return JSONMember(key: "flexGrow", value: number(&reader, 0...2))
    case 3: return JSONMember(key: "flexShrink", value: number(&reader, 0...2))
    case 4: return JSONMember(key: pick(&reader, ["padding", "paddingTop", "paddingLeft"]), value: number(&reader, 0...12))
    case 5: return JSONMember(key: pick(&reader, ["margin", "marginLeft", "marginBottom"]), value: number(&reader, 0...8))
    case 6: return JSONMember(key: "flexDirection", value: .string(pick(&reader, ["row", "column", "row-reverse", "column-reverse"])))
    case 7: return JSONMember(key: "alignItems", value: .string(pick(&reader, ["flex-start", "center", "flex-end", "stretch", "baseline"])))
    case 8: return JSONMember(key: "justifyContent", value: .string(pick(&reader, ["flex-start", "center", "space-between", "flex-end", "space-evenly"])))
    case 9: return JSONMember(key: "flexWrap", value: .string(pick(&reader, ["wrap", "nowrap", "wrap-reverse"])))
    case 10: return JSONMember(key: pick(&reader, ["minWidth", "minHeight"]), value: number(&reader, 0...80))
    case 11: return JSONMember(key: pick(&reader, ["maxWidth", "maxHeight"]), value: number(&reader, 20...300))
    case 12: return JSONMember(key: "flexBasis", value: .number(Double(reader.uint16() % 9000) / 100))
    case 13: return JSONMember(key: pick(&reader, ["width", "height", "maxWidth", "minHeight"]), value: .string("\(reader.below(101))%"))
    case 14: return JSONMember(key: "aspectRatio", value: .number(pick(&reader, [0.5, 1, 1.5, 2])))
    case 15: return JSONMember(key: "alignContent", value: .string(pick(&reader, ["flex-start", "center", "stretch", "space-between"])))
    case 16: return JSONMember(key: "alignSelf", value: .string(pick(&reader, ["auto", "flex-start", "center", "stretch", "baseline"])))
    case 17: return JSONMember(key: "position", value: .string(pick(&reader, ["absolute", "relative", "static"])))
    case 18: return JSONMember(key: pick(&reader, ["left", "top", "right", "bottom"]), value: number(&reader, 0...40))
    case 19: return JSONMember(key: "display", value: .string(pick(&reader, ["none", "flex"])))
    case 20: return JSONMember(key: "gap", value: number(&reader, 0...10))
    case 22: return JSONMember(key: pick(&reader, ["fontSize", "lineHeight"]), value: number(&reader, 8...30))
    case 23: return JSONMember(key: "fontWeight", value: .string(pick(&reader, ["bold", "normal"])))
    case 24: return JSONMember(key: "fontFamily", value: .string(pick(&reader, ["DejaVu Sans", "DejaVu Serif", "No Such Family"])))
    default: return JSONMember(key: "direction", value: .string(pick(&reader, ["ltr", "rtl"])))
    }
}

func style(_ reader: inout ByteReader) -> JSONTree {
    var members: [JSONMember] = []
    for _ in 0..<reader.below(4) {
        let member = styleMember(&reader)
        if !members.contains(where: { $0.key == member.key }) { members.append(member) }
    }
    return .object(members)
}

/// Ids are unique across the whole run, so nodes added by patches never clash.
struct Ids {
    var next = 0
    mutating func make() -> JSONTree {
        next += 1
        return .string("n\(next)")
    }
}

/// A node with up to `budget` nodes under it (counted down in `budget`).
func node(_ reader: inout ByteReader, ids: inout Ids, budget: inout Int, depth: Int) -> JSONTree {
    var members = [JSONMember(key: "id", value: ids.make()), JSONMember(key: "style", value: style(&reader))]
    let children = depth < 5 && budget > 0 ? reader.below(6) : 0
    if children == 0 {
        switch reader.below(4) {
        case 0:
            members.append(JSONMember(key: "text", value: .string(phrase(&reader))))
        case 1:
            members.append(JSONMember(key: "measure", value: .object([
                JSONMember(key: "kind", value: .string("fixed")),
                JSONMember(key: "width", value: number(&reader, 0...120)),
                JSONMember(key: "height", value: number(&reader, 0...40)),
            ])))
        default: break
        }
        return .object(members)
    }
    var list: [JSONTree] = []
    for _ in 0..<children where budget > 0 {
        budget -= 1
        list.append(node(&reader, ids: &ids, budget: &budget, depth: depth + 1))
    }
    members.append(JSONMember(key: "children", value: .array(list)))
    return .object(members)
}

/// A few words for a text leaf.
func phrase(_ reader: inout ByteReader) -> String {
    let words = ["layout", "of", "a", "chat", "message", "that", "wraps", "onto", "lines", "extraordinarily", "é", "مرحبا"]
    return (0..<(1 + reader.below(9))).map { _ in pick(&reader, words) }.joined(separator: " ")
}

func available(_ reader: inout ByteReader) -> JSONTree {
    .object([JSONMember(key: "width", value: reader.below(4) == 0 ? .null : number(&reader, 100...500)),
             JSONMember(key: "height", value: reader.below(2) == 0 ? .null : number(&reader, 100...800))])
}

func request(_ reader: inout ByteReader, ids: inout Ids) -> JSONTree {
    var budget = 8 + reader.below(40)
    return .object([JSONMember(key: "available", value: available(&reader)),
                    JSONMember(key: "root", value: node(&reader, ids: &ids, budget: &budget, depth: 0))])
}

// MARK: Patches

/// The paths of the document's nodes, root first.
func nodePaths(_ document: JSONTree) -> [[String]] {
    var paths: [[String]] = []
    var pending: [(JSONTree, [String])] = [(document["root"] ?? .null, ["root"])]
    while let (node, path) = pending.popLast() {
        paths.append(path)
        if case .array(let children)? = node["children"] {
            for (k, child) in children.enumerated() { pending.append((child, path + ["children", "\(k)"])) }
        }
    }
    return paths
}

func resolve(_ path: [String], in document: JSONTree) -> JSONTree? { document.value(at: path) }

func operation(_ kind: String, _ path: [String], from: [String]? = nil, value: JSONTree? = nil) -> JSONTree {
    var members = [JSONMember(key: "op", value: .string(kind)), JSONMember(key: "path", value: .string(JSONPointer.make(path)))]
    if let from { members.append(JSONMember(key: "from", value: .string(JSONPointer.make(from)))) }
    if let value { members.append(JSONMember(key: "value", value: value)) }
    return .object(members)
}

/// One operation, mostly on what `document` holds.
func randomOperation(_ reader: inout ByteReader, document: JSONTree, ids: inout Ids) -> JSONTree {
    let paths = nodePaths(document)
    let path = paths[reader.below(paths.count)]
    let children = resolve(path + ["children"], in: document)
    let childCount: Int = { if case .array(let items)? = children { return items.count } else { return 0 } }()
    switch reader.below(14) {
    case 0, 1, 2:
        let member = styleMember(&reader)
        if resolve(path + ["style"], in: document) == nil {
            return operation("add", path + ["style"], value: .object([member]))
        }
        return operation(reader.below(2) == 0 ? "add" : "replace", path + ["style", member.key], value: member.value)
    case 3:
        guard case .object(let members)? = resolve(path + ["style"], in: document), !members.isEmpty else {
            return operation("remove", path + ["style", "width"])
        }
        return operation("remove", path + ["style", members[reader.below(members.count)].key])
    case 4:
        var budget = reader.below(4)
        let added = node(&reader, ids: &ids, budget: &budget, depth: 3)
        let index = reader.below(childCount + 2)
        return operation("add", path + ["children", index > childCount ? "-" : "\(index)"], value: added)
    case 5 where childCount > 0:
        return operation("remove", path + ["children", "\(reader.below(childCount))"])
    case 6 where childCount > 0:
        let target = paths[reader.below(paths.count)]
        let targetCount: Int = { if case .array(let items)? = resolve(target + ["children"], in: document) { return items.count } else { return 0 } }()
        return operation("move", target + ["children", "\(reader.below(targetCount + 1))"],
                         from: path + ["children", "\(reader.below(childCount))"])
    case 7 where childCount > 0:
        return operation("copy", path + ["children", "-"], from: path + ["children", "\(reader.below(childCount))"])
    case 8:
        return operation("replace", path + ["id"], value: reader.below(4) == 0 ? .string("n1") : ids.make())
    case 9:
        let target = path + ["style"]
        let held = resolve(target, in: document)
        return operation("test", target, value: reader.below(3) == 0 || held == nil ? style(&reader) : held)
    case 10:
        return operation("replace", ["available"], value: available(&reader))
    case 11:
        // A text leaf's text, a measured leaf's size, or (on another node) a text added.
        if resolve(path + ["measure"], in: document) != nil {
            return operation("replace", path + ["measure", pick(&reader, ["width", "height"])], value: number(&reader, 0...150))
        }
        return operation(resolve(path + ["text"], in: document) == nil ? "add" : "replace", path + ["text"], value: .string(phrase(&reader)))
    default:
        // Made up: paths and values the service must refuse cleanly, or apply like any other.
        let tokens = ["root", "children", "style", "0", "1", "-", "width", "measure", "id", "available", "x", "~1", ""]
        let made = (0..<(1 + reader.below(5))).map { _ in pick(&reader, tokens) }
        let values: [JSONTree] = [.null, .bool(true), .number(-1), .number(1e39), .string("auto"), .array([]), .object([])]
        return operation(pick(&reader, ["add", "replace", "remove", "test"]), made, value: pick(&reader, values))
    }
}

// MARK: Answers

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// The code and pointer of an error body.
func error(of body: [UInt8]) -> (code: String?, pointer: String?) {
    let error = (try? JSONValue.parse(bytes: body))?["error"]
    return (error?["code"]?.stringValue, error?["pointer"]?.stringValue)
}

// MARK: The run

runFuzzer { data, size in
    var reader = ByteReader(Array(UnsafeBufferPointer(start: data, count: size)))
    var ids = Ids()
    var document = request(&reader, ids: &ids)
    let first = LayoutOnce.answer(body: document.jsonBytes())
    guard first.status == 200, var chain = PatchChain(body: document.jsonBytes()) else { return 0 }
    if dump { report("document: \(text(document.jsonBytes()))") }
    var current = AnswerFrames.frames(of: first.body)
    for step in 0..<(1 + reader.below(8)) where !reader.isAtEnd {
        let operations = JSONTree.array((0..<(1 + reader.below(3))).map { _ in
            randomOperation(&reader, document: document, ids: &ids)
        })
        let patch = text(operations.jsonBytes())
        let changesOnly = reader.below(2) == 0
        let byNode = changesOnly && reader.below(2) == 0
        var patched = document
        var count = 0
        let parsed = try? JSONPatch(JSONValue.parse(bytes: operations.jsonBytes()), maxOperations: 100)
        let applies = (try? parsed?.apply(to: &patched, valueCount: &count, maxValues: .max, maxNesting: 1_000)) != nil
        let answer = chain.patch(patch, changesOnly: changesOnly, changesByNode: byNode)
        if dump {
            report("patch \(step)\(changesOnly ? byNode ? " (changesOnly by node)" : " (changesOnly)" : ""): \(patch) -> "
                   + "\(answer.status) \(chain.lastMode ?? "-") "
                   + text(answer.body).prefix(300))
        }
        let what = "step \(step): \(patch)"
        guard applies else {
            check((400..<500).contains(answer.status), "\(what): a patch that does not apply answered \(answer.status)")
            continue
        }
        let whole = LayoutOnce.answer(body: patched.jsonBytes())
        check(answer.status == whole.status,
              "\(what): answered \(answer.status) \(text(answer.body).prefix(300)), the whole document \(whole.status) \(text(whole.body).prefix(300))")
        guard answer.status == 200 else {
            check(error(of: answer.body) == error(of: whole.body),
                  "\(what): error \(text(answer.body)) against the whole document's \(text(whole.body))")
            continue
        }
        let served = chain.compute(patched.jsonBytes())
        check(served.status == 200 && served.cached && served.entityTag == chain.entityTag && served.body == whole.body,
              "\(what): the patched document sent whole answered \(served.status) (cached: \(served.cached)), ETag "
              + "\(served.entityTag ?? "none") against the patch's \(chain.entityTag): \(text(served.body).prefix(400))")
        check(chain.compute(patched.jsonBytes(), ifNoneMatch: chain.entityTag).status == 304,
              "\(what): the patch's ETag in If-None-Match was not a 304")
        let expected = AnswerFrames.frames(of: whole.body)
        if changesOnly {
            // By node, the frames go where the patch takes their nodes first. (Carrying them fails
            // only where the patch tests a whole node object, which then holds its frame too.)
            guard let start = byNode ? AnswerFrames.carried(current, by: parsed!, document: document) : current else {
                current = expected
                document = patched
                continue
            }
            guard let updated = AnswerFrames.applying(changes: answer.body, to: start) else {
                check(false, "\(what): changes that do not read: \(text(answer.body).prefix(300))")
                return 0
            }
            check(updated == expected, "\(what): the changes give other frames than the whole document")
            current = updated
        } else {
            check(answer.body == whole.body, "\(what): answered \(text(answer.body).prefix(400)), the whole document \(text(whole.body).prefix(400))")
            current = expected
        }
        document = patched
    }
    return 0
}
