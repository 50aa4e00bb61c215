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
        // Half of them with text leaves and text properties.
        generator.text = seed % 2 == 1
        let bytes = Array(generator.request().utf8)
        let onePass = try #require(bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default) },
                                   "seed \(seed): the one-pass decoder gave up on \(String(decoding: bytes, as: UTF8.self))")
        let tape = try LayoutWire.decodeRequest(JSONValue.parse(bytes: bytes))
        expectSame(onePass, tape, "seed \(seed)")
    }

    /// Random requests whose children often repeat an earlier sibling but for its ids: the
    /// repeats are copied, not decoded, to the tape decoder's tree, ids, text leaves and hash.
    @Test func repeatedSiblingsDecodeAsFromTheTape() throws {
        var copiesOverSeeds = 0
        for seed: UInt64 in 1_000..<1_060 {
            var generator = RequestGenerator(seed: seed)
            generator.text = seed % 2 == 1
            generator.repeats = true
            let bytes = Array(generator.request().utf8)
            var copies = 0
            let onePass = try #require(bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default, repeatsFrom: 0, copies: &copies) },
                                       "seed \(seed): the one-pass decoder gave up on \(String(decoding: bytes, as: UTF8.self))")
            let tape = try LayoutWire.decodeRequest(JSONValue.parse(bytes: bytes))
            expectSame(onePass, tape, "seed \(seed)")
            copiesOverSeeds += copies
        }
        // Worthless if nothing was copied.
        #expect(copiesOverSeeds >= 30, "\(copiesOverSeeds) copies")
    }

    /// Siblings that repeat an earlier one but for their ids, or nearly: copied when they do,
    /// decoded when a byte differs or an id is missing or extra, with pointers and text as the
    /// tape decoder makes them. (Repeats are looked for from a parent's fourth child on: each
    /// list starts with three empty leaves.)
    @Test(arguments: [
        // Box cells of two shapes taking turns, ids of other lengths, escaped.
        (#"{"root": {"children": [{}, {}, {}, {"id": "a", "style": {"padding": 2}, "children": [{"id": "a1", "style": {"width": 4}}]}, {"id": "b", "style": {"padding": 3}, "children": [{"id": "b1", "style": {"width": 4}}]}, {"id": "cc", "style": {"padding": 2}, "children": [{"id": "cc1", "style": {"width": 4}}]}, {"id": "\u0064", "style": {"padding": 3}, "children": [{"id": "d\n1", "style": {"width": 4}}]}]}}"#, 2),
        // Nodes without ids, and a last child that differs in its last byte.
        (#"{"root": {"children": [{}, {}, {}, {"children": [{"style": {"width": 4}}, {}]}, {"children": [{"style": {"width": 4}}, {}]}, {"children": [{"style": {"width": 4}}, {"id": "x"}]}, {"children": [{"style": {"width": 5}}, {}]}]}}"#, 1),
        // An id missing from, or added to, a repeat.
        (#"{"root": {"children": [{}, {}, {}, {"id": "a", "children": [{"id": "a1"}]}, {"children": [{"id": "b1"}]}, {"id": "c", "children": [{}]}, {"id": "d", "children": [{"id": "d1"}]}]}}"#, 1),
        // Text leaves and text styles inside repeats: pointers and inheritance.
        (#"{"root": {"style": {"fontSize": 10}, "children": [{}, {}, {}, {"id": "m1", "style": {"fontWeight": "bold"}, "children": [{"id": "t1", "text": "hello"}, {"id": "s1", "text": "world", "style": {"fontSize": 12}}]}, {"id": "m2", "style": {"fontWeight": "bold"}, "children": [{"id": "t2", "text": "hello"}, {"id": "s2", "text": "world", "style": {"fontSize": 12}}]}, {"id": "m3", "style": {"fontWeight": "bold"}, "children": [{"id": "t3", "text": "hello!"}, {"id": "s3", "text": "world", "style": {"fontSize": 12}}]}]}}"#, 1),
        // Repeats inside repeats: rows of cells.
        (#"{"root": {"children": [{}, {}, {}, {"id": "r1", "children": [{}, {}, {}, {"id": "c11", "children": [{"id": "l11"}]}, {"id": "c12", "children": [{"id": "l12"}]}]}, {"id": "r2", "children": [{}, {}, {}, {"id": "c21", "children": [{"id": "l21"}]}, {"id": "c22", "children": [{"id": "l22"}]}]}]}}"#, 2),
        // An id with an escaped quote.
        (#"{"root": {"children": [{}, {}, {}, {"id": "a", "children": [{}]}, {"id": "b\"q", "children": [{}]}]}}"#, 1),
        // Too few children to look for repeats.
        (#"{"root": {"children": [{}, {"id": "a", "children": [{}]}, {"id": "b", "children": [{}]}]}}"#, 0),
    ]) func nearRepeatsDecodeAsFromTheTape(text: String, copies expected: Int) throws {
        let bytes = Array(text.utf8)
        var copies = 0
        let onePass = try #require(bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default, repeatsFrom: 0, copies: &copies) }, "\(text)")
        let tape = try LayoutWire.decodeRequest(JSONValue.parse(bytes: bytes))
        expectSame(onePass, tape, text)
        #expect(copies == expected, "\(text)")
    }

    /// A repeat whose id is not a valid string makes the one-pass decoder give up; the tape
    /// decoder reports it. So does a repeat past the node limit.
    @Test func badRepeatsAreTheTapeDecodersToReport() throws {
        let badID = Array(#"{"root": {"children": [{}, {}, {}, {"id": "a", "children": [{}]}, {"id": "\x", "children": [{}]}]}}"#.utf8)
        var copies = 0
        #expect(badID.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default, repeatsFrom: 0, copies: &copies) } == nil)
        #expect(throws: WireError.self) { try LayoutWire.decodeRequest(bytes: badID) }
        // 1 + 3 + 2 + 2 nodes.
        let many = Array(#"{"root": {"children": [{}, {}, {}, {"children": [{}]}, {"children": [{}]}]}}"#.utf8)
        #expect(many.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: WireLimits(maxNodes: 7), repeatsFrom: 0, copies: &copies) } == nil)
        do throws(WireError) {
            _ = try LayoutWire.decodeRequest(bytes: many, limits: WireLimits(maxNodes: 7))
            Issue.record("8 nodes passed a limit of 7")
        } catch {
            #expect(error.code == "too-many-nodes")
        }
        #expect(many.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: WireLimits(maxNodes: 8), repeatsFrom: 0, copies: &copies) } != nil)
        #expect(copies == 1)
    }

    /// The ids of instances, which `findRepeat` reads as it matches: plain ones (ASCII or not,
    /// short or long) as they are, one with an escape unescaped. A repeat whose id the decoder
    /// would refuse (a control character, bad UTF-8, longer than the string limit) makes it give
    /// up, as a child decoded node by node does; the tape decoder words the error.
    @Test func instanceIDsAsTheTapeReadsThem() throws {
        // Three leaves, then cells of a root and a leaf: every cell after the first an instance.
        func body(_ leafIDs: [String], limits: WireLimits = .default) -> (bytes: [UInt8], request: LayoutRequest?) {
            let cells = leafIDs.enumerated().map { #"{"id": "c\#($0.offset)", "children": [{"id": "\#($0.element)"}]}"# }
            var bytes = Array(#"{"root": {"children": [{}, {}, {}, \#(cells.joined(separator: ", "))]}}"#.utf8)
            // "~" stands for a byte that is no UTF-8.
            bytes = bytes.map { $0 == UInt8(ascii: "~") ? 0xFF : $0 }
            var copies = 0
            let request = bytes.withUnsafeBufferPointer {
                OnePassDecoder.decode($0, limits: limits, repeatsFrom: 0, foldsRepeats: true, body: bytes, copies: &copies)
            }
            return (bytes, request)
        }
        let long = String(repeating: "x", count: 40)
        let ids = ["a", "b", #"q\"d"#, "é", long, #"\u00e9"#]
        let request = try #require(body(ids).request)
        #expect(request.tree.instances.nodes.count == ids.count - 1)
        #expect(Array(request.instanceIDs) == ["b", "q\"d", "é", long, "é"])
        #expect(Array(request.ids).compactMap { $0 }.filter { $0.hasPrefix("c") } == (0..<ids.count).map { "c\($0)" })
        for bad in [["a", "b\tc"], ["a", "b~"], ["a", String(repeating: "y", count: 9)]] {
            let (bytes, request) = body(bad, limits: WireLimits(maxStringBytes: 8))
            let gaveUp = request == nil  // (not `#expect(request == nil)`, which prints the whole tree)
            #expect(gaveUp, "\(bad)")
            #expect(throws: WireError.self, "\(bad)") { try LayoutWire.decodeRequest(bytes: bytes, limits: WireLimits(maxStringBytes: 8)) }
        }
    }

    /// Repeats are looked for only in trees of `RepeatedSiblings.minimumNodes` nodes or more
    /// (estimated): a feed of cells repeats, a small tree of the same cells is decoded.
    @Test func repeatsAreLookedForInLargeTrees() throws {
        func feed(_ cells: Int) -> [UInt8] {
            let cell = (0..<cells).map { #"{"id": "c\#($0)", "style": {"padding": 4}, "children": [{"id": "t\#($0)", "style": {"width": 10}}]}"# }
            return Array(#"{"root": {"children": [\#(cell.joined(separator: ", "))]}}"#.utf8)
        }
        for (cells, repeats) in [(10, false), (3_000, true)] {
            let bytes = feed(cells)
            var copies = 0
            let onePass = try #require(bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default, copies: &copies) })
            #expect((copies > 0) == repeats, "\(cells) cells: \(copies) copies")
            expectSame(onePass, try LayoutWire.decodeRequest(JSONValue.parse(bytes: bytes)), "\(cells) cells")
        }
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
        #"{"root": {"id": "a\x"}}"#,
        #"{"root": {"id": "\ud800"}}"#,
        #"{"root": {"id": "\udc00\ud800"}}"#,
        #"{"root": {"id": "\u12G4"}}"#,
        #"{"root": {"id": "a\"#,
        // Accepted by the tape decoder only.
        #"{"root": {"children": [{"id": "a"}], "style": {"width": 3}}}"#,
        #"{"root": {"children": [{"id": "a"}], "id": "r"}}"#,
        #"{"root": {"style": {"width": {"of": "b"}}, "children": [{"id": "b", "style": {"width": 4}}]}}"#,
        #"{"root": {"style": {"backgroundColor": "red", "width": 3}}}"#,
        #"{"root": {"style": {"fontSize": 12}, "children": [{"text": [{"text": "hi"}]}]}}"#,
        #"{"root": {"style": {"fontFamily": ["DejaVu Sans"]}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"children": [{"text": "hi", "children": [{}]}]}}"#,
        #"{"root": {"children": [{"text": "hi", "measure": {"kind": "fixed", "width": 1, "height": 1}}]}}"#,
        #"{"root": {"children": [{"measure": {"kind": "fixed", "width": 1, "height": 1}, "text": "hi"}]}}"#,
        #"{"root": {"children": [{"text": 3}]}}"#,
        #"{"root": {"children": [{"text": "a", "text": "b"}]}}"#,
        #"{"root": {"style": {"fontSize": 0}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"style": {"fontSize": 10001}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"style": {"fontWeight": 1001}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"style": {"fontWeight": "heavy"}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"style": {"textAlign": "middle"}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"style": {"lineHeight": "tall"}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"style": {"lineHeight": -1}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"style": {"letterSpacing": 10001}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"style": {"maxLines": 1.5}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"style": {"fontFamily": " , "}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"style": {"fontSize": 12, "fontSize": 13}, "children": [{"text": "hi"}]}}"#,
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

    /// Strings with escapes (as clients that escape every non-ASCII character send ids) decode
    /// in one pass, unescaped as the tape decoder unescapes them: ids, keys and keyword values.
    @Test(arguments: [
        #"{"root": {"id": "caf\u00e9", "style": {"width": 1}}}"#,
        #"{"root": {"style": {"wid\u0074h": 3}}}"#,
        #"{"root": {"id": "\"q\" \\ \/ \b\f\n\r\t", "children": [{"id": "\ud834\udd1e-\u65E5"}]}}"#,
        #"{"root": {"style": {"flexDirection": "r\u006fw"}, "children": [{"id": "a\u00e9b", "style": {"width": 2}}, {"id": "plain"}]}}"#,
        #"{"direction": "\u0072tl", "root": {"id": "x\u0000y"}}"#,
        // An escaped id, then other escaped strings of its node: the id keeps its bytes.
        #"{"root": {"id": "\u00e9t\u00e9", "style": {"flexDirection": "r\u006fw", "alignItems": "\u0063enter"}}}"#,
    ]) func escapedStringsDecodeInOnePass(text: String) throws {
        let bytes = Array(text.utf8)
        let onePass = try #require(bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default) }, "\(text)")
        let tape = try LayoutWire.decodeRequest(JSONValue.parse(bytes: bytes))
        expectSame(onePass, tape, text)
    }

    /// Text leaves (a string) and text properties of one number or string decode in one pass,
    /// to the tape decoder's leaves: content, styles inherited down the tree, the direction, and
    /// each leaf's pointer.
    @Test(arguments: [
        #"{"root": {"style": {"fontSize": 12}, "children": [{"text": "hi"}]}}"#,
        #"{"root": {"text": "root text", "style": {"fontFamily": "DejaVu Serif", "textAlign": "center"}}}"#,
        #"{"direction": "rtl", "root": {"style": {"fontFamily": "Inter, 'DejaVu Sans'", "lineHeight": "150%"}, "children": [{"id": "a"}, {"children": [{"text": "caf\u00e9\n", "style": {"fontWeight": "bold", "maxLines": 2, "textOverflow": "ellipsis"}}, {"text": ""}]}, {"text": "x", "style": {"direction": "ltr", "letterSpacing": -1, "whiteSpace": "pre-wrap", "overflowWrap": "anywhere"}}]}}"#,
        #"{"root": {"style": {"fontStyle": "italic", "fontWeight": 600, "lineHeight": "normal"}, "children": [{"style": {"fontSize": 20}, "children": [{"text": "deep", "children": []}]}]}}"#,
        #"{"textLines": true, "root": {"children": [{"text": "a b c", "style": {"width": 40, "fontWeight": "300"}}]}}"#,
    ]) func textLeavesDecodeInOnePass(text: String) throws {
        let bytes = Array(text.utf8)
        let onePass = try #require(bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default) }, "\(text)")
        let tape = try LayoutWire.decodeRequest(JSONValue.parse(bytes: bytes))
        #expect(!onePass.textLeaves.isEmpty)
        expectSame(onePass, tape, text)
    }

    /// UTF-8 in strings: valid sequences are read in place (the same ids as from the tape),
    /// invalid ones make it give up, and the parser reports them at their offset.
    /// Numbers in every spelling near the whole-number fast path (up to nine digits, no sign)
    /// decode to the tape decoder's values; spellings JSON refuses are refused by both.
    @Test(arguments: ["0", "7", "24", "400", "999999999", "1000000000", "123456789012", "0.5", "24.0", "24.25",
                      "1e2", "1E2", "2e-1", "-3", "-0", "0e0", "01", "00", "1.", ".5", "1e", "+1"])
    func numbersDecodeAsFromTheTape(number: String) throws {
        let text = #"{"root": {"style": {"margin": "# + number + #", "flexGrow": "# + number + #"}}}"#
        let bytes = Array(text.utf8)
        let onePass = bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default) }
        let tape = Result { () throws(WireError) in try LayoutWire.decodeRequest(JSONValue.parse(bytes: bytes)) }
        switch (onePass, tape) {
        case (let a?, .success(let b)): expectSame(a, b, text)
        case (nil, .failure): break  // refused by both
        case (nil, .success): Issue.record("\(text): the one-pass decoder gave up on a valid request")
        case (_?, .failure(let error)): Issue.record("\(text): the one-pass decoder took what the tape refuses: \(error)")
        }
    }

    /// A caller's count of `{` (the server's admission estimate counts them) only sizes the
    /// tree's storage: any count, right or wrong, gives the same request.
    @Test(arguments: [nil, 0, 1, 7, 5_000]) func objectCountOnlySizesStorage(count: Int?) throws {
        var generator = RequestGenerator(seed: 3)
        let bytes = Array(generator.request().utf8)
        let plain = try LayoutWire.decodeRequest(bytes: bytes)
        expectSame(try LayoutWire.decodeRequest(bytes: bytes, objectCount: count), plain, "count \(String(describing: count))")
    }

    @Test func stringsAreCheckedAsUTF8() throws {
        let valid = Array(#"{"root": {"id": "café ✓ 𝄞", "children": [{"id": "日本"}]}}"#.utf8)
        let onePass = try #require(valid.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default) })
        #expect(onePass.ids == ["café ✓ 𝄞", "日本"])
        #expect(onePass.ids == (try LayoutWire.decodeRequest(JSONValue.parse(bytes: valid))).ids)
        let prefix = Array(#"{"root": {"id": "a"#.utf8), suffix = Array(#""}}"#.utf8)
        // Overlong, a lone continuation byte, a surrogate, past U+10FFFF, truncated.
        for bad: [UInt8] in [[0xC0, 0xAF], [0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x9C]] {
            let bytes = prefix + bad + suffix
            #expect(bytes.withUnsafeBufferPointer { OnePassDecoder.decode($0, limits: .default) } == nil)
            do throws(WireError) {
                _ = try LayoutWire.decodeRequest(bytes: bytes)
                Issue.record("invalid UTF-8 \(bad) was accepted")
            } catch {
                #expect(error.code == "invalid-utf8" && error.offset == prefix.count, "\(bad): \(error)")
            }
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
        #expect(a.textLeaves == b.textLeaves, "\(context)")
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
