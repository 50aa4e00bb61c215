import Testing
@testable import LayoutWire

/// Inputs found by the libFuzzer harnesses in Fuzz/Sources/FuzzWireDecoder and FuzzModels, kept
/// as regression tests.
@Suite struct WireFuzzRegressionTests {
    /// A member name that starts with a combining mark (U+064C) and holds a "/": the error
    /// pointer is "/" + the escaped name, byte for byte. The harness had checked it with
    /// `hasPrefix("/")`, which compares Characters, and "/" followed by a combining mark is one
    /// Character: the decoder was right, the check was not (it now compares bytes). The
    /// pointer must also survive the JSON error body unchanged.
    @Test func pointerOfAMemberNameStartingWithACombiningMark() throws {
        let body = Array("{\"\u{64C}min-size-/un\":{},\"od\":{}}".utf8)
        let error = try #require(throws: WireError.self) { try LayoutWire.decodeRequest(bytes: body) }
        #expect(error.code == "unknown-key")
        let pointer = try #require(error.pointer)
        #expect(Array(pointer.utf8) == Array("/\u{64C}min-size-~1un".utf8))
        #expect(pointer.utf8.first == UInt8(ascii: "/"))
        #expect(!pointer.hasPrefix("/"), "Swift compares Characters: the reason the check must use bytes")

        var writer = JSONWriter()
        writer.beginObject()
        writer.key("pointer"); writer.string(pointer)
        writer.endObject()
        let parsed = try JSONValue.parse(bytes: writer.bytes)
        #expect(parsed["pointer"]?.stringValue.map { Array($0.utf8) } == Array(pointer.utf8))
    }
}
