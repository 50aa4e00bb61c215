import LayoutEngine
import Testing
import TestSupport
@testable import LayoutWire

/// The one-pass decoder (`OnePassDecoder`) against the tape decoder (`RequestDecoder`): every
/// request of its shape decodes to the same tree, ids and hash; every other request makes it
/// give up, and `LayoutWire.decodeRequest(bytes:)` then answers as the tape decoder does.
@Suite struct OnePassDecoderTests {
    /// Random requests of the accepted shape: every style key with values of every form it
    /// takes, measures, ids, random member order (children last) and whitespace.
    @Test(arguments: 0..<40) func randomRequestsDecodeAsFromTheTape(seed: UInt64) throws {
        var generator = RequestGenerator(seed: seed)
        let bytes = Array(generator.request().utf8)
        let onePass = try #require(bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default) },
                                   "seed \(seed): the one-pass decoder gave up on \(String(decoding: bytes, as: UTF8.self))")
        let tape = try LayoutWire.decodeRequest(JSONValue.parse(bytes: bytes))
        expectSame(onePass, tape, "seed \(seed)")
    }

    /// Requests just outside the shape: the one-pass decoder gives up, and the answer of
    /// `decodeRequest(bytes:)` (a request or an error) is the tape decoder's.
    @Test(arguments: [
        // Errors, worded by the tape decoder.
        #"{"root": {"style": {"width": -1}}}"#,
        #"{"root": {"style": {"width": "wide"}}}"#,
        #"{"root": {"style": {"flexDirection": "sideways"}}}"#,
        #"{"root": {"style": {"flexGrow": true}}}"#,
        #"{"root": {"style": {"width": 1e40}}}"#,
        #"{"root": {"style": {"width": 1, "width": 2}}}"#,
        #"{"root": {"id": "a", "id": "b"}}"#,
        #"{"root": {}, "root": {}}"#,
        #"{"root": {"bogus": 1}}"#,
        #"{"root": {"type": "flex", "type": "flex"}}"#,
        #"{"root": {"measure": {"kind": "fixed", "width": 1, "height": 1}, "children": [{}]}}"#,
        #"{"root": {"measure": {"kind": "fixed", "width": 1}}}"#,
        #"{"root": {"children": [{}, ]}}"#,
        #"{"root": {"children": [{}]}"#,
        #"{"root": {}} x"#,
        #"{"available": {"width": -5}, "root": {}}"#,
        #"{"direction": "inherit", "root": {}}"#,
        #"{"available": {}}"#,
        // Accepted by the tape decoder only.
        #"{"root": {"id": "caf\u00e9", "style": {"width": 1}}}"#,
        #"{"root": {"id": "café"}}"#,
        #"{"root": {"style": {"wid\u0074h": 3}}}"#,
        #"{"root": {"children": [{"id": "a"}], "style": {"width": 3}}}"#,
        #"{"root": {"children": [{"id": "a"}], "id": "r"}}"#,
        #"{"root": {"style": {"width": {"of": "b"}}, "children": [{"id": "b", "style": {"width": 4}}]}}"#,
        #"{"root": {"style": {"backgroundColor": "red", "width": 3}}}"#,
        #"{"root": {"style": {"fontSize": 12}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"isIncludedInLayout": false}}"#,
        #"{"root": {"style": {"width": 3}}, "config": {"useWebDefaults": true}}"#,
        #"{"config": {"errata": "all"}, "root": {}}"#,
        #"{"config": {"pointScaleFactor": -1}, "root": {}}"#,
        #"{"root": {"type": "stack"}}"#,
        #"{"name": "case", "root": {}}"#,
        #"{"available": null, "root": {}}"#,
        #"{"root": {"measure": {"kind": "intrinsic-text", "text": "a b"}}}"#,
    ]) func requestsOutsideTheShapeAnswerAsTheTape(text: String) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default) } == nil, "\(text)")
        let viaBytes = Result { () throws(WireError) in try LayoutWire.decodeRequest(bytes: bytes) }
        let viaTape = Result { () throws(WireError) in try LayoutWire.decodeRequest(JSONValue.parse(bytes: bytes)) }
        switch (viaBytes, viaTape) {
        case (.success(let a), .success(let b)): expectSame(a, b, text)
        case (.failure(let a), .failure(let b)):
            #expect(a.code == b.code && a.pointer == b.pointer && a.description == b.description, "\(text)")
        default: Issue.record("\(text): \(viaBytes) against \(viaTape)")
        }
    }

    /// Limits make it give up, so the tape decoder reports them with their pointers.
    @Test func limitsAreReportedByTheTapeDecoder() throws {
        let wide = #"{"root": {"children": [{}, {}, {}]}}"#
        let nested = #"{"root": {"children": [{"children": [{"children": [{}]}]}]}}"#
        let cases: [(String, WireLimits, String)] = [
            (wide, WireLimits(maxNodes: 3), "too-many-nodes"),
            (nested, WireLimits(maxDepth: 2), "too-deep"),
            (#"{"root": {"id": "abcdef"}}"#, WireLimits(maxStringBytes: 4), "string-too-long"),
        ]
        for (text, limits, code) in cases {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: limits) } == nil)
            do throws(WireError) {
                _ = try LayoutWire.decodeRequest(bytes: bytes, limits: limits)
                Issue.record("\(text) passed \(limits)")
            } catch {
                #expect(error.code == code)
            }
            // Under the default limits the same request takes the one-pass path.
            #expect(bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default) } != nil)
        }
    }

    private func expectSame(_ a: LayoutRequest, _ b: LayoutRequest, _ context: String) {
        #expect(a.tree.nodeCount == b.tree.nodeCount, "\(context)")
        guard a.tree.nodeCount == b.tree.nodeCount else { return }
        #expect(a.root == b.root && a.ids == b.ids && a.available == b.available && a.direction == b.direction
                && a.textLines == b.textLines, "\(context)")
        for index in 0..<a.tree.nodeCount {
            let node = NodeID(index)
            #expect(a.tree.style(of: node) == b.tree.style(of: node), "\(context): node \(index)")
            #expect(a.tree.content(of: node) == b.tree.content(of: node), "\(context): node \(index)")
            #expect(Array(a.tree.children(of: node)) == Array(b.tree.children(of: node)), "\(context): node \(index)")
        }
        #expect(a.tree.structuralHash(root: a.root, available: a.available, direction: a.direction)
                == b.tree.structuralHash(root: b.root, available: b.available, direction: b.direction), "\(context)")
    }
}

