import Foundation
import LayoutEngine
@_spi(Benchmarks) @testable import LayoutServer
import LayoutWire
import Testing
import TestSupport

// Requests whose repeated siblings are decoded as instances (SubtreeInstances.swift) answer
// exactly as the same requests decoded node by node: body, ETag and status, on random feeds.
@Suite struct SubtreeInstancesServiceTests {
    /// A random cell shape with `{ID}` where each node's id goes (some nodes have none).
    static func shape(_ g: inout SplitMix64, fractional: Bool) -> String {
        func length() -> String {
            switch Int.random(in: 0..<5, using: &g) {
            case 0: return "\(Int.random(in: 8...60, using: &g))"
            case 1: return "\"\(Int.random(in: 10...90, using: &g))%\""
            case 2 where fractional: return String(format: "%.2f", Double.random(in: 5...50, using: &g))
            default: return "\(Int.random(in: 10...40, using: &g))"
            }
        }
        func leaf() -> String {
            let id = Bool.random(using: &g) || !fractional ? "\"id\":\"{ID}\"," : ""
            var style = ["\"width\":\(length())", "\"height\":\(length())"]
            if Int.random(in: 0..<3, using: &g) == 0 { style.append("\"margin\":\(Int.random(in: 0...6, using: &g))") }
            if Int.random(in: 0..<3, using: &g) == 0 { style.append("\"flexGrow\":1") }
            return "{\(id)\"style\":{\(style.joined(separator: ","))}}"
        }
        func column(depth: Int) -> String {
            let count = Int.random(in: 1...3, using: &g)
            let children = (0..<count).map { _ in depth > 0 && Bool.random(using: &g) ? column(depth: depth - 1) : leaf() }
            let direction = Bool.random(using: &g) ? "row" : "column"
            var style = ["\"flexDirection\":\"\(direction)\"", "\"flexGrow\":1", "\"gap\":\(Int.random(in: 0...6, using: &g))"]
            if Bool.random(using: &g) { style.append("\"padding\":\(Int.random(in: 0...9, using: &g))") }
            if Int.random(in: 0..<4, using: &g) == 0 {
                style.append("\"position\":\"relative\"")
                return "{\"id\":\"{ID}\",\"style\":{\(style.joined(separator: ","))},\"children\":[\(children.joined(separator: ",")),"
                    + "{\"id\":\"{ID}\",\"style\":{\"position\":\"absolute\",\"right\":3,\"top\":2,\"width\":7,\"height\":7}}]}"
            }
            return "{\"id\":\"{ID}\",\"style\":{\(style.joined(separator: ","))},\"children\":[\(children.joined(separator: ","))]}"
        }
        let align = ["center", "flex-start", "stretch", "flex-end"].randomElement(using: &g)!
        return "{\"id\":\"{ID}\",\"style\":{\"flexDirection\":\"row\",\"padding\":\(Int.random(in: 0...10, using: &g)),"
            + "\"alignItems\":\"\(align)\"},\"children\":[\(leaf()),\(column(depth: 2)),\(leaf())]}"
    }

    /// A feed of `cells` cells of `shapes` random shapes in a random order, ids from `names`.
    static func feed(seed: UInt64, cells: Int, shapes: Int, fractional: Bool, scale: Double = 1,
                     names: (Int) -> String = { "n\($0)" }) -> [UInt8] {
        var g = SplitMix64(seed: seed)
        let kinds = (0..<shapes).map { _ in shape(&g, fractional: fractional) }
        var next = 0
        let children = (0..<cells).map { _ -> String in
            var cell = kinds[Int.random(in: 0..<shapes, using: &g)]
            while let range = cell.range(of: "{ID}") {
                cell.replaceSubrange(range, with: names(next))
                next += 1
            }
            return cell
        }.joined(separator: ",")
        let width = fractional ? String(format: "%.3f", Double.random(in: 200...400, using: &g)) : "\(Int.random(in: 200...400, using: &g))"
        return Array("""
        {"config":{"pointScaleFactor":\(scale)},"available":{"width":\(width),"height":null},\
        "root":{"id":"feed","style":{"width":\(width),"gap":\(fractional ? "0.5" : "2")},"children":[\(children)]}}
        """.utf8)
    }

