import LayoutRender
import LayoutWire
import Testing
@testable import LayoutServer

@Suite struct RenderQueryTests {
    private func refusal(_ query: String?, accept: String? = nil) -> RenderQuery.Refusal? {
        do { _ = try RenderQuery.options(query: query, accept: accept); return nil } catch { return error }
    }

    @Test func defaultsAndParameters() throws {
        #expect(try RenderQuery.options(query: nil, accept: nil) == RenderOptions(format: .svg, mode: .wireframe, scale: 1))
        #expect(try RenderQuery.options(query: "format=png&scale=2&mode=paint", accept: nil)
                == RenderOptions(format: .png, mode: .paint, scale: 2))
        #expect(try RenderQuery.options(query: "scale=1.5&", accept: nil).scale == 1.5)
        #expect(try RenderQuery.options(query: "format=%70ng", accept: nil).format == .png)
        #expect(try RenderQuery.options(query: "scale=5e-324", accept: nil).scale == .leastNormalMagnitude)
    }

    @Test func badParametersAreNamed() {
        for (query, parameter) in [("format=gif", "format"), ("mode=x", "mode"), ("scale=0", "scale"), ("scale=-1", "scale"),
                                   ("scale=9", "scale"), ("scale=nan", "scale"), ("scale=", "scale"), ("scale=2&scale=3", "scale")] {
            let error = refusal(query)
            #expect(error?.status == 400, "\(query)")
            #expect(error?.code == "invalid-parameter", "\(query)")
            #expect(error?.parameter == parameter, "\(query)")
            #expect(error?.message.contains(parameter) == true, "\(query)")
        }
        let unknown = refusal("width=3")
        #expect(unknown?.code == "unknown-parameter")
        #expect(unknown?.parameter == "width")
    }

    @Test func acceptChoosesTheFormat() throws {
        #expect(RenderQuery.negotiate(accept: nil) == .svg)
        #expect(RenderQuery.negotiate(accept: "*/*") == .svg)
        #expect(RenderQuery.negotiate(accept: "image/png") == .png)
        #expect(RenderQuery.negotiate(accept: "image/svg+xml;q=0.5, image/png") == .png)
        #expect(RenderQuery.negotiate(accept: "image/png;q=0.4, image/*;q=0.9") == .svg)
        #expect(RenderQuery.negotiate(accept: "text/html, image/webp, image/png;q=0.8, */*;q=0.1") == .png)
        #expect(RenderQuery.negotiate(accept: "application/json") == nil)
        #expect(RenderQuery.negotiate(accept: "image/*;q=0") == nil)
        // The query wins over Accept, and a useless Accept is refused with 406.
        #expect(try RenderQuery.options(query: "format=svg", accept: "image/png").format == .svg)
        #expect(refusal(nil, accept: "application/json")?.status == 406)
    }
}

@Suite struct RenderComputerTests {
    private func computer(cacheBytes: Int = 1 << 20, maxPixels: Int = RenderLimits.default.maxPixels) -> RenderComputer {
        RenderComputer(cache: RenderCache(capacityBytes: cacheBytes, shardCount: 1), limits: .default,
                       renderLimits: RenderLimits(maxPixels: maxPixels))
    }

    private let tree = #"{"root": {"id": "r", "style": {"width": 40, "height": 30, "backgroundColor": "red"}}}"#

