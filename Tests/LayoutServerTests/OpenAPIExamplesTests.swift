import Foundation
import LayoutServer
import Testing

/// The /compute examples of openapi.yaml are real: each is posted to a live server and must
/// be answered 200 with exactly the documented response.
///
/// How the examples are found without a YAML parser: each one lives in
/// Tests/Fixtures/openapi-examples as `<name>.request.json` and `<name>.response.json`, one
/// line of minified JSON each, and openapi.yaml holds the same text verbatim as the `value:`
/// of `components/examples/<Name>Request` and `<Name>Response` (JSON is YAML flow syntax, so
/// the line is valid YAML as it stands). The test reads those `value:` lines by their fixed
/// indentation, and checks that the YAML and the fixtures hold the same requests, each paired
/// with the same response; then it posts every fixture. Editing an example in one place only,
/// or adding one without its fixture, fails here.
@Suite struct OpenAPIExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/Fixtures/openapi-examples")

    /// `components/examples` of openapi.yaml: example name → the text after `value: `.
    static func yamlExampleValues() throws -> [String: String] {
        let yaml = try String(contentsOf: root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "  examples:") else { return [:] }
        var values: [String: String] = [:]
        var name: String?
        for line in lines[(start + 1)...] {
            if !line.hasPrefix("    ") && !line.isEmpty { break }  // the next components section
            if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                name = String(line.dropFirst(4).dropLast())
            } else if let name, line.hasPrefix("      value: ") {
                values[name] = String(line.dropFirst("      value: ".count))
            }
        }
        return values
    }

    /// The fixture pairs: request text → response text (both trimmed).
    static func fixturePairs() throws -> [(name: String, request: String, response: String)] {
        let files = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
        return try files.filter { $0.hasSuffix(".request.json") }.sorted().map { file in
            let name = String(file.dropLast(".request.json".count))
            func text(_ suffix: String) throws -> String {
                try String(contentsOf: fixtures.appendingPathComponent(name + suffix), encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return (name, try text(".request.json"), try text(".response.json"))
        }
    }

    @Test func theYAMLExamplesAreTheFixturesVerbatim() throws {
        let values = try Self.yamlExampleValues()
        let pairs = try Self.fixturePairs()
        // One example per model at least: flex, stack, core-layout and the three constraint kinds.
        #expect(pairs.count >= 6)
        var yamlPairs: [String: String] = [:]  // request text → its response's text
        for (name, value) in values where name.hasSuffix("Request") {
            let response = values[String(name.dropLast("Request".count)) + "Response"]
            #expect(response != nil, "\(name) has no response example")
            yamlPairs[value] = response
        }
        #expect(yamlPairs.count == pairs.count, "openapi.yaml and Tests/Fixtures/openapi-examples hold different examples")
        for pair in pairs {
            #expect(yamlPairs[pair.request] != nil, "\(pair.name).request.json is not in openapi.yaml verbatim")
            if let response = yamlPairs[pair.request] {
                #expect(response == pair.response, "openapi.yaml pairs \(pair.name)'s request with another response")
            }
        }
    }

    @Test func computeRequestExamplesAreListedUnderCompute() throws {
        let yaml = try String(contentsOf: Self.root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        for name in try Self.yamlExampleValues().keys where name.hasSuffix("Request") {
            #expect(yaml.contains("$ref: \"#/components/examples/\(name)\""), "\(name) is not referenced")
        }
    }

    @Test func everyExampleIsAnsweredAsDocumented() throws {
        let pairs = try Self.fixturePairs()
        #expect(!pairs.isEmpty)
        try LiveServer.with { server in
            for pair in pairs {
                let response = try server.post("/compute", json: pair.request)
                #expect(response.status == 200, "\(pair.name): \(response.text)")
                let answer = try #require(response.json as? NSDictionary, "\(pair.name)")
                let documented = try #require(
                    try JSONSerialization.jsonObject(with: Data(pair.response.utf8)) as? NSDictionary, "\(pair.name)")
                #expect(answer == documented, "\(pair.name): answered \(response.text)")
            }
        }
    }
}
