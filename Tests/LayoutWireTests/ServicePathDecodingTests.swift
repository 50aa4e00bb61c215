import Foundation
import LayoutEngine
import Testing
import TestSupport
@testable import LayoutWire

/// The service's decode and encode path: the parser's string storage, the pooled writer, and
/// the number formatter's fast path.
@Suite struct ServicePathDecodingTests {
    /// Strings without escapes point into the input's copy; with escapes they are unescaped
    /// after it. Both read back the same, also as object keys (duplicates across forms).
    @Test func stringsWithAndWithoutEscapesReadBack() throws {
        let doc = try JSONValue.parse(#"{"plain": "abc", "esc\u0061ped": "a\"b\\c\u00e9\ud83d\ude00", "tail": "xyz"}"#)
        #expect(doc["plain"]?.stringValue == "abc")
        #expect(doc["escaped"]?.stringValue == "a\"b\\c\u{e9}\u{1F600}")
        #expect(doc["tail"]?.stringValue == "xyz")
        #expect(doc.members.map(\.key) == ["plain", "escaped", "tail"])
        #expect(throws: WireError.self) { try JSONValue.parse(#"{"ab": 1, "a\u0062": 2}"#) }
        let limits = WireLimits(maxStringBytes: 3)
        #expect(throws: WireError.self) { try JSONValue.parse(#"["abcd"]"#, limits: limits) }
        #expect(throws: WireError.self) { try JSONValue.parse(#"["ab\u0063d"]"#, limits: limits) }
        #expect((try? JSONValue.parse(#"["abc", "a\u0062c"]"#, limits: limits)) != nil)
    }

    /// `decodeRequest(bytes:)` parses without copying the input (plain strings are read in
    /// place): escaped and plain strings, ids, keys and errors come out as from a parsed value.
    @Test func decodingBorrowedBytesMatchesDecodingAParsedValue() throws {
        let text = #"{"root": {"id": "r\u00e9", "style": {"width": 10, "fl\u0065xGrow": 1}, "children": [{"id": "plain", "measure": {"kind": "intrinsic-text", "text": "a\nb"}}, {"id": "x"}]}}"#
        let bytes = Array(text.utf8)
        let borrowed = try LayoutWire.decodeRequest(bytes: bytes)
        let parsed = try LayoutWire.decodeRequest(JSONValue.parse(bytes: bytes))
        #expect(borrowed.ids == ["r\u{e9}", "plain", "x"])
        #expect(borrowed.ids == parsed.ids)
        #expect(borrowed.tree.style(of: borrowed.root).flexGrow == 1)
        if case .intrinsicText(let text) = borrowed.tree.content(of: NodeID(1)) {
            #expect(text == "a\nb")
        } else {
            Issue.record("the measure was not decoded as intrinsic text")
        }
        let duplicate = #"{"root": {"style": {"width": 1, "wid\u0074h": 2}}}"#
        do throws(WireError) {
            _ = try LayoutWire.decodeRequest(bytes: Array(duplicate.utf8))
            Issue.record("a duplicate key was accepted")
        } catch {
            #expect(error.code == "duplicate-key")
            #expect(error.pointer == "/root/style/width")
        }
    }

    /// A copied writer is a separate value: writes to one do not show in the other.
    @Test func copiedWriterIsIndependent() {
        var a = JSONWriter(capacity: 4)
        a.beginArray()
        a.integer(1)
        var b = a
        b.integer(2)
        b.endArray()
        a.string("x")
        for i in 0..<200 { a.integer(i) }  // grows past the first block
        a.endArray()
        #expect(String(decoding: b.bytes, as: UTF8.self) == "[1,2]")
        let expected = "[1,\"x\"," + (0..<200).map(String.init).joined(separator: ",") + "]"
        #expect(String(decoding: a.bytes, as: UTF8.self) == expected)
    }

    /// The fast path writes what reads back as the same Float, whole numbers without a point.
    @Test func floatsRoundTripThroughTheWriter() throws {
        var values: [Float] = [0, -0.0, 1, -1, 12, 12.5, 0.5, 0.333, 1e-3, 999_999_936, 16_777_216, 0.1, 2.675, 33.333332]
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            values.append(Float(Int.random(in: -100_000...100_000, using: &generator)) / Float([1, 2, 4, 3, 10, 7][Int.random(in: 0..<6, using: &generator)]))
        }
        for value in values {
            var writer = JSONWriter()
            writer.number(value)
            let text = String(decoding: writer.bytes, as: UTF8.self)
            #expect(Float(text) == value, "\(value) written as \(text)")
            if value == value.rounded() { #expect(!text.contains("."), "\(value) written as \(text)") }
        }
        var writer = JSONWriter()
        writer.beginArray(); writer.number(Float.infinity); writer.number(Float(1e20)); writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[null,\(Float(1e20).description)]")
    }

    /// Whole numbers below 10,000 take a digit-pair path: every one of them, and the values
    /// around its edges, must read as the general path writes them.
    @Test func wholeNumbersBelowTenThousandAsIntegers() {
        var writer = JSONWriter()
        writer.beginArray()
        for n in 0..<10_000 { writer.number(Float(n)) }
        for value: Float in [-0.0, -1, -9999, 9999.5, 10_000, 10_001, 0.5, 99.25, .nan] { writer.number(value) }
        writer.endArray()
        let expected = (0..<10_000).map(String.init) + ["0", "-1", "-9999", "9999.5", "10000", "10001", "0.5", "99.25", "null"]
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[" + expected.joined(separator: ",") + "]")
    }

    @Test func scratchPoolKeepsABoundedNumberOfBlocks() throws {
        for _ in 0..<(ScratchPool.maxBlocks * 2) {
            _ = try JSONValue.parse(#"{"a": [1, 2, "three"]}"#)
        }
        let documents = try (0..<(ScratchPool.maxBlocks * 2)).map { _ in try JSONValue.parse("[1]") }
        #expect(documents.count == ScratchPool.maxBlocks * 2)
        #expect(ScratchPool.keptBlocks <= ScratchPool.maxBlocks)
    }
}