    static func computer(folds: Bool) -> LayoutComputer {
        var computer = LayoutComputer(cache: FrameCache(capacityBytes: 0, shardCount: 1), limits: .default)
        computer.foldsRepeats = folds
        computer.hashKey = StructuralHashKey(k0: 3, k1: 4)
        return computer
    }

    /// The answer to `body` decoded node by node, after expecting it to be `status` and the
    /// answer with instances to have the same status, ETag and body.
    @discardableResult
    static func expectAnswersAlike(_ body: [UInt8], status: Int = 200,
                                   sourceLocation: SourceLocation = #_sourceLocation) -> LayoutComputer.Answer {
        let plain = computer(folds: false).answer(body: body, ifNoneMatch: nil)
        let folded = computer(folds: true).answer(body: body, ifNoneMatch: nil)
        #expect(plain.status == status, sourceLocation: sourceLocation)
        #expect(folded.status == plain.status, sourceLocation: sourceLocation)
        #expect(folded.entityTag == plain.entityTag, sourceLocation: sourceLocation)
        #expect(folded.body == plain.body, sourceLocation: sourceLocation)
        return plain
    }

    /// Whether the request decodes with instances and is answered with them (not decoded again).
    static func answeredWithInstances(_ body: [UInt8]) -> Bool {
        guard var request = try? LayoutWire.decodeRequest(bytes: body, storage: nil, foldsRepeats: true),
              request.tree.hasInstances else { return false }
        return computer(folds: true).answerWithInstances(&request, ifNoneMatch: nil, document: nil) != nil
    }

