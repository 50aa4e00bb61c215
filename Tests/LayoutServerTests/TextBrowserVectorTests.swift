import Foundation
import LayoutServer
import Testing

/// Text layout against Chromium: every vector of Tests/Fixtures/text-browser (made by
/// Tests/Scripts/text_browser_vectors.py with headless Chromium on the same DejaVu files, whose
/// sha256 it checks) is posted to a live server with `"textLines": true`, and the answer's text
/// leaves must agree with what Chromium laid out: the frames within 1/32 px (heights within
/// 0.05 px) and the text of every line of the first leaf. A case that disagrees must be listed,
/// with its reason, in known-differences.json; a listed case that agrees must be taken off the
/// list (Tests/Scripts/text_known_differences.py rewrites it from a run's report). The format and
/// the comparison rules are in FORMAT.md there. Without text support in the decoder (a 422 for
/// `text` or `textLines`) the comparison says so and stops.
@Suite struct TextBrowserVectorTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/Fixtures/text-browser")
    static let widthTolerance = 1.0 / 32
    static let heightTolerance = 0.05

    struct Vector {
        var id: String
        var group: String
        var request: [String: Any]
        var expected: [String: Any]
    }

    struct VectorFile {
        var name: String
        var fonts: [String: String]  // file name → sha256
        var vectors: [Vector]
    }

    static func vectorFiles() throws -> [VectorFile] {
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
            .filter { $0.hasSuffix(".json") && $0 != "known-differences.json" }.sorted()
        return try names.map { name in
            let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
            let doc = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(name)")
            let group = try #require(doc["group"] as? String, "\(name): group")
            let cases = try #require(doc["cases"] as? [[String: Any]], "\(name): cases")
            let vectors = try cases.map { c in
                Vector(id: try #require(c["id"] as? String), group: group,
                       request: try #require(c["request"] as? [String: Any]),
                       expected: try #require(c["expected"] as? [String: Any]))
            }
            return VectorFile(name: name, fonts: doc["fonts"] as? [String: String] ?? [:], vectors: vectors)
        }
    }

    /// known-differences.json: case id → (kind, reason).
    static func knownDifferences() throws -> [String: (kind: String, reason: String)] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("known-differences.json"))
        let doc = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var known: [String: (String, String)] = [:]
        for entry in try #require(doc["cases"] as? [[String: Any]]) {
            let id = try #require(entry["id"] as? String)
            let kind = try #require(entry["kind"] as? String)
            let reason = try #require(entry["reason"] as? String)
            #expect(["chromium-quirk", "engine-flex", "open"].contains(kind), "\(id): kind must be chromium-quirk, engine-flex or open")
            #expect(!reason.isEmpty, "\(id): a known difference needs its reason")
            #expect(known[id] == nil, "\(id) is listed twice")
            known[id] = (kind, reason)
        }
        return known
    }

    // MARK: Comparing

    /// A line's text as compared: white space a line ends with hangs and is dropped; where white
    /// space collapses (every `whiteSpace` but `pre` and `pre-wrap`) each run of it is one space
    /// and a line does not start with one.
    static func comparable(_ text: String, whiteSpace: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" }
        var chars = Array(text)
        while let last = chars.last, isSpace(last) { chars.removeLast() }
        guard whiteSpace != "pre" && whiteSpace != "pre-wrap" else { return String(chars) }
        var out = ""
        for c in chars {
            if isSpace(c) {
                if !out.isEmpty && out.last != " " { out.append(" ") }
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// The nodes from `node` down to the one with `id` (the root first), in a request or an
    /// answer; empty when there is none.
    static func path(to id: String, from node: [String: Any]?) -> [[String: Any]] {
        guard let node else { return [] }
        if node["id"] as? String == id { return [node] }
        for child in node["children"] as? [[String: Any]] ?? [] {
            let below = path(to: id, from: child)
            if !below.isEmpty { return [node] + below }
        }
        return []
    }

    /// The node with `id` in an answer (or a request).
    static func node(_ id: String, in answer: [String: Any]) -> [String: Any]? {
        path(to: id, from: answer["root"] as? [String: Any]).last
    }

    /// A style key's value for the first leaf (id `text`): its own, else its nearest
    /// container's that sets it (inherited).
    static func style(_ request: [String: Any], _ key: String) -> Any? {
        path(to: "text", from: request["root"] as? [String: Any]).reversed().lazy
            .compactMap { ($0["style"] as? [String: Any])?[key] }.first
    }

    /// The `whiteSpace` that applies to the leaf.
    static func whiteSpace(of request: [String: Any]) -> String {
        style(request, "whiteSpace") as? String ?? "normal"
    }

    static func number(_ object: [String: Any]?, _ key: String) -> Double? {
        (object?[key] as? NSNumber)?.doubleValue
    }

    static func format(_ x: Double) -> String { String(format: "%.4f", x) }

    /// One way the service's answer differs from Chromium's: what (`width`, `line count`, ...)
    /// and by how much.
    struct Disagreement: CustomStringConvertible {
        var kind: String
        var detail: String
        var description: String { "\(kind): \(detail)" }
    }

    /// Why the answer's text leaf disagrees with Chromium; empty when it agrees.
    static func disagreements(_ vector: Vector, answer: [String: Any]) -> [Disagreement] {
        guard let leaf = node("text", in: answer) else { return [Disagreement(kind: "answer", detail: "no text leaf")] }
        var reasons: [Disagreement] = []
        /// The frame of `node` against Chromium's; `name` prefixes the kinds of the other leaves.
        func compareFrame(_ node: [String: Any]?, _ frame: [String: Any]?, name: String) {
            for (key, tolerance) in [("left", widthTolerance), ("top", widthTolerance), ("width", widthTolerance),
                                     ("height", heightTolerance)] {
                guard let want = number(frame, key), let got = number(node, key) else {
                    reasons.append(Disagreement(kind: name + key, detail: "missing"))
                    continue
                }
                if abs(want - got) > tolerance {
                    reasons.append(Disagreement(kind: name + key,
                                                detail: "\(format(got)) vs Chromium \(format(want)) (Δ \(format(got - want)))"))
                }
            }
        }
        compareFrame(leaf, vector.expected["frame"] as? [String: Any], name: "")
        // The leaves beside the first (baseline, flexclamp and fitrow cases): their frames.
        for other in vector.expected["others"] as? [[String: Any]] ?? [] {
            compareFrame(node(other["id"] as? String ?? "", in: answer), other["frame"] as? [String: Any],
                         name: "other leaf ")
        }
        // The content-sized row holding the leaves (fitrow cases): its frame.
        if let row = vector.expected["row"] as? [String: Any] {
            compareFrame(node("row", in: answer), row, name: "row ")
        }
        let ws = whiteSpace(of: vector.request)
        let want = (vector.expected["lines"] as? [[String: Any]] ?? []).map { comparable($0["text"] as? String ?? "", whiteSpace: ws) }
        guard let lines = leaf["lines"] as? [[String: Any]] else {
            reasons.append(Disagreement(kind: "lines", detail: "the text leaf has none"))
            return reasons
        }
        let got = lines.map { comparable($0["text"] as? String ?? "", whiteSpace: ws) }
        let clamped = vector.expected["clamped"] as? Bool ?? false
        let ellipsis = style(vector.request, "textOverflow") as? String == "ellipsis"
        func agrees(_ k: Int) -> Bool {
            if clamped && k == got.count - 1 { return lineAgrees(got[k], want[k], ellipsized: true) }
            return lineAgrees(got[k], want[k], ellipsized: ellipsis && got[k].hasSuffix("…"))
        }
        if got.count != want.count {
            reasons.append(Disagreement(kind: "line count", detail: "\(got.count) vs Chromium \(want.count): \(got) vs \(want)"))
        } else if let k = got.indices.first(where: { !agrees($0) }) {
            reasons.append(Disagreement(kind: "line text", detail: "line \(k) \"\(got[k])\" vs Chromium \"\(want[k])\""))
        }
        return reasons
    }

    /// Whether a line's text agrees with Chromium's. An ellipsis (the last line of a clamped leaf,
    /// or a line too wide under `textOverflow: ellipsis`) is drawn by Chromium over the line's end
    /// without changing its text in the DOM: there the service's text before the "…" must begin
    /// Chromium's.
    static func lineAgrees(_ got: String, _ want: String, ellipsized: Bool) -> Bool {
        guard ellipsized else { return got == want }
        var shown = got
        if shown.hasSuffix("…") { shown.removeLast() }
        while shown.last == " " { shown.removeLast() }
        return got.hasSuffix("…") && want.hasPrefix(shown)
    }

    /// Line extents (left and width within 1/32 px) of the lines whose text agrees: reported,
    /// not asserted (Chromium's extents come from glyph rects, see FORMAT.md).
    static func extentsAgree(_ vector: Vector, answer: [String: Any]) -> Bool {
        let leaf = node("text", in: answer)
        let want = vector.expected["lines"] as? [[String: Any]] ?? []
        guard let got = leaf?["lines"] as? [[String: Any]], got.count == want.count else { return false }
        // An empty line has no glyph rect in Chromium, so no extent to compare.
        return zip(got, want).allSatisfy { g, w in
            (w["text"] as? String)?.allSatisfy(\.isWhitespace) ?? true || ["left", "width"].allSatisfy { key in
                guard let a = number(g, key), let b = number(w, key) else { return false }
                return abs(a - b) <= widthTolerance
            }
        }
    }

    // MARK: Fonts

    /// The font files the repository ships, by file name (found anywhere under Sources or a
    /// top-level Fonts folder), so vectors made with other files are caught.
    static func shippedFonts(named names: Set<String>) -> [String: URL] {
        var found: [String: URL] = [:]
        for folder in ["Sources", "Fonts", "fonts", "Resources"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where names.contains(url.lastPathComponent) {
                found[url.lastPathComponent] = url
            }
        }
        return found
    }

    static func sha256(_ url: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    // MARK: Tests

    @Test func theVectorsAreWellFormed() throws {
        let files = try Self.vectorFiles()
        let vectors = files.flatMap(\.vectors)
        #expect(vectors.count >= 300, "a few hundred cases")
        #expect(Set(vectors.map(\.id)).count == vectors.count, "case ids are unique")
        for file in files {
            #expect(file.fonts.count == 6, "\(file.name): the six shipped faces' sha256")
        }
        #expect(Set(files.map(\.fonts)).count == 1, "every group was made with the same font files")
        let known = try Self.knownDifferences()
        let ids = Set(vectors.map(\.id))
        for id in known.keys {
            #expect(ids.contains(id), "known-differences.json lists \(id), which no vector has")
        }
    }

    @Test func textAgreesWithChromium() throws {
        let files = try Self.vectorFiles()
        let vectors = files.flatMap(\.vectors)
        let known = try Self.knownDifferences()
        try LiveServer.with { server in
            // Until the service speaks text, the decoder refuses the text members: say so and stop.
            let probe = try server.post("/compute", json: String(decoding: try JSONSerialization.data(
                withJSONObject: vectors[0].request), as: UTF8.self))
            if probe.status == 422, let error = probe.error, error["code"] as? String == "unknown-key",
               let pointer = error["pointer"] as? String, pointer == "/textLines" || pointer.hasSuffix("/text") {
                print("TextBrowserVectorTests: SKIPPED \(vectors.count) text cases: the decoder rejects \(pointer) "
                      + "(\(error["message"] as? String ?? "")); the service does not lay out text yet")
                return
            }

            // The vectors were made with the files the service ships.
            let expectedFonts = files[0].fonts
            let shipped = Self.shippedFonts(named: Set(expectedFonts.keys))
            for (name, hash) in expectedFonts.sorted(by: { $0.key < $1.key }) {
                guard let url = shipped[name] else {
                    Issue.record("the vectors were made with \(name), which the repository does not ship")
                    continue
                }
                #expect(try Self.sha256(url) == hash, "\(url.path) is not the file the vectors were made with")
            }

            var agree = 0, extents = 0
            var byGroup: [String: (agree: Int, all: Int)] = [:]
            var report: [[String: Any]] = []
            var kinds: [String: Int] = [:]
            for vector in vectors {
                let body = String(decoding: try JSONSerialization.data(withJSONObject: vector.request), as: UTF8.self)
                let response = try server.post("/compute", json: body)
                var reasons: [Disagreement]
                var answer: [String: Any] = [:]
                if response.status == 200, let json = response.json as? [String: Any] {
                    answer = json
                    reasons = Self.disagreements(vector, answer: json)
                } else {
                    reasons = [Disagreement(kind: "HTTP \(response.status)", detail: String(response.text.prefix(300)))]
                }
                byGroup[vector.group, default: (0, 0)].all += 1
                if reasons.isEmpty {
                    agree += 1
                    byGroup[vector.group, default: (0, 0)].agree += 1
                    if Self.extentsAgree(vector, answer: answer) {
                        extents += 1
                    } else {
                        report.append(["id": vector.id, "reasons": ["line extents only"], "answer": answer,
                                       "expected": vector.expected])
                    }
                    if let listed = known[vector.id] {
                        Issue.record("\(vector.id) agrees with Chromium now: take it off known-differences.json (\(listed.reason))")
                    }
                } else {
                    for reason in reasons { kinds[reason.kind, default: 0] += 1 }
                    report.append(["id": vector.id, "reasons": reasons.map(\.description), "answer": answer, "expected": vector.expected])
                    if known[vector.id] == nil {
                        Issue.record("\(vector.id) disagrees with Chromium: \(reasons.map(\.description).joined(separator: "; "))")
                    }
                }
            }
            print("TextBrowserVectorTests: \(agree)/\(vectors.count) text cases agree with Chromium "
                  + "(known-differences.json lists \(known.values.filter { $0.kind == "open" }.count) open, "
                  + "\(known.values.filter { $0.kind == "engine-flex" }.count) of the engine's flex algorithm, "
                  + "\(known.values.filter { $0.kind == "chromium-quirk" }.count) Chromium quirks); "
                  + "line extents agree in \(extents) of the \(agree)")
            for (group, count) in byGroup.sorted(by: { $0.key < $1.key }) {
                print("  \(group): \(count.agree)/\(count.all)")
            }
            for (kind, count) in kinds.sorted(by: { $0.value > $1.value }) {
                print("  disagreements in \(kind): \(count)")
            }
            // The full list of disagreements, for whoever works through them.
            if let path = ProcessInfo.processInfo.environment["TEXT_VECTORS_REPORT"] {
                let data = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
                try data.write(to: URL(fileURLWithPath: path))
                print("  disagreements written to \(path)")
            }
        }
    }

    /// The comparison itself, on answers made from a vector's own expectations.
    @Test func theComparisonFindsEachKindOfDisagreement() throws {
        let vector = try #require(try Self.vectorFiles().flatMap(\.vectors).first {
            ($0.expected["lines"] as? [[String: Any]] ?? []).count >= 2
        })
        func answer(_ change: (inout [String: Any]) -> Void) -> [String: Any] {
            var leaf = vector.expected["frame"] as? [String: Any] ?? [:]
            leaf["id"] = "text"
            leaf["lines"] = vector.expected["lines"]
            change(&leaf)
            return ["root": ["id": "box", "left": 0, "top": 0, "children": [leaf]]]
        }
        func kinds(_ change: (inout [String: Any]) -> Void) -> [String] {
            Self.disagreements(vector, answer: answer(change)).map(\.kind)
        }
        let width = Self.number(vector.expected["frame"] as? [String: Any], "width") ?? 0
        let height = Self.number(vector.expected["frame"] as? [String: Any], "height") ?? 0
        #expect(kinds { _ in }.isEmpty)
        #expect(kinds { $0["width"] = width + 0.03 }.isEmpty)
        #expect(kinds { $0["width"] = width + 0.04 } == ["width"])
        #expect(kinds { $0["height"] = height - 0.04 }.isEmpty)
        #expect(kinds { $0["height"] = height - 0.06 } == ["height"])
        #expect(kinds { $0["lines"] = ($0["lines"] as? [Any])?.dropLast().map { $0 } } == ["line count"])
        #expect(kinds {
            var lines = $0["lines"] as? [[String: Any]] ?? []
            lines[0]["text"] = "x" + (lines[0]["text"] as? String ?? "")
            $0["lines"] = lines
        } == ["line text"])
        #expect(kinds { $0["lines"] = nil } == ["lines"])
    }

    /// Leaves below a row (the fitrow group): found by id, and the row's frame compared.
    @Test func theComparisonFindsLeavesInARowAndTheRowsFrame() throws {
        let vector = try #require(try Self.vectorFiles().flatMap(\.vectors).first { $0.expected["row"] != nil })
        func answer(rowWidth: Double) -> [String: Any] {
            var leaf = vector.expected["frame"] as? [String: Any] ?? [:]
            leaf["id"] = "text"
            leaf["lines"] = vector.expected["lines"]
            let others: [[String: Any]] = (vector.expected["others"] as? [[String: Any]] ?? []).map {
                var frame = $0["frame"] as? [String: Any] ?? [:]
                frame["id"] = $0["id"]
                return frame
            }
            var row = vector.expected["row"] as? [String: Any] ?? [:]
            row["id"] = "row"
            row["width"] = rowWidth
            row["children"] = [leaf] + others
            return ["root": ["id": "box", "children": [row]]]
        }
        let width = try #require(Self.number(vector.expected["row"] as? [String: Any], "width"))
        #expect(Self.disagreements(vector, answer: answer(rowWidth: width)).isEmpty)
        #expect(Self.disagreements(vector, answer: answer(rowWidth: width + 1)).map(\.kind) == ["row width"])
    }

    @Test func lineTextComparisonRules() {
        #expect(Self.lineAgrees("fox jumps…", "fox jumps over", ellipsized: true))
        #expect(Self.lineAgrees("fox jumps over…", "fox jumps over", ellipsized: true))
        #expect(!Self.lineAgrees("fox jumps over", "fox jumps over", ellipsized: true))
        #expect(!Self.lineAgrees("fox jumped…", "fox jumps over", ellipsized: true))
        #expect(!Self.lineAgrees("fox…", "fox jumps", ellipsized: false))
        #expect(Self.comparable("hello  world ", whiteSpace: "normal") == "hello world")
        #expect(Self.comparable(" a\nb", whiteSpace: "pre-line") == "a b")
        #expect(Self.comparable("  a  b  ", whiteSpace: "pre-wrap") == "  a  b")
        #expect(Self.comparable("  a  b\n", whiteSpace: "pre") == "  a  b")
    }
}
