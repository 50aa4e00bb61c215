import TestSupport
import Testing
@testable import LayoutWire

/// Damaged input never traps: it decodes or fails with a 4xx WireError.
@Suite struct RobustnessTests {
    @Test func mutatedRequestsFailCleanly() throws {
        let original = Array(#"""
        {"available": {"width": 300, "height": null}, "direction": "rtl", "config": {"errata": ["none"]},
         "root": {"id": "r\u00e9", "style": {"width": "50%", "padding": 4, "flexDirection": "row"},
                  "children": [{"id": "a", "measure": {"kind": "intrinsic-text", "text": "hi there"}},
                               {"style": {"margin": -1.5e1, "alignSelf": "center"}, "children": []}]}}
        """#.utf8)
        _ = try LayoutWire.decodeRequest(bytes: original)
        let alphabet = Array(#"{}[]":,-0123456789.eE+truefalsnl\u%/ é"#.utf8) + [0x00, 0xFF, 0xC3]
        var random = SplitMix64(seed: 0x5EED)
        var outcomes: [Int: Int] = [:]
        for _ in 0..<5_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[at] = alphabet.randomElement(using: &random)!
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
                default: bytes.removeSubrange(at...)
                }
                if bytes.isEmpty { break }
            }
            do {
                let request = try LayoutWire.decodeRequest(bytes: bytes)
                #expect(request.ids.count == request.tree.nodeCount)
                outcomes[200, default: 0] += 1
            } catch {
                #expect(!error.message.isEmpty)
                if error.kind == .malformed { #expect(error.offset != nil && error.offset! <= bytes.count) }
                if error.kind == .invalid { #expect(error.pointer != nil) }
                // Counted under the status the service answers each kind with.
                outcomes[[WireError.Kind.malformed: 400, .overLimit: 413, .invalid: 422][error.kind]!, default: 0] += 1
            }
        }
        // The mutations reach both the parser and the decoder.
        #expect(outcomes[400, default: 0] > 0)
        #expect(outcomes[422, default: 0] > 0)
    }

    /// Every prefix of a valid document is refused with an offset inside it.
    @Test func everyTruncationIsASyntaxError() {
        let text = Array(#"{"root": {"id": "x", "style": {"width": 12.5e0}, "children": [{}]}}"#.utf8)
        for length in 0..<text.count {
            do {
                _ = try JSONValue.parse(bytes: Array(text[..<length]))
                Issue.record("prefix of \(length) bytes parsed")
            } catch {
                #expect(error.kind == .malformed)
                #expect(error.offset.map { $0 <= length } == true)
            }
        }
    }
}
