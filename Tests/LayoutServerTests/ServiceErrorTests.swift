import LayoutServer
import LayoutWire
import Testing

/// The service's one error owner: wire errors mapped to statuses, and the error body.
@Suite struct ServiceErrorTests {
    static func wireError(_ text: String) -> WireError? {
        do {
            _ = try LayoutWire.decodeRequest(bytes: Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func eachKindOfWireErrorHasItsStatus() throws {
        #expect(ServiceError(try #require(Self.wireError("{"))).status == 400)
        #expect(ServiceError(try #require(Self.wireError(#"{"root":{"x":1}}"#))).status == 422)
        let deep = "{\"root\":" + String(repeating: "{\"children\":[", count: 1000) + "{}"
            + String(repeating: "]}", count: 1000) + "}"
        #expect(ServiceError(try #require(Self.wireError(deep))).status == 413)
    }

    @Test func errorsEncodeAsJSON() throws {
        let e = ServiceError(status: 422, code: "unknown-key", message: "unknown \"x\"", pointer: "/root/x")
        #expect(String(decoding: e.jsonBytes, as: UTF8.self)
                == #"{"error":{"status":422,"code":"unknown-key","message":"unknown \"x\"","pointer":"/root/x"}}"#)
        let json = try JSONValue.parse(bytes: e.jsonBytes)
        #expect(json["error"]?["offset"] == nil)
        let syntax = ServiceError(try #require(Self.wireError("{")))
        let encoded = try JSONValue.parse(bytes: syntax.jsonBytes)
        #expect(encoded["error"]?["status"]?.doubleValue == 400)
        #expect(encoded["error"]?["code"]?.stringValue == "invalid-json")
        #expect(encoded["error"]?["offset"]?.doubleValue == 1)
    }

    @Test func conflictsAreListedInTheBody() throws {
        let wire = try #require(Self.wireError(#"""
            {"root": {"children": [{"type": "constraints", "items": [{"id": "a"}],
              "constraints": ["a.width == 100", "a.width >= 120"]}]}}
            """#))
        let e = ServiceError(wire)
        #expect(e.status == 422 && e.code == "unsatisfiable-constraints")
        let json = String(decoding: e.jsonBytes, as: UTF8.self)
        #expect(json.contains(#""conflicts":["/root/children/0/constraints/0","/root/children/0/constraints/1"]"#))
    }
}
