import Foundation
import LayoutEngine
import LayoutWire

/// One case of the Yoga conformance vectors (`Tests/Fixtures/yoga/*.json`, see FORMAT.md).
struct YogaCase {
    var file: String
    var name: String
    var tags: [String]
    var tolerance: Float
    /// The layout call, as a wire request.
    var request: JSONValue
    var expected: JSONValue

    var isSkippedUpstream: Bool { tags.contains("skipped-upstream") }
}

/// A node whose frame differs from the expected one.
struct FrameMismatch: CustomStringConvertible {
    var id: String
    var expected: Frame
    var actual: Frame
    var description: String { "\(id): expected \(expected), got \(actual)" }
}

enum YogaFixtures {
    /// `Tests/Fixtures/yoga`, found from this source file.
    static var directory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent("yoga")
    }

    /// Every case of every vector file, in file order.
    static func loadAll() throws -> [YogaCase] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        var cases: [YogaCase] = []
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(file)))
            let document = try JSONValue.parse(bytes: bytes, limits: unlimited)
            for element in document.elements {
                cases.append(try makeCase(element, file: file))
            }
        }
        return cases
    }

    static var unlimited: WireLimits {
        var limits = WireLimits.default
        limits.maxDocumentBytes = 1 << 30
        limits.maxStringBytes = 1 << 30
        limits.maxNodes = 1 << 24
        return limits
    }

    static func makeCase(_ element: JSONValue, file: String) throws -> YogaCase {
        // The request is the case without its bookkeeping keys.
        var request: [UInt8] = Array("{".utf8)
        var first = true
        for key in ["config", "available", "direction", "root"] {
            guard let value = element[key] else { continue }
            if !first { request.append(UInt8(ascii: ",")) }
            first = false
            request += Array("\"\(key)\":".utf8)
            request += value.jsonBytes()
        }
        request.append(UInt8(ascii: "}"))
        return YogaCase(
            file: file,
            name: element["name"]?.stringValue ?? "?",
            tags: element["tags"]?.elements.compactMap(\.stringValue) ?? [],
            tolerance: Float(element["tolerance"]?.doubleValue ?? 0.01),
            request: try JSONValue.parse(bytes: request, limits: unlimited),
            expected: element["expected"]!)
    }

    /// Lays out one case and returns the nodes whose frames are off by more than the tolerance.
    static func run(_ yogaCase: YogaCase) throws -> [FrameMismatch] {
        var request = try LayoutWire.decodeRequest(yogaCase.request, limits: unlimited)
        request.computeLayout()
        var byID: [String: NodeID] = [:]
        for (index, id) in request.ids.enumerated() {
            if let id { byID[id] = NodeID(index) }
        }
        var mismatches: [FrameMismatch] = []
        func check(_ expected: JSONValue) {
            let id = expected["id"]?.stringValue ?? "?"
            let want = Frame(left: Float(expected["left"]?.doubleValue ?? .nan),
                             top: Float(expected["top"]?.doubleValue ?? .nan),
                             width: Float(expected["width"]?.doubleValue ?? .nan),
                             height: Float(expected["height"]?.doubleValue ?? .nan))
            let got = byID[id].map { request.tree.frame(of: $0) }
                ?? Frame(left: .nan, top: .nan, width: .nan, height: .nan)
            let t = yogaCase.tolerance
            if !(abs(want.left - got.left) <= t && abs(want.top - got.top) <= t
                 && abs(want.width - got.width) <= t && abs(want.height - got.height) <= t) {
                mismatches.append(FrameMismatch(id: id, expected: want, actual: got))
            }
            for child in expected["children"]?.elements ?? [] { check(child) }
        }
        check(yogaCase.expected)
        return mismatches
    }
}
