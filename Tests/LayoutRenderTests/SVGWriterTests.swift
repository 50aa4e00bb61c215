import LayoutEngine
import LayoutWire
import Testing
@testable import LayoutRender

@Suite struct SVGWriterTests {
    @Test func oneRectPerBoxAtAbsoluteFrames() throws {
        let svg = SVGWriter.svg(try picture(paintedRow, mode: .wireframe))
        let rects = boxRects(inSVG: svg)
        let expected: [(String, [String])] = [
            ("root", ["0", "0", "200", "100"]), ("a", ["10", "10", "50", "40"]), ("b", ["80", "10", "60", "30"]),
            ("c", ["140", "10", "40", "40"]), ("e", ["145", "15", "10", "10"]),  // inside c's 5-point border
        ]
        #expect(rects.count == expected.count)
        for (rect, (id, frame)) in zip(rects, expected) {
            #expect(rect["data-id"] == id)
            #expect([rect["x"], rect["y"], rect["width"], rect["height"]] == frame.map { Optional($0) }, "\(id)")
        }
    }

    @Test func rootTopLeftIsOrigin() throws {
        let svg = SVGWriter.svg(try picture(#"""
            {"root": {"id": "r", "style": {"width": 30, "height": 20, "margin": 7, "position": "absolute", "left": 3},
                      "children": [{"id": "x", "style": {"width": 5, "height": 5, "margin": 2}}]}}
            """#, mode: .paint))
        let rects = boxRects(inSVG: svg)
        #expect(rects.map { [$0["x"]!, $0["y"]!] } == [["0", "0"], ["2", "2"]])
    }

    @Test func sizeScaleAndViewBox() throws {
        let svg = String(decoding: SVGWriter.svg(try picture(paintedRow, mode: .paint), scale: 2), as: UTF8.self)
        let root = attributes(svg.split(separator: "\n")[0])
        #expect(root["width"] == "400")
        #expect(root["height"] == "200")
        #expect(root["viewBox"] == "0 0 200 100")
        #expect(root["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(svg.hasSuffix("</svg>\n"))
    }

    @Test func paintModeFillsWithPaintColours() throws {
        let rects = boxRects(inSVG: SVGWriter.svg(try picture(paintedRow, mode: .paint)))
        let byID = Dictionary(uniqueKeysWithValues: rects.map { ($0["data-id"]!, $0) })
        #expect(byID["a"]?["fill"] == "#ff0000")
        #expect(byID["a"]?["fill-opacity"] == nil)
        #expect(byID["b"]?["fill"] == "#0000ff")
        #expect(byID["b"]?["fill-opacity"] == "0.502")
        #expect(byID["root"]?["fill"] == "#ffffff")
        // c's border is one path, ring-shaped, in its border colour.
        let svg = String(decoding: SVGWriter.svg(try picture(paintedRow, mode: .paint)), as: UTF8.self)
        #expect(svg.contains(##"<path fill-rule="evenodd" d="M140 10H180V50H140ZM145 15H175V45H145Z" fill="#00ff00"/>"##))
    }

    @Test func wireframeShadesMarginPaddingAndLabelsIDs() throws {
        let svg = String(decoding: SVGWriter.svg(try picture(paintedRow, mode: .wireframe)), as: UTF8.self)
        // b's 20-point left margin, outside its box; root's 10-point padding, inside.
        #expect(svg.contains(##"d="M60 10H140V40H60ZM80 10H140V40H80Z" fill="#f6b26b""##))
        #expect(svg.contains(##"d="M0 0H200V100H0ZM10 10H190V90H10Z" fill="#93c47d""##))
        // Labels where they fit: "e" (10 x 10) is too small for one; "root"'s would overlap "a"'s.
        let labels = svg.split(separator: "\n").filter { $0.hasPrefix("<text") }.map { $0.split(separator: ">")[1].split(separator: "<")[0] }
        #expect(labels == ["a", "b", "c"])
        // Children deeper in the tree get the next colour of the palette.
        let rects = boxRects(inSVG: Array(svg.utf8))
        #expect(rects[0]["stroke"] == WireframeColors.depthPalette[0].hexRGB)
        #expect(rects[1]["stroke"] == WireframeColors.depthPalette[1].hexRGB)
        #expect(rects[4]["stroke"] == WireframeColors.depthPalette[2].hexRGB)
    }

    @Test func modelNodesAreColouredByKind() throws {
        let svg = SVGWriter.svg(try picture(#"""
            {"root": {"type": "stack", "width": 100, "height": 100,
                      "children": [{"id": "x", "style": {"height": 10}}]}}
            """#, mode: .wireframe))
        let rects = boxRects(inSVG: svg)
        #expect(rects.first?["stroke"] == WireframeColors.modelPalette["stack"]?.hexRGB)
    }

    @Test func idsAreEscaped() throws {
        let svg = String(decoding: SVGWriter.svg(try picture(#"{"root": {"id": "<a&\"b'>", "style": {"width": 100, "height": 20}}}"#,
                                                          mode: .wireframe)), as: UTF8.self)
        #expect(svg.contains(#"data-id="&lt;a&amp;&quot;b&apos;&gt;""#))
        #expect(svg.contains(">&lt;a&amp;&quot;b&apos;&gt;</text>"))
        #expect(!svg.contains("<a&"))
        #expect(SVGWriter.escaped("a\u{1}b\tc\u{FFFF}") == "a\u{FFFD}b\tc\u{FFFD}")
        #expect(SVGWriter.escaped("plain é") == "plain é")
    }

    @Test func opacityGroupsTheSubtree() throws {
        let svg = String(decoding: SVGWriter.svg(try picture(#"""
            {"root": {"style": {"width": 20, "height": 20}, "children": [
              {"id": "half", "style": {"opacity": 0.5, "flexGrow": 1}, "children": [{"id": "inner", "style": {"flexGrow": 1}}]},
              {"id": "after", "style": {"height": 2}}]}}
            """#, mode: .paint)), as: UTF8.self)
        let lines = svg.split(separator: "\n")
        let open = lines.firstIndex { $0 == #"<g opacity="0.5">"# }
        let close = lines.firstIndex { $0 == "</g>" }
        let inner = lines.firstIndex { $0.contains(#"data-id="inner""#) }
        let after = lines.firstIndex { $0.contains(#"data-id="after""#) }
        #expect(open != nil && close != nil && inner != nil && after != nil)
        if let open, let close, let inner, let after { #expect(open < inner && inner < close && close < after) }
    }

    @Test func numbersAreShortAndExact() {
        #expect(SVGWriter.number(12) == "12")
        #expect(SVGWriter.number(-3) == "-3")
        #expect(SVGWriter.number(0.5) == "0.5")
        #expect(SVGWriter.number(33.333332) == "33.333332")
        #expect(SVGWriter.number(.nan) == "0")
    }
}
