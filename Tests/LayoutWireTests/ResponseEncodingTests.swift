import LayoutEngine
import Testing
import TestSupport
@testable import LayoutWire

@Suite struct ResponseEncodingTests {
    private func float(_ value: Float) -> String {
        var bytes: [UInt8] = []
        JSONNumber.write(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func numberFormatting() {
        #expect(float(0) == "0")
        #expect(float(-0.0) == "0")
        #expect(float(12) == "12")
        #expect(float(-12) == "-12")
        #expect(float(12.5) == "12.5")
        #expect(float(0.1) == "0.1")
        #expect(float(1.0 / 3.0) == "0.33333334")
        #expect(float(100_000_000) == "100000000")
        #expect(float(0.001) == "0.001")
        #expect(float(.nan) == "null")
        #expect(float(.infinity) == "null")
        #expect(float(3.4028235e38) == "3.4028235e+38")
    }

    /// Every written Float reads back as itself. Whole values below 1e9 are plain digits (a
    /// client reads `821000000`, never `8.21e+08`); the others are no longer than Swift's
    /// shortest form, one byte of slack for its exponent's spelling aside. Seeded, so a
    /// failure replays; several seeds, so more than one sample set is tried.
    @Test(arguments: [UInt64(1), 2, 3, 0x5EED])
    func floatsRoundTripShortest(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var samples: [Float] = [1e-7, 1e-4, 999_999_936, 1_000_000_000, 16_777_216, 821_000_000, 0.3, 123.456,
                                1e-3, 9.999e-4]
        for _ in 0..<20_000 {
            samples.append(Float(bitPattern: UInt32.random(in: 0..<0x7F80_0000, using: &generator)))
            samples.append(Float(Int.random(in: -100_000...100_000, using: &generator))
                / Float([1, 2, 4, 10, 100, 3].randomElement(using: &generator)!))
        }
        for value in samples {
            let text = float(value)
            #expect(Float(text) == value, "\(value) -> \(text)")
            if value == value.rounded() && value.magnitude < 1e9 {
                #expect(text == String(Int64(value)), "\(value) -> \(text)")
            } else {
                #expect(text.count <= value.description.count + 1, "\(value) -> \(text)")
            }
        }
    }

    @Test func responseShape() throws {
        let request = try LayoutWire.decodeRequest(bytes: Array(#"""
        {"root": {"id": "r\"/", "children": [{"id": "a", "children": [{}]}, {"id": "b"}]}}
        """#.utf8))
        let response = try JSONValue.parse(bytes: LayoutWire.encodeResponse(request))
        #expect(response.members.map(\.key) == ["root"])
        let root = try #require(response["root"])
        #expect(root.members.map(\.key) == ["id", "left", "top", "width", "height", "children"])
        #expect(root["id"]?.stringValue == "r\"/")
        let a = try #require(root["children"]?[0])
        #expect(a["id"]?.stringValue == "a")
        let leaf = try #require(a["children"]?[0])
        #expect(leaf.members.map(\.key) == ["left", "top", "width", "height"])
        #expect(root["children"]?[1]?["id"]?.stringValue == "b")
        #expect(root["children"]?[1]?["children"] == nil)
        for key in ["left", "top", "width", "height"] {
            #expect(leaf[key]?.doubleValue == Double(request.tree.frame(of: NodeID(2)).value(key)))
        }
    }

    /// A response for a deep chain is written without recursion and parses back.
    @Test func deepResponse() throws {
        let depth = 1_000
        let text = "{\"root\":" + String(repeating: "{\"children\":[", count: depth - 1) + "{}"
            + String(repeating: "]}", count: depth - 1) + "}"
        let request = try LayoutWire.decodeRequest(bytes: Array(text.utf8))
        var node = try JSONValue.parse(bytes: LayoutWire.encodeResponse(request))["root"]
        var levels = 0
        while let current = node { levels += 1; node = current["children"]?[0] }
        #expect(levels == depth)
    }
}

private extension Frame {
    func value(_ key: String) -> Float {
        switch key {
        case "left": return left
        case "top": return top
        case "width": return width
        default: return height
        }
    }
}
