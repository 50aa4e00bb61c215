import Foundation
import LayoutText
import LayoutTextModel
import SyncSupport
@_spi(Fuzzing) import LayoutWire
import LayoutEngine
@testable import LayoutServer
import Testing
import TestSupport

// Text leaves through the service (`LayoutOnce`, the /compute path without a server): frames
// from real fonts, lines, warnings, fit-content and baseline alignment, and the hash.
@Suite struct TextServiceTests {
    /// pointScaleFactor 0: frames unrounded, as Chromium reports them.
    private func answer(_ root: String, extra: String = "", config: String = #"{"pointScaleFactor":0}"#) throws -> [String: Any] {
        let body = #"{"config":"# + config + #","available":{"width":300,"height":null}"# + extra + #","root":"# + root + "}"
        let result = LayoutOnce.answer(body: Array(body.utf8))
        #expect(result.status == 200, "\(String(decoding: result.body, as: UTF8.self))")
        return try JSONSerialization.jsonObject(with: Data(result.body)) as? [String: Any] ?? [:]
    }
    private func children(_ answer: [String: Any]) -> [[String: Any]] {
        (answer["root"] as? [String: Any])?["children"] as? [[String: Any]] ?? []
    }

    @Test func aLabelGetsItsTextsSize() throws {
        // Chromium, DejaVu Sans 16 px: 51.6875 x 19.
        let leaves = children(try answer(#"{"style":{"width":300,"alignItems":"flex-start"},"children":[{"text":"Item 1"}]}"#))
        #expect(leaves[0]["width"] as? Double == 51.6875)
        #expect(leaves[0]["height"] as? Double == 19)
        #expect(leaves[0]["lines"] == nil)
    }

    @Test func stretchedTextWrapsAtTheContainerWidth() throws {
        let root = #"{"style":{"width":150},"children":[{"text":"The quick brown fox jumps over the lazy dog"}]}"#
        let leaf = children(try answer(root, extra: #","textLines":true"#))[0]
        #expect(leaf["width"] as? Double == 150 && leaf["height"] as? Double == 57)
        let lines = leaf["lines"] as? [[String: Any]] ?? []
        #expect(lines.compactMap { $0["text"] as? String } == ["The quick brown", "fox jumps over", "the lazy dog"])
        #expect(lines.compactMap { $0["top"] as? Double } == [0, 19, 38])
        #expect(lines.compactMap { $0["baseline"] as? Double } == [15, 34, 53])
    }

    /// Text leaves are sized as CSS sizes flex items (`FlexItemSizing.css`): in a row too narrow
    /// for them they stop at their longest word, unless `minWidth` or `overflow` says otherwise.
    @Test func textInARowShrinksToItsLongestWordAndNoFurther() throws {
        let texts = ["extraordinary words", "unbelievable length"]
        // Each leaf's min-content width: alone in a 0 px column, it is as wide as its longest word.
        let minContent = try texts.map { text in
            try #require(children(try answer(#"{"style":{"width":0,"alignItems":"flex-start"},"children":[{"text":"\#(text)"}]}"#))[0]["width"] as? Double)
        }
        func widths(_ leafStyle: String) throws -> [Double] {
            let leaves = texts.map { #"{"text":"\#($0)","style":{"flexShrink":1\#(leafStyle)}}"# }.joined(separator: ",")
            return children(try answer(#"{"style":{"width":60,"flexDirection":"row","alignItems":"flex-start"},"children":[\#(leaves)]}"#))
                .compactMap { $0["width"] as? Double }
        }
        #expect(minContent.allSatisfy { $0 > 60 / 2 })
        #expect(try widths("") == minContent)
        for style in [#","minWidth":0"#, #","overflow":"hidden""#] {
            let shrunk = try widths(style)
            #expect(shrunk.count == 2 && abs(shrunk.reduce(0, +) - 60) < 0.001 && zip(shrunk, minContent).allSatisfy { $0 < $1 })
        }
    }

    /// A row sized to fit its content, in a column narrower than its text: each text item adds
    /// its min-content contribution to the row's width — its definite width, else its min-content
    /// width, clamped by min and max, whatever its automatic minimum. Frames from Chromium
    /// 156.0.8078.108 (DejaVu Sans 16 px, web defaults; items within 1/32 px).
    @Test func aFitContentRowAddsItsItemsMinContentContributions() throws {
        let cases: [(first: String, second: String, row: Double, items: [Double])] = [
            ("", "", 315.75, [147.375, 168.375]),
            (#""overflow":"hidden""#, "", 315.75, [147.375, 168.375]),
            (#""minWidth":30"#, "", 315.75, [147.375, 168.375]),
            (#""width":200"#, "", 368.375, [192.40625, 175.96875]),
            (#""width":60"#, "", 228.375, [60, 168.375]),
            (#""overflow":"hidden","maxWidth":100"#, #""flexShrink":0,"minWidth":20"#, 268.375, [85.453125, 182.921875]),
        ]
        for (first, second, rowWidth, itemWidths) in cases {
            let row = #"{"style":{"flexDirection":"row"},"children":[{"text":"Supercalifragilistic word","style":{\#(first)}},"#
                + #"{"text":"Antidisestablishment x","style":{\#(second)}}]}"#
            let body = #"{"style":{"width":100,"flexDirection":"column","alignItems":"flex-start"},"children":[\#(row)]}"#
            let answer = try answer(body, config: #"{"pointScaleFactor":0,"useWebDefaults":true}"#)
            let laidOut = try #require(children(answer).first)
            #expect(laidOut["width"] as? Double == rowWidth, "\(first) \(second)")
            let widths = (laidOut["children"] as? [[String: Any]] ?? []).compactMap { $0["width"] as? Double }
            #expect(widths.count == 2 && zip(widths, itemWidths).allSatisfy { abs($0 - $1) <= 1.0 / 32 }, "\(first) \(second): \(widths)")
        }
    }

    @Test func linesAreRelativeToTheContentBoxAndAligned() throws {
        let root = #"{"style":{"width":200},"children":[{"style":{"padding":10,"textAlign":"center"},"text":"ab"}]}"#
        let leaf = children(try answer(root, extra: #","textLines":true"#))[0]
        let line = (leaf["lines"] as? [[String: Any]])?.first ?? [:]
        let width = line["width"] as? Double ?? 0
        #expect(leaf["height"] as? Double == 39)
        #expect(abs((line["left"] as? Double ?? 0) - (180 - width) / 2) < 1e-4)
    }

    @Test func clampedSubtitleEndsInAnEllipsis() throws {
        let root = #"{"style":{"width":150},"children":[{"style":{"maxLines":2,"textOverflow":"ellipsis"},"text":"The quick brown fox jumps over the lazy dog"}]}"#
        let leaf = children(try answer(root, extra: #","textLines":true"#))[0]
        #expect(leaf["height"] as? Double == 38)
        let lines = leaf["lines"] as? [[String: Any]] ?? []
        #expect(lines.count == 2 && (lines[1]["text"] as? String)?.hasSuffix("\u{2026}") == true)
    }

    @Test func baselineAlignmentUsesTheFirstLine() throws {
        let root = #"{"style":{"flexDirection":"row","alignItems":"baseline"},"children":[{"text":"Big","style":{"fontSize":32}},{"text":"small","style":{"padding":5}}]}"#
        let leaves = children(try answer(root))
        // DejaVu Sans: ascent 30 at 32 px, 15 at 16 px; the small one has 5 px padding above.
        let bigTop = leaves[0]["top"] as? Double ?? -1, smallTop = leaves[1]["top"] as? Double ?? -1
        #expect(bigTop + 30 == smallTop + 5 + 15)
    }

    @Test func baselineAlignmentCountsPercentagePadding() throws {
        // A percentage padding resolves against the row's width (200 px): 10% is 20 px above
        // the small text (the baseline hook once counted percentages as 0).
        let root = #"{"style":{"width":200,"flexDirection":"row","alignItems":"baseline"},"children":["#
            + #"{"text":"Big","style":{"fontSize":32}},"#
            + #"{"text":"small words","style":{"paddingTop":"10%","paddingLeft":"25%","paddingRight":"25%","flexShrink":0}}]}"#
        let leaves = children(try answer(root))
        let bigTop = leaves[0]["top"] as? Double ?? -1, smallTop = leaves[1]["top"] as? Double ?? -1
        // DejaVu Sans: ascent 30 at 32 px, 15 at 16 px.
        #expect(bigTop + 30 == smallTop + 20 + 15)
    }

    @Test func badTextKeysAre422WithPointers() throws {
        let bad = LayoutOnce.answer(body: Array(#"{"root":{"children":[{"text":"a","style":{"textAlign":"middle"}}]}}"#.utf8))
        #expect(bad.status == 422)
        let error = (try JSONSerialization.jsonObject(with: Data(bad.body)) as? [String: Any])?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "unknown-value")
        #expect(error?["pointer"] as? String == "/root/children/0/style/textAlign")
        let span = LayoutOnce.answer(body: Array(#"{"root":{"text":[{"text":"a","style":{"color":"red"}}]}}"#.utf8))
        #expect(span.status == 422)
    }

    @Test func unknownFamiliesAreReported() throws {
        let result = try answer(#"{"style":{"fontFamily":"Comic Sans MS"},"children":[{"text":"hi"}]}"#)
        let warnings = result["warnings"] as? [[String: Any]] ?? []
        #expect(warnings.count == 1)
        #expect(warnings.first?["code"] as? String == "unknown-font-family")
        #expect(warnings.first?["pointer"] as? String == "/root/children/0")
        #expect(children(result)[0]["width"] as? Double == children(try answer(#"{"children":[{"text":"hi"}]}"#))[0]["width"] as? Double)
    }

    /// The warnings' check notes by name whether a family is known, across a request's leaves:
    /// it reports what `FontLibrary.primaryFace` does (the names before the first known one,
    /// each once, paragraph style first), whatever the leaves before it named.
    @Test func unknownFamiliesNotedByNameMatchTheLibrary() throws {
        let fonts = FontLibrary.bundled
        let lists: [[String]] = [
            [], ["DejaVu Sans"], ["Comic Sans MS"], ["Comic Sans MS", "DejaVu Sans", "Nope"],
            ["Nope", "serif", "Comic Sans MS"], ["dejavu sans", "Nope"], ["Nope", "Comic Sans MS"],
            ["Comic Sans MS", "Nope", "Comic Sans MS"], ["SANS-SERIF"], ["Nope"],
        ]
        func style(_ families: [String]) -> TextStyle {
            var style = TextStyle()
            style.fontFamilies = families
            return style
        }
        func expected(_ content: TextContent) -> [String] {
            var unknown: [String] = []
            for style in [content.style] + content.spans.map(\.style) {
                for name in fonts.primaryFace(families: style.fontFamilies, weight: style.fontWeight, slant: style.fontStyle).unknown
                where !unknown.contains(name) { unknown.append(name) }
            }
            return unknown
        }
        var known: [String: Bool] = [:]
        var rng = SplitMix64(seed: 11)
        for round in 0..<200 {
            let paragraph = lists[round % lists.count]
            let spans = (0..<(round % 3)).map { _ in TextSpan(text: "a", style: style(lists.randomElement(using: &rng)!)) }
            let content = TextContent(style: style(paragraph), spans: spans)
            #expect(RequestText.unknownFamilies(in: content, fonts: fonts, known: &known) == expected(content),
                    "\(paragraph) \(spans.map(\.style.fontFamilies))")
        }
        #expect(known["Nope"] == false && known["DejaVu Sans"] == true && known["serif"] == true)
    }

    /// Text leaves the decoder copied from a repeated sibling take their source's tag without
    /// being digested; each tag is still the digest of the leaf's own content, and a hint that
    /// no longer holds (edited leaves) is not followed.
    @Test func copiedLeavesTakeTheirSourcesTags() throws {
        let cell = { (i: Int, text: String) in
            #"{"id":"c\#(i)","style":{"flexDirection":"row","fontSize":15},"children":[{"id":"a\#(i)","style":{"width":10}},"#
                + #"{"id":"t\#(i)","text":"\#(text)"},{"id":"u\#(i)","style":{"fontWeight":"bold"},"text":"x\#(text)"}]}"#
        }
        let cells = (0..<24).map { cell($0, ["one", "two words", "three"][$0 % 3]) }.joined(separator: ",")
        let body = Array(#"{"root":{"style":{"width":300},"children":[\#(cells)]}}"#.utf8)
        var request = try #require(LayoutWire.decodeInOnePassFindingRepeats(bytes: body, limits: .default))
        #expect(request.textLeaves.count == 48)
        #expect(request.textLeafCopies.filter { $0 >= 0 }.count >= 40, "\(request.textLeafCopies)")
        let layouter = TextLayouter()
        let key = StructuralHashKey(k0: 1, k1: 2)
        func ownTags(_ request: LayoutRequest) -> [NodeContent] {
            request.textLeaves.map { RequestText.content($0.content, layouter: layouter, key: key) }
        }
        var tagged = request
        _ = RequestText(installingOn: &tagged, layouter: layouter, key: key)
        #expect(tagged.textLeaves.map { tagged.tree.content(of: $0.node) } == ownTags(request))
        // Hints that point at leaves of other text: each leaf is digested as its own.
        request.textLeafCopies = request.textLeafCopies.indices.map { $0 >= 1 ? Int32($0 - 1) : -1 }
        var misled = request
        _ = RequestText(installingOn: &misled, layouter: layouter, key: key)
        #expect(misled.textLeaves.map { misled.tree.content(of: $0.node) } == ownTags(request))
    }

    @Test func batchWarningsPointIntoTheBatchDocument() throws {
        let computer = LayoutComputer(cache: FrameCache(capacityBytes: 0, shardCount: 1), limits: .default)
        let batch = #"[{"root":{"text":"ok"}},{"root":{"children":[{"text":"hi","style":{"fontFamily":"Comic Sans MS"}}]}}]"#
        let result = BatchComputer(computer: computer, maxItems: 4).answer(body: Array(batch.utf8))
        #expect(result.status == 200)
        let items = try JSONSerialization.jsonObject(with: Data(result.body)) as? [[String: Any]] ?? []
        #expect(items.count == 2 && items[0]["warnings"] == nil)
        let warnings = items.count == 2 ? items[1]["warnings"] as? [[String: Any]] ?? [] : []
        #expect(warnings.compactMap { $0["pointer"] as? String } == ["/1/root/children/0"])
    }

    @Test func theHashCoversTextAndStyle() throws {
        func tag(_ root: String, extra: String = "") -> String? {
            let computer = LayoutComputer(cache: FrameCache(capacityBytes: 0, shardCount: 1), limits: .default)
            return computer.answer(body: Array((#"{"root":"# + root + extra + "}").utf8), ifNoneMatch: nil).entityTag
        }
        let a = tag(#"{"text":"Item 1"}"#), b = tag(#"{"text":"Item 2"}"#)
        let c = tag(#"{"text":"Item 1","style":{"fontSize":17}}"#)
        let d = tag(#"{"text":"Item 1"}"#, extra: #","textLines":true"#)
        #expect(a != nil && a != b && a != c && a != d)
        #expect(a == tag(#"{"text":"Item 1"}"#))
    }
}

@Suite struct FontRouteTests {
    @Test func fontsListsTheBundledFamilies() throws {
        try LiveServer.with { server in
            let response = try server.get("/fonts")
            #expect(response.status == 200)
            let body = response.json as? [String: Any] ?? [:]
            #expect(body["default"] as? String == "DejaVu Sans")
            let families = (body["families"] as? [[String: Any]] ?? []).compactMap { $0["family"] as? String }
            #expect(families == ["DejaVu Sans", "DejaVu Sans Mono", "DejaVu Serif"])
            #expect((body["generic"] as? [String: String])?["monospace"] == "DejaVu Sans Mono")
            #expect(try server.post("/fonts", json: "{}").status == 405)
        }
    }

    @Test func aFontDirectoryAddsFacesAndChangesTheHash() throws {
        // A copy of a bundled face: the family gains a face, and the font digest (part of every
        // text leaf's hash) changes, so answers cached under other fonts are not reused.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-fonts-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try FontLibrary.bundledFontDirectory() + "/DejaVuSansMono.ttf"
        try FileManager.default.copyItem(atPath: source, toPath: directory.appendingPathComponent("Mono.ttf").path)
        let request = #"{"root":{"text":"Item 1"}}"#
        let plainTag = try LiveServer.with { try $0.post("/compute", json: request).header("ETag") }
        try LiveServer.with({ $0.fontDirectories = [directory.path] }) { server in
            let fonts = server.host.service.textLayouter.fonts
            #expect(fonts.faces(ofFamily: "DejaVu Sans Mono")?.count == 3)
            let compute = try server.post("/compute", json: request)
            #expect(compute.status == 200)
            #expect(compute.header("ETag") != nil && compute.header("ETag") != plainTag)
        }
    }

    @Test func metricsCountShapedWords() throws {
        try LiveServer.with { server in
            _ = try server.post("/compute", json: #"{"root":{"text":"metrics metrics metrics"}}"#)
            let text = String(decoding: try server.get("/metrics").body, as: UTF8.self)
            #expect(text.contains("layoutd_text_shape_cache_hits_total"))
            #expect(text.contains("layoutd_text_shape_cache_misses_total"))
        }
    }
}

@Suite struct TextLinesCacheTests {
    @Test func linesComeBackFromTheCacheToo() throws {
        try LiveServer.with { server in
            func request(_ id: String) -> String {
                #"{"textLines":true,"root":{"style":{"width":150},"children":[{"id":"\#(id)","style":{"padding":4},"text":"The quick brown fox jumps over the lazy dog"}]}}"#
            }
            let first = try server.post("/compute", json: request("a"))
            let second = try server.post("/compute", json: request("b"))  // other ids: the frame cache
            #expect(first.header("X-Cache") == "miss" && second.header("X-Cache") == "hit")
            func lines(_ response: BlockingHTTPClient.Response) -> [String] {
                let root = (response.json as? [String: Any])?["root"] as? [String: Any]
                let leaf = (root?["children"] as? [[String: Any]])?.first
                return (leaf?["lines"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
            }
            #expect(lines(first) == ["The quick brown", "fox jumps over", "the lazy dog"])
            #expect(lines(second) == lines(first))
            // Without textLines: another answer (and ETag), no lines.
            let plain = try server.post("/compute", json: request("a").replacingOccurrences(of: #""textLines":true,"#, with: ""))
            #expect(lines(plain).isEmpty && plain.header("ETag") != first.header("ETag"))
        }
    }
}

@Suite struct ConcurrentTextTests {
    @Test func threadsShareFontsShapesAndBreakers() {
        // Many requests at once over the process's one text layouter: the same answers as one
        // at a time (the shaping cache, HarfBuzz fonts and per-thread ICU iterators are shared).
        let bodies = (0..<16).map { i in
            Array(#"{"textLines":true,"root":{"style":{"width":\#(120 + i * 7)},"children":[{"text":"The quick brown fox \#(i) jumps over the lazy dog, שלום עולם"}]}}"#.utf8)
        }
        let expected = bodies.map { LayoutOnce.answer(body: $0).body }
        let results = Locked([[UInt8]?](repeating: nil, count: bodies.count * 4))
        DispatchQueue.concurrentPerform(iterations: bodies.count * 4) { k in
            let answer = LayoutOnce.answer(body: bodies[k % bodies.count]).body
            results.withLock { $0[k] = answer }
        }
        let answers = results.withLock { $0 }
        #expect(answers.enumerated().allSatisfy { $0.element == expected[$0.offset % bodies.count] })
    }
}
