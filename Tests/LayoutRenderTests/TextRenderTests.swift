import LayoutEngine
@testable import LayoutRender
import LayoutText
import LayoutTextModel
import LayoutWire
import Testing
@testable import LayoutServer

/// Text leaves in pictures: drawn where the layout measured their lines, in the inherited
/// colour, with the fonts they were measured with.
@Suite struct TextRenderTests {
    /// A white root with one text leaf `t` (20 px, 10 px from the root's corner).
    private static func card(leafStyle: String = "", rootStyle: String = "") -> String {
        #"{"root": {"style": {"width": 200, "height": 60, "padding": 10, "backgroundColor": "white"\#(rootStyle)}, "children": [{"id": "t", "style": {"fontSize": 20\#(leafStyle)}, "text": "Hello world"}]}}"#
    }

    /// The request laid out with its text measured, the leaf's frame (its parent is the root at
    /// 0, 0) and its lines.
    private func laidOut(_ json: String) throws -> (frame: Frame, lines: [GlyphLine]) {
        var laid = try request(json)
        let text = RequestText(installingOn: &laid, layouter: .bundled, key: .processRandom)
        laid.computeLayout()
        let leaf = try #require(laid.textLeaves.first).node
        return (laid.tree.frame(of: leaf), try #require(text.glyphLines(of: laid.tree)[leaf.index]))
    }

    private func render(_ json: String, _ format: RenderFormat, mode: RenderMode = .paint, scale: Float = 1) throws -> [UInt8] {
        try LayoutRenderer.render(try request(json), options: RenderOptions(format: format, mode: mode, scale: scale),
                                  limits: .default, textLayouter: .bundled)
    }

    private static func isDark(_ rgba: UInt32) -> Bool {
        rgba >> 24 < 100 && (rgba >> 16) & 0xFF < 100 && (rgba >> 8) & 0xFF < 100
    }

    @Test(arguments: [Float(1), 2])
    func pngHasInkInTheLineAndNoneOutsideTheLeaf(scale: Float) throws {
        let (frame, lines) = try laidOut(Self.card())
        let line = try #require(lines.first)
        #expect(lines.count == 1 && line.text == "Hello world")
        let image = try DecodedPNG(try render(Self.card(), .png, scale: scale))
        let s = scale
        var inside = 0, outsideLeaf = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let px = (Float(x) + 0.5) / s, py = (Float(y) + 0.5) / s
                let pixel = image.pixel(x, y)
                let inLine = px >= frame.left + line.left && px < frame.left + line.left + line.width
                    && py >= frame.top + line.top && py < frame.top + line.top + line.height
                let inLeaf = px >= frame.left && px < frame.left + frame.width && py >= frame.top && py < frame.top + frame.height
                if inLine && Self.isDark(pixel) { inside += 1 }
                if !inLeaf && pixel != 0xFFFF_FFFF { outsideLeaf += 1 }
            }
        }
        // "Hello world" at 20 px covers some 10 % of its line box.
        #expect(Float(inside) > 0.05 * line.width * line.height * s * s, "\(inside) dark pixels")
        #expect(outsideLeaf == 0)
        // Nothing right of the line's end: the text is no wider than measured.
        let end = Int(((frame.left + line.left + line.width) * s).rounded(.up)) + 1
        for y in 0..<image.height {
            for x in end..<image.width { #expect(image.pixel(x, y) == 0xFFFF_FFFF) }
        }
    }

    @Test func colorIsInheritedAndDefaultsToBlack() throws {
        func darkest(_ json: String) throws -> UInt32 {
            let image = try DecodedPNG(try render(json, .png))
            var best: UInt32 = 0xFFFF_FFFF
            var bestSum = Int.max
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = image.pixel(x, y)
                    let sum = Int(p >> 24) + Int((p >> 16) & 0xFF) + Int((p >> 8) & 0xFF)
                    if sum < bestSum { bestSum = sum; best = p }
                }
            }
            return best
        }
        #expect(try darkest(Self.card()) == 0x0000_00FF)
        #expect(try darkest(Self.card(rootStyle: ##", "color": "#ff0000""##)) == 0xFF00_00FF)
        #expect(try darkest(Self.card(leafStyle: ##", "color": "#0000ff""##, rootStyle: #", "color": "red""#)) == 0x0000_FFFF)
    }

    @Test func svgHasTheLinesAtTheirBaselines() throws {
        let json = ##"{"root": {"style": {"width": 200, "padding": 10}, "children": [{"id": "t", "style": {"fontSize": 14, "padding": 3, "color": "#123456"}, "text": "The quick brown fox jumps over the lazy dog"}]}}"##
        let (frame, lines) = try laidOut(json)
        #expect(lines.count > 1)
        let svg = String(decoding: try render(json, .svg), as: UTF8.self)
        let texts = svg.split(separator: "\n").filter { $0.hasPrefix(#"<text class="text""#) }
        for line in lines {
            let baseline = SVGWriter.number(frame.top + 3 + line.baseline)
            let onLine = texts.filter { attributes($0)["y"] == baseline }
            let words = onLine.map { $0[$0.index(after: $0.firstIndex(of: ">")!)..<$0.range(of: "</text>")!.lowerBound] }
            #expect(words.joined() == line.text, "baseline \(baseline)")
            #expect(attributes(try #require(onLine.first))["x"] == SVGWriter.number(frame.left + 3 + line.left))
            for tag in onLine {
                let a = attributes(tag)
                #expect(a["font-family"] == "DejaVu Sans" && a["font-size"] == "14" && a["fill"] == "#123456")
                #expect(a["textLength"] != nil && a["lengthAdjust"] == "spacing")
            }
        }
        #expect(texts.count == lines.reduce(0) { $0 + $1.runs.count })
    }

    @Test func rightToLeftRunsAreAnchoredAtTheirRightEnd() throws {
        let json = #"{"root": {"style": {"width": 300}, "children": [{"text": "abc אבג"}]}}"#
        let (_, lines) = try laidOut(json)
        let run = try #require(lines.first?.runs.last)
        #expect(run.rightToLeft && run.text == "אבג")
        let svg = String(decoding: try render(json, .svg), as: UTF8.self)
        let tag = try #require(svg.split(separator: "\n").first { $0.contains(">אבג</text>") })
        #expect(attributes(tag)["direction"] == "rtl")
        #expect(attributes(tag)["x"] == SVGWriter.number(run.left + run.width))
    }

    @Test func wireframeDrawsTextFaintly() throws {
        let svg = String(decoding: try render(Self.card(rootStyle: #", "color": "red""#), .svg, mode: .wireframe), as: UTF8.self)
        let tags = svg.split(separator: "\n").filter { $0.hasPrefix(#"<text class="text""#) }
        #expect(tags.count == 2)
        #expect(tags.allSatisfy { attributes($0)["fill"] == "#4b5563" && attributes($0)["fill-opacity"] != nil })
    }
}