    @Test(arguments: 0..<12)
    func answersEqualDecodingEveryNode(seed: Int) {
        let fractional = seed % 3 == 2
        let scale: Double = seed % 4 == 3 ? 2 : (seed == 5 ? 0 : 1)
        let body = Self.feed(seed: UInt64(seed) &* 7919, cells: 500, shapes: 1 + seed % 5, fractional: fractional, scale: scale)
        Self.expectAnswersAlike(body)
        // Fractional places and other scales round each cell at its place, and write those
        // whose frames are not their source's node by node: still answered with instances
        // (unless a shape holds an absolutely positioned node, whose cell is no candidate).
        if !body.contains(subsequence: Array(#""position":"absolute""#.utf8)) {
            #expect(Self.answeredWithInstances(body), "seed \(seed): the answer fell back to decoding every node")
        }
    }

    /// Cells with text leaves (wrapping, clamped, bold): the source's leaves are measured for
    /// its instances; with `textLines` the request is decoded again and answered alike.
    @Test(arguments: [(450, 3, 320, false), (420, 5, 211, false), (450, 2, 300, true)])
    func textCellsAnswerAlike(cells: Int, shapes: Int, width: Int, textLines: Bool) {
        let body = SubtreeReuseServiceTests.feed(cells: cells, shapes: shapes, width: width, textLines: textLines)
        Self.expectAnswersAlike(body)
        #expect(Self.answeredWithInstances(body) == !textLines)
    }

    /// Text whose font family is unknown warns once per leaf, with the leaf's pointer: the
    /// leaves the instances stand for would warn too, so the request is decoded again.
    @Test func textWarningsAnswerAlike() {
        let cells = (0..<450).map { i in
            #"{"id":"c\#(i)","style":{"flexDirection":"row","fontFamily":"No Such Face"},"children":["#
                + #"{"id":"t\#(i)","text":"Hello \#(i % 2)"},{"id":"b\#(i)","style":{"width":10,"height":10}},"#
                + #"{"id":"d\#(i)","style":{"width":12,"height":10}}]}"#
        }.joined(separator: ",")
        let body = Array(#"{"root":{"id":"r","style":{"width":300},"children":[\#(cells)]}}"#.utf8)
        let plain = Self.expectAnswersAlike(body)
        #expect(String(decoding: plain.body, as: UTF8.self).contains("warnings"))
        #expect(!Self.answeredWithInstances(body))
    }

    /// Cells at whole-pixel places share their descendants' rounded frames: rounded once per
    /// snapshot, not once per cell (percentages make fractional widths inside them).
    @Test func roundingsAreShared() throws {
        let body = Self.feed(seed: 8, cells: 500, shapes: 3, fractional: false)
        var request = try LayoutWire.decodeRequest(bytes: body, storage: nil, foldsRepeats: true)
        #expect(request.tree.instances.nodes.count > 400)
        request.tree.subtreeReuse = SubtreeReuse(key: StructuralHashKey(k0: 3, k1: 4))
        request.computeLayout()
        #expect(request.tree.instancesLaidOut)
        #expect(request.tree.instances.sharedRoundings > request.tree.instances.nodes.count / 2,
                "\(request.tree.instances.sharedRoundings) of \(request.tree.instances.nodes.count)")
    }

    /// Ids that need escapes in the answer, and nodes without ids: the same answers.
    @Test func escapedAndMissingIDs() {
        let body = Self.feed(seed: 42, cells: 450, shapes: 3, fractional: false) {
            $0 % 7 == 0 ? "q\\\"\($0)" : $0 % 5 == 0 ? "é\($0)" : "n\($0)"
        }
        Self.expectAnswersAlike(body)
    }

    /// The ETag names the same answer either way: a 304 for the other decode's tag.
    @Test func notModifiedAcrossDecodes() {
        let body = Self.feed(seed: 9, cells: 420, shapes: 2, fractional: false)
        let plain = Self.computer(folds: false).answer(body: body, ifNoneMatch: nil)
        let again = Self.computer(folds: true).answer(body: body, ifNoneMatch: plain.entityTag)
        #expect(again.status == 304)
        #expect(again.entityTag == plain.entityTag)
    }

    /// Cells that wrap onto lines of other heights get calls their source never got: answered
    /// alike all the same (decoded again where the instances cannot answer).
    @Test func wrappedCellsAnswerAlike() {
        let cells = (0..<420).map { i in
            let tall = i % 7 == 3 ? 50 : 20
            return #"{"id":"c\#(i)","style":{"width":\#(30 + (i % 3) * 5),"padding":2},"children":["#
                + #"{"id":"x\#(i)","style":{"flexGrow":1}},{"id":"y\#(i)","style":{"height":\#(i % 11 == 0 ? tall : 20)}},"#
                + #"{"id":"z\#(i)","style":{"height":4}}]}"#
        }.joined(separator: ",")
        let body = Array(#"{"root":{"id":"r","style":{"width":317,"flexDirection":"row","flexWrap":"wrap","alignItems":"stretch"},"children":[\#(cells)]}}"#.utf8)
        Self.expectAnswersAlike(body)
    }

    /// A base kept from an answer with instances is patched as any: each patch answers as the
    /// patched tree sent whole, the first rebuilt (the base kept no tree) and the next in place.
    @Test func patchesOnABaseWithInstances() throws {
        let body = Self.feed(seed: 5, cells: 400, shapes: 2, fractional: false)
        var chain = try #require(PatchChain(body: body))
        var document = try JSONSerialization.jsonObject(with: Data(body)) as! [String: Any]
        for (round, width) in [41, 17, 66].enumerated() {
            let (status, answer) = chain.patch(
                #"[{"op":"replace","path":"/root/children/\#(3 + round)/children/0/style/width","value":\#(width)}]"#)
            #expect(status == 200)
            var root = document["root"] as! [String: Any]
            var children = root["children"] as! [[String: Any]]
            var cell = children[3 + round]
            var grandchildren = cell["children"] as! [[String: Any]]
            var style = grandchildren[0]["style"] as! [String: Any]
            style["width"] = width
            grandchildren[0]["style"] = style
            cell["children"] = grandchildren
            children[3 + round] = cell
            root["children"] = children
            document["root"] = root
            let whole = try JSONSerialization.data(withJSONObject: document)
            #expect(answer == LayoutOnce.answer(body: Array(whole)).body)
            // In place from the second on (laid out fresh or not, as exact relayouts decide).
            #expect((chain.lastMode == "rebuilt") == (round == 0), "round \(round): \(chain.lastMode ?? "-")")
        }
    }

    /// Lists inside lists: instances below containers that are not the root (their ancestors
    /// are no candidates), repeated lists of repeated cells, a list aligned by baselines (laid
    /// out node by node), RTL and a scale of 3.
    @Test(arguments: [(false, 1.0), (true, 3.0)])
    func nestedListsAnswerAlike(rtl: Bool, scale: Double) {
        var g = SplitMix64(seed: rtl ? 77 : 78)
        let shapes = (0..<3).map { _ in Self.shape(&g, fractional: true) }
        var next = 0
        func cells(_ count: Int) -> String {
            (0..<count).map { i -> String in
                var cell = shapes[(i * 7) % shapes.count]
                while let range = cell.range(of: "{ID}") {
                    cell.replaceSubrange(range, with: "k\(next)")
                    next += 1
                }
                return cell
            }.joined(separator: ",")
        }
        let lists = [
            #"{"id":"l0","style":{"flexDirection":"column","padding":3},"children":[\#(cells(150))]}"#,
            #"{"id":"l1","style":{"flexDirection":"row","flexWrap":"wrap","gap":1.5},"children":[\#(cells(150))]}"#,
            #"{"id":"l2","style":{"flexDirection":"row","alignItems":"baseline"},"children":[\#(cells(60))]}"#,
            #"{"id":"l3","style":{"flexDirection":"column","margin":2.25},"children":[\#(cells(150))]}"#,
        ]
        let body = Array(#"{"config":{"pointScaleFactor":\#(scale)},"direction":"\#(rtl ? "rtl" : "ltr")","available":{"width":333.3,"height":null},"root":{"id":"r","style":{"width":333.3},"children":[\#(lists.joined(separator: ","))]}}"#.utf8)
        Self.expectAnswersAlike(body)
        // Without the baseline list and the wrapping one (whose lines of other heights stretch
        // cells as their sources never were), the instances answer.
        let noBaseline = Array(#"{"config":{"pointScaleFactor":\#(scale)},"direction":"\#(rtl ? "rtl" : "ltr")","available":{"width":333.3,"height":null},"root":{"id":"r","style":{"width":333.3},"children":[\#([lists[0], lists[3]].joined(separator: ","))]}}"#.utf8)
        Self.expectAnswersAlike(noBaseline)
        if !noBaseline.contains(subsequence: Array(#""position":"absolute""#.utf8)) {
            #expect(Self.answeredWithInstances(noBaseline))
        }
    }

    /// Frames that overflow Float (cells of 3e38 in a row): the same 422 and pointer, which
    /// only the request decoded node by node can name.
    @Test func overflowAnswersAlike() {
        let cells = (0..<450).map { i in
            #"{"id":"c\#(i)","style":{"flexDirection":"row"},"children":[{"id":"a\#(i)","style":{"width":3e38,"height":2}},"#
                + #"{"id":"b\#(i)","style":{"width":3e38,"height":2}},{"id":"d\#(i)","style":{"width":1,"height":1}}]}"#
        }.joined(separator: ",")
        let body = Array(#"{"root":{"id":"r","style":{"flexDirection":"row"},"children":[\#(cells)]}}"#.utf8)
        Self.expectAnswersAlike(body, status: 422)
    }

    /// A request of more nodes than allowed is refused when its instances stand for them.
    @Test func instancesCountAgainstTheNodeLimit() {
        let body = Self.feed(seed: 1, cells: 500, shapes: 1, fractional: false)
        var limits = WireLimits.default
        limits.maxNodes = 2_000
        var computer = LayoutComputer(cache: FrameCache(capacityBytes: 0, shardCount: 1), limits: limits)
        computer.foldsRepeats = true
        let answer = computer.answer(body: body, ifNoneMatch: nil)
        #expect(answer.status == 413)
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in the bytes.
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
