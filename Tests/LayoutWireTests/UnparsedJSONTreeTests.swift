import TestSupport
import Testing
@testable import LayoutWire

/// A document kept unparsed (`JSONTree(unparsed:)`, parsed a level at a time where it is read
/// or edited) against the same document parsed whole: the same values, counts, bytes written
/// and patch outcomes, on random documents and random patches.
@Suite struct UnparsedJSONTreeTests {
    /// A random JSON value of at most `depth` levels, compact or spaced out, with escapes in
    /// strings and keys and numbers of every form.
    static func value(_ random: inout SplitMix64, depth: Int, spaced: Bool) -> String {
        let gap = spaced ? [" ", "\n  ", "\t", ""][Int(random.next() % 4)] : ""
        let kind = depth == 0 ? random.next() % 4 : random.next() % 7
        switch kind {
        case 0: return ["0", "-12", "3.25", "1e3", "-2.5E-2", "1e400", "17"][Int(random.next() % 7)]
        case 1: return [#""""#, #""a""#, #""x\"y""#, #""\u00e9\n""#, #""\ud83d\ude00""#, #""\\/""#, #""flex""#][Int(random.next() % 7)]
        case 2: return ["true", "false"][Int(random.next() % 2)]
        case 3: return "null"
        case 4, 5:
            let count = Int(random.next() % 4)
            let keys = ["a", "b", "style", "children", "x\\\"k", "\\u0041", "é"]
            var used: Set<String> = []
            var members: [String] = []
            for _ in 0..<count {
                let key = keys[Int(random.next() % UInt64(keys.count))]
                guard used.insert(key).inserted else { continue }
                members.append(gap + "\"\(key)\"" + gap + ":" + gap + value(&random, depth: depth - 1, spaced: spaced))
            }
            return "{" + members.joined(separator: ",") + gap + "}"
        default:
            let count = Int(random.next() % 4)
            let elements = (0..<count).map { _ in gap + value(&random, depth: depth - 1, spaced: spaced) }
            return "[" + elements.joined(separator: ",") + gap + "]"
        }
    }

    /// Every pointer of `tree`, parents before children.
    static func pointers(of tree: JSONTree, under path: [String] = []) -> [[String]] {
        var found = [path]
        switch tree.expanded {
        case .object(let members):
            for member in members { found += pointers(of: member.value, under: path + [member.key]) }
        case .array(let elements):
            for k in elements.indices { found += pointers(of: elements[k], under: path + [String(k)]) }
        default: break
        }
        return found
    }

    static func escaped(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            .replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    static func pointer(_ path: [String]) -> String { path.map { "/" + escaped($0) }.joined() }

    @Test func unparsedDocumentsReadAsTheParsedOnes() throws {
        var random = SplitMix64(seed: 0x5EED_0001)
        for round in 0..<400 {
            let text = Self.value(&random, depth: 5, spaced: round % 3 == 0)
            let bytes = Array((round % 5 == 0 ? "  \n" + text + " \t" : text).utf8)
            let parsed = JSONTree(try JSONValue.parse(bytes: bytes))
            let unparsed = try #require(JSONTree(unparsed: bytes))
            #expect(unparsed == parsed, "\(text)")
            #expect(parsed == unparsed, "\(text)")
            // Without spans (a document past 32-bit offsets), each container's end is scanned for.
            let whole = try #require(RawJSON(document: bytes))
            let scanned = JSONTree.raw(RawJSON(document: bytes, start: whole.start, end: whole.end, spans: nil))
            #expect(scanned == parsed, "\(text)")
            // Written as it was read: raw bytes as they stand, compact where parsed.
            let rewritten = JSONTree(try JSONValue.parse(bytes: unparsed.jsonBytes()))
            #expect(rewritten == parsed, "\(text)")
            let (count, depth) = try #require(parsed.measure(budget: .max))
            let measured = try #require(unparsed.measure(budget: .max))
            #expect(measured.count == count && measured.depth == depth, "\(text)")
            #expect(unparsed.measure(budget: count - 1) == nil, "\(text)")
            // Every value is reached the same way, and at most one per two bytes of it.
            #expect((bytes.count + 1) / 2 >= count, "\(text)")
            for path in Self.pointers(of: parsed) {
                #expect(unparsed.value(at: path) == parsed.value(at: path), "\(text) at \(path)")
                #expect(unparsed.value(at: path)?.hasElements == parsed.value(at: path)?.hasElements, "\(text) at \(path)")
            }
        }
    }

    @Test func patchesApplyToUnparsedDocumentsAsToParsedOnes() throws {
        var random = SplitMix64(seed: 0x5EED_0002)
        var applied = 0
        for round in 0..<600 {
            let text = "{\"root\":" + Self.value(&random, depth: 5, spaced: round % 2 == 0) + "}"
            let bytes = Array(text.utf8)
            var parsed = JSONTree(try JSONValue.parse(bytes: bytes))
            var unparsed = try #require(JSONTree(unparsed: bytes))
            let paths = Self.pointers(of: parsed)
            var operations: [String] = []
            for _ in 0..<Int(1 + random.next() % 3) {
                let path = Self.pointer(paths[Int(random.next() % UInt64(paths.count))])
                let from = Self.pointer(paths[Int(random.next() % UInt64(paths.count))])
                let value = Self.value(&random, depth: 2, spaced: false)
                switch random.next() % 6 {
                case 0: operations.append(#"{"op":"add","path":"\#(path)","value":\#(value)}"#)
                case 1: operations.append(#"{"op":"remove","path":"\#(path)"}"#)
                case 2: operations.append(#"{"op":"replace","path":"\#(path)","value":\#(value)}"#)
                case 3: operations.append(#"{"op":"move","from":"\#(from)","path":"\#(path)"}"#)
                case 4: operations.append(#"{"op":"copy","from":"\#(from)","path":"\#(path)"}"#)
                default:
                    // A test of the value there, as the document spells it, or of another.
                    let tested = random.next() % 2 == 0 ? String(decoding: parsed.value(at: paths[0])!.jsonBytes(), as: UTF8.self) : value
                    operations.append(#"{"op":"test","path":"\#(path)","value":\#(tested)}"#)
                }
            }
            let patch = try JSONPatch(JSONValue.parse("[" + operations.joined(separator: ",") + "]"), maxOperations: 10)
            var counts = (parsed: parsed.measure(budget: .max)!.count, unparsed: (bytes.count + 1) / 2)
            let outcomes = (parsed: Result { () throws(WireError) in
                                try patch.apply(to: &parsed, valueCount: &counts.parsed, maxValues: 10_000, maxNesting: 40) },
                            unparsed: Result { () throws(WireError) in
                                try patch.apply(to: &unparsed, valueCount: &counts.unparsed, maxValues: 10_000, maxNesting: 40) })
            switch (outcomes.parsed, outcomes.unparsed) {
            case (.success, .success):
                applied += 1
                #expect(unparsed == parsed, "\(text) \(operations)")
                #expect(JSONTree(try JSONValue.parse(bytes: unparsed.jsonBytes())) == parsed, "\(text) \(operations)")
            case (.failure(let a), .failure(let b)):
                #expect(a.code == b.code && a.pointer == b.pointer, "\(text) \(operations)")
            default:
                Issue.record("one applied and the other did not: \(text) \(operations)")
            }
        }
        #expect(applied > 100)
    }

    @Test func aLevelIsReadOnlyWhereAPatchReaches() throws {
        let bytes = Array(#"{"root":{"children":[{"style":{"width":1}},{"style":{"width":2},"children":[{"id":"x"}]}]},"x":[1]}"#.utf8)
        var document = try #require(JSONTree(unparsed: bytes))
        var count = 0
        try JSONPatch(JSONValue.parse(#"[{"op":"replace","path":"/root/children/1/style/width","value":5}]"#), maxOperations: 1)
            .apply(to: &document, valueCount: &count, maxValues: 100, maxNesting: 100)
        // The containers on the path are parsed; the first child, the second's children and
        // the request's other members are not.
        guard case .object(let top) = document, case .object(let root) = top[0].value,
              case .array(let children) = root[0].value, case .object(let second) = children[1] else {
            Issue.record("the path was not parsed: \(document)")
            return
        }
        if case .raw = children[0] {} else { Issue.record("the first child was parsed") }
        if case .raw = second[1].value {} else { Issue.record("the second child's children were parsed") }
        if case .raw = top[1].value {} else { Issue.record("the request's other member was parsed") }
        #expect(document.text == #"{"root":{"children":[{"style":{"width":1}},{"style":{"width":5},"children":[{"id":"x"}]}]},"x":[1]}"#)
        // The document is charged once, however many raw values share it.
        let whole = try #require(JSONTree(unparsed: bytes))
        #expect(whole.heapBytes >= bytes.count)
        #expect(JSONTree.array([whole, whole, whole]).heapBytes < 2 * whole.heapBytes)
        #expect(document.heapBytes > whole.heapBytes)
    }

    @Test func containerSpansMatchAScanOfEachContainer() throws {
        var random = SplitMix64(seed: 0x5EED_0003)
        for _ in 0..<200 {
            let bytes = Array(Self.value(&random, depth: 6, spaced: true).utf8)
            try bytes.withUnsafeBufferPointer { buffer in
                let spans = try #require(ContainerSpans(buffer, from: 0, to: buffer.count))
                // Each container's end, found by parsing the document, is the one the spans give.
                var pending = [try #require(RawJSON(document: bytes))]
                while let raw = pending.popLast() {
                    // A document of one scalar is the only raw value that is no container.
                    let isContainer = bytes[raw.start] == UInt8(ascii: "[") || bytes[raw.start] == UInt8(ascii: "{")
                    #expect(spans.end(ofContainerAt: raw.start) == (isContainer ? raw.end : nil))
                    switch JSONTree.raw(raw).expanded {
                    case .object(let members): for case .raw(let inner) in members.map(\.value) { pending.append(inner) }
                    case .array(let elements): for case .raw(let inner) in elements { pending.append(inner) }
                    default: break
                    }
                }
            }
        }
        // Many containers in few bytes: the table grows past its first guess.
        let dense = Array(("[" + String(repeating: "[],", count: 2_000) + "{}]").utf8)
        try dense.withUnsafeBufferPointer { buffer in
            let spans = try #require(ContainerSpans(buffer, from: 0, to: buffer.count))
            #expect(spans.end(ofContainerAt: 0) == dense.count)
            for k in 0..<2_000 { #expect(spans.end(ofContainerAt: 1 + 3 * k) == 3 + 3 * k) }
            #expect(spans.end(ofContainerAt: dense.count - 3) == dense.count - 1)
            #expect(spans.end(ofContainerAt: 2) == nil)
        }
        // Brackets that do not balance have no spans.
        for text in ["[1", "{\"a\":[}", "]", "[\"]\""] {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { #expect(ContainerSpans($0, from: 0, to: $0.count) == nil, "\(text)") }
        }
    }
}