/// Random request text in the one-pass decoder's shape.
private struct RequestGenerator {
    var random: SplitMix64
    var nodes = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func request() -> String {
        var members = [#""root":"# + space() + node(depth: 0)]
        if chance(2) {
            let width = chance(3) ? "null" : number(negative: false)
            let height = chance(2) ? "null" : number(negative: false)
            members.append(#""available": {"width": \#(width),\#(space())"height":\#(height)}"#)
        }
        if chance(2) { members.append(#""direction":"# + space() + (chance(2) ? #""ltr""# : #""rtl""#)) }
        if chance(4) { members.append(#""textLines": "# + (chance(2) ? "true" : "false")) }
        members.shuffle(using: &random)
        if chance(3) {
            // Before the root, which takes its defaults.
            var settings = [#""pointScaleFactor": \#(["1", "2", "3", "0", "0.5"][Int(random.next() % 5)])"#,
                            #""useWebDefaults": \#(chance(2) ? "true" : "false")"#].filter { _ in !chance(3) }
            settings.shuffle(using: &random)
            let root = members.firstIndex { $0.hasPrefix(#""root""#) }!
            members.insert(#""config":"# + space() + "{" + settings.joined(separator: ",") + "}", at: Int(random.next() % UInt64(root + 1)))
        }
        return "{" + space() + members.joined(separator: "," + space()) + space() + "}" + space()
    }

    private mutating func node(depth: Int) -> String {
        nodes += 1
        var members: [String] = []
        if !chance(4) { members.append(#""id": "n\#(nodes)-\#(random.next() % 1000)""#) }
        if !chance(5) { members.append(#""style":"# + space() + style()) }
        if chance(8) { members.append(#""type": "flex""#) }
        let childCount = depth < 4 && nodes < 60 ? Int(random.next() % 5) : 0
        if childCount == 0 && chance(3) {
            let kind = chance(2) ? "fixed" : "benchmark-leaf"
            var parts = [#""kind": "\#(kind)""#, #""width": \#(number(negative: false))"#,
                         #""height": \#(number(negative: false))"#]
            parts.shuffle(using: &random)
            members.append(#""measure": {"# + parts.joined(separator: ",") + "}")
        }
        members.shuffle(using: &random)
        if childCount > 0 || chance(6) {
            var children: [String] = []
            for _ in 0..<childCount { children.append(node(depth: depth + 1)) }
            members.append(#""children":"# + space() + "[" + children.joined(separator: "," + space()) + space() + "]")
        }
        return "{" + space() + members.joined(separator: "," + space()) + "}"
    }

    private mutating func style() -> String {
        var members: [String] = []
        for (name, property) in StyleProperty.all where chance(6) {
            if case .text = property { continue }
            members.append("\"\(name)\":" + space() + value(for: property))
        }
        members.shuffle(using: &random)
        return "{" + members.joined(separator: "," + space()) + "}"
    }

    private mutating func value(for property: StyleProperty) -> String {
        if let keywords = property.keywords {
            // `"a", "b" or "c"`: the odd pieces between quotes are the names.
            let names = keywords.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map(\.element)
            return "\"\(names[Int(random.next() % UInt64(names.count))])\""
        }
        switch property {
        case .flex: return number(negative: true)
        case .flexGrow, .flexShrink, .aspectRatio: return number(negative: false)
        default:
            let forms = property.forms
            var choices = [number(negative: forms.contains(.negative))]
            if forms.contains(.percent) { choices.append("\"\(number(negative: forms.contains(.negative)))%\"") }
            if forms.contains(.auto) { choices.append(#""auto""#) }
            if forms.contains(.intrinsic) { choices += [#""max-content""#, #""fit-content""#, #""stretch""#] }
            return choices[Int(random.next() % UInt64(choices.count))]
        }
    }

    /// A number in one of JSON's spellings: integers, fractions, exponents, negative zero.
    private mutating func number(negative: Bool) -> String {
        let sign = negative && chance(2) ? "-" : ""
        switch random.next() % 5 {
        case 0: return sign + String(random.next() % 400)
        case 1: return sign + String(random.next() % 400) + "." + String(random.next() % 1000)
        case 2: return sign + String(random.next() % 9 + 1) + "e" + String(random.next() % 3)
        case 3: return sign + "0.5E-1"
        default: return negative ? "-0" : "0"
        }
    }

    private mutating func space() -> String {
        [" ", "", "\n  ", "", "\t", ""][Int(random.next() % 6)]
    }

    /// True one time in `n`.
    private mutating func chance(_ n: UInt64) -> Bool { random.next() % n == 0 }
}