    @Test func picturesAreCachedByWhatTheyShow() {
        let renderer = computer()
        let svg = RenderOptions(format: .svg)
        let first = renderer.answer(body: Array(tree.utf8), options: svg)
        #expect(first.status == 200 && first.cache == .miss && first.mediaType == "image/svg+xml")
        // Other JSON formatting, same picture: a hit.
        let again = renderer.answer(body: Array(tree.replacingSpaces().utf8), options: svg)
        #expect(again.cache == .hit && again.body == first.body)
        // Other options, ids or paint: other pictures.
        #expect(renderer.answer(body: Array(tree.utf8), options: RenderOptions(format: .png)).cache == .miss)
        #expect(renderer.answer(body: Array(tree.utf8), options: RenderOptions(format: .svg, scale: 2)).cache == .miss)
        let otherID = renderer.answer(body: Array(tree.replacing("\"r\"", with: "\"q\"").utf8), options: svg)
        #expect(otherID.cache == .miss && otherID.body != first.body)
        let otherPaint = renderer.answer(body: Array(tree.replacing("red", with: "blue").utf8),
                                         options: RenderOptions(format: .svg, mode: .paint))
        let redPaint = renderer.answer(body: Array(tree.utf8), options: RenderOptions(format: .svg, mode: .paint))
        #expect(otherPaint.cache == .miss && redPaint.cache == .miss && otherPaint.body != redPaint.body)
        #expect(renderer.cache.statistics.entries == 6)
    }

    @Test func pngIsAPNGOfTheScaledSize() throws {
        let answer = computer().answer(body: Array(tree.utf8), options: RenderOptions(format: .png, scale: 2))
        #expect(answer.mediaType == "image/png")
        #expect(Array(answer.body.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        // IHDR's width and height, big-endian, after the signature and the chunk's length and type.
        #expect(Array(answer.body[16..<24]) == [0, 0, 0, 80, 0, 0, 0, 60])
    }

    @Test func textLeavesAreMeasuredAndDrawn() {
        let text = #"{"root": {"style": {"width": 200, "padding": 10}, "children": [{"id": "t", "text": "Hello world"}]}}"#
        let renderer = computer()
        let answer = renderer.answer(body: Array(text.utf8), options: RenderOptions(format: .svg, mode: .paint))
        let svg = String(decoding: answer.body, as: UTF8.self)
        #expect(answer.status == 200)
        // The leaf's frame is its measured height (DejaVu Sans 16 px: 19 px), and its words are drawn.
        #expect(svg.contains(#"data-id="t" x="10" y="10" width="180" height="19""#), "\(svg)")
        #expect(svg.contains(">Hello </text>") && svg.contains(">world</text>"))
        // Other text, another picture (the text's digest is in the key).
        let other = renderer.answer(body: Array(text.replacing("world", with: "there").utf8),
                                    options: RenderOptions(format: .svg, mode: .paint))
        #expect(other.cache == .miss && String(decoding: other.body, as: UTF8.self).contains(">there</text>"))
    }

    @Test func errors() {
        let renderer = computer(maxPixels: 1000)
        let big = renderer.answer(body: Array(tree.utf8), options: RenderOptions(format: .png))
        #expect(big.status == 413 && big.mediaType == nil)
        #expect(String(decoding: big.body, as: UTF8.self).contains(#""code":"picture-too-large""#))
        let bad = renderer.answer(body: Array(#"{"root": {"style": {"backgroundColor": 1}}}"#.utf8), options: RenderOptions())
        #expect(bad.status == 422)
        #expect(String(decoding: bad.body, as: UTF8.self).contains(#""pointer":"/root/style/backgroundColor""#))
        // Frames past Float's range: the 422 `/compute` gives, not a picture of nothing.
        let huge = renderer.answer(body: Array(#"""
            {"root": {"style": {"width": 3e38, "flexDirection": "row"}, "children": [{"style": {"width": 3e38}}, {"style": {"width": 3e38}}]}}
            """#.utf8), options: RenderOptions())
        #expect(huge.status == 422)
        #expect(String(decoding: huge.body, as: UTF8.self).contains(#""code":"layout-overflow""#))
    }

    @Test func aDisabledCacheStillRenders() {
        let renderer = computer(cacheBytes: 0)
        #expect(renderer.answer(body: Array(tree.utf8), options: RenderOptions()).cache == .miss)
        #expect(renderer.answer(body: Array(tree.utf8), options: RenderOptions()).cache == .miss)
    }
}

private extension String {
    func replacingSpaces() -> String { filter { $0 != " " } }
    func replacing(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
