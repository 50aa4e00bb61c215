import Foundation
import LayoutEngine
@testable import LayoutServer
import LayoutWire
import Testing

/// openapi.yaml's error table against what the service answers: for every code a request
/// (or batch) that draws it, answered with that status and code, and the code named in the
/// description of that status's response in openapi.yaml — one code per rule, no code the
/// spec does not list.
@Suite struct ErrorTableTests {
    struct Case: CustomStringConvertible, Sendable {
        var code: String
        var status: Int
        var body: [UInt8]
        var limits: WireLimits = .default
        var batch = false
        var description: String { code }
    }

    static func limits(_ change: (inout WireLimits) -> Void) -> WireLimits {
        var limits = WireLimits.default
        change(&limits)
        return limits
    }

    static let cases: [Case] = [
        Case(code: "invalid-json", status: 400, body: Array(#"{"root": "#.utf8)),
        Case(code: "invalid-utf8", status: 400, body: Array(#"{"root": {"id": ""#.utf8) + [0xFF] + Array(#""}}"#.utf8)),
        Case(code: "document-too-large", status: 413, body: Array(#"{"root": {}}"#.utf8),
             limits: limits { $0.maxDocumentBytes = 4 }),
        Case(code: "too-many-nodes", status: 413, body: Array(#"{"root": {"children": [{}, {}]}}"#.utf8),
             limits: limits { $0.maxNodes = 2 }),
        Case(code: "too-deep", status: 413, body: Array(#"{"root": {"children": [{"children": [{}]}]}}"#.utf8),
             limits: WireLimits(maxDepth: 2, maxNesting: 100)),
        Case(code: "string-too-long", status: 413, body: Array(#"{"root": {"id": "abcdefgh"}}"#.utf8),
             limits: limits { $0.maxStringBytes = 4 }),
        Case(code: "too-many-constraints", status: 413,
             body: Array(#"{"root": {"type": "constraints", "items": [{"id": "a"}, {"id": "b"}], "constraints": ["a.width == b.width"]}}"#.utf8),
             limits: limits { $0.constraintSolver.maxVariables = 2 }),
        Case(code: "reference-chain-too-long", status: 413,
             body: Array(#"{"root": {"children": [{"id": "a"}, {"id": "b", "style": {"width": {"of": "a"}}}, {"style": {"width": {"of": "b"}}}]}}"#.utf8),
             limits: limits { $0.maxSizeReferenceChain = 1 }),
        Case(code: "too-many-items", status: 413, body: Array(#"[{"root": {}}, {"root": {}}]"#.utf8), batch: true),
        Case(code: "wrong-type", status: 422, body: Array(#"{"root": 1}"#.utf8)),
        Case(code: "unknown-key", status: 422, body: Array(#"{"root": {}, "roots": 1}"#.utf8)),
        Case(code: "unknown-value", status: 422, body: Array(#"{"root": {"style": {"display": "block"}}}"#.utf8)),
        Case(code: "missing-key", status: 422, body: Array(#"{"available": null}"#.utf8)),
        Case(code: "invalid-value", status: 422, body: Array(#"{"root": {"style": {"width": -1}}}"#.utf8)),
        Case(code: "not-representable", status: 422, body: Array(#"{"root": {"style": {"width": 1e39}}}"#.utf8)),
        Case(code: "duplicate-key", status: 422, body: Array(#"{"root": {}, "root": {}}"#.utf8)),
        Case(code: "measure-with-children", status: 422,
             body: Array(#"{"root": {"measure": {"kind": "fixed", "width": 1, "height": 1}, "children": [{}]}}"#.utf8)),
        Case(code: "unsatisfiable-constraints", status: 422,
             body: Array(#"{"root": {"type": "constraints", "items": [{"id": "a"}], "constraints": ["a.width == 100", "a.width == 200"]}}"#.utf8)),
        Case(code: "layout-overflow", status: 422,
             body: Array(#"{"root": {"style": {"flexDirection": "row"}, "children": [{"style": {"width": 3e38}}, {"style": {"width": 3e38}}]}}"#.utf8)),
    ]

    /// Codes the table lists that no request reaching the decoders can draw: the engine's own
    /// checks behind the decoders' (`invalid-style`) and solver failures other than a conflict
    /// or a limit (`solver-failed`). They stay documented for completeness.
    static let defensiveCodes: [(code: String, status: Int)] = [("invalid-style", 422), ("solver-failed", 422)]

    /// Codes of the HTTP layer and the service around the decoders, drawn by their own tests
    /// (RefusalEnvelopeTests, RouteTests, AdmissionTests).
    static let serviceCodes: [(code: String, status: Int)] = [
        ("payload-too-large", 413), ("unsupported-media-type", 415), ("overloaded", 503),
    ]

    /// The description of `components/responses/<name>` in openapi.yaml.
    static func responseDescription(status: Int) throws -> String {
        let name = [400: "BadRequest", 413: "TooLarge", 415: "UnsupportedMediaType", 422: "Unprocessable",
                    503: "Overloaded"][status]!
        let yaml = try String(contentsOf: OpenAPIExamplesTests.root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "    \(name):") else { return "" }
        var text = ""
        for line in lines[(start + 1)...] {
            if line.hasPrefix("    ") && !line.hasPrefix("     ") { break }
            text += line + "\n"
        }
        return text
    }

    @Test(arguments: cases)
    func eachCodeIsAnsweredAndDocumented(_ c: Case) throws {
        let answer: (status: Int, body: [UInt8])
        if c.batch {
            let computer = LayoutComputer(cache: FrameCache(capacityBytes: 0, shardCount: 1), limits: c.limits)
            answer = BatchComputer(computer: computer, maxItems: 1).answer(body: c.body)
        } else {
            answer = LayoutOnce.answer(body: c.body, limits: c.limits)
        }
        let error = (try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["error"] as? [String: Any]
        #expect(answer.status == c.status, "\(String(decoding: answer.body, as: UTF8.self))")
        #expect(error?["code"] as? String == c.code, "\(String(decoding: answer.body, as: UTF8.self))")
        #expect(error?["status"] as? Int == c.status)
        #expect(try Self.responseDescription(status: c.status).contains("`\(c.code)`"),
                "openapi.yaml's \(c.status) response does not list \(c.code)")
    }

    @Test func theOtherCodesAreDocumentedToo() throws {
        for (code, status) in Self.defensiveCodes + Self.serviceCodes {
            let description = try Self.responseDescription(status: status)
            #expect(description.contains("`\(code)`") || description.contains("code: \(code)"),
                    "openapi.yaml's \(status) response does not list \(code)")
        }
    }
}
