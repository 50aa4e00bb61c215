import LayoutEngine
import LayoutTestSupport
import Testing
@testable import LayoutWire

@Suite struct CSSColorTests {
    private func rgba(_ text: String) -> [UInt8]? {
        CSSColor(css: text).map { [$0.red, $0.green, $0.blue, $0.alpha] }
    }

    @Test func hexForms() {
        #expect(rgba("#f00") == [255, 0, 0, 255])
        #expect(rgba("#F0A8") == [255, 0, 170, 136])
        #expect(rgba("#12ab9F") == [0x12, 0xAB, 0x9F, 255])
        #expect(rgba("#12ab9f80") == [0x12, 0xAB, 0x9F, 0x80])
        for bad in ["#", "#ff", "#fffff", "#1234567", "#ggg", "#12ab9f8", "f00", "# f00"] { #expect(rgba(bad) == nil, "\(bad)") }
    }

    @Test func functionalForms() {
        #expect(rgba("rgb(255, 0, 10)") == [255, 0, 10, 255])
        #expect(rgba("rgba(0,0,255,0.5)") == [0, 0, 255, 128])
        #expect(rgba("RGB(100%, 50%, 0%)") == [255, 128, 0, 255])
        #expect(rgba("rgb(1 2 3 / 25%)") == [1, 2, 3, 64])
        #expect(rgba("rgba(1 2 3)") == [1, 2, 3, 255])
        #expect(rgba("rgb(300, -5, 12.6)") == [255, 0, 13, 255])   // clamped and rounded, as CSS does
        #expect(rgba("rgba(0, 0, 0, 2)") == [0, 0, 0, 255])
        for bad in ["rgb(1, 2)", "rgb(1, 2, 3, 4, 5)", "rgb(1 2)", "rgb(1, 2, x)", "rgb(50%, 2, 3)", "rgb(1, 2, 3",
                    "rgb(1e2, 2, 3)", "hsl(0, 0%, 0%)", "rgb(,,)", "rgb(inf, 0, 0)"] {
            #expect(rgba(bad) == nil, "\(bad)")
        }
    }

    @Test func namedColours() {
        #expect(CSSNamedColors.table.count == 148)
        #expect(rgba("rebeccapurple") == [0x66, 0x33, 0x99, 255])
        #expect(rgba("  CornflowerBlue ") == [0x64, 0x95, 0xED, 255])
        #expect(rgba("lightgoldenrodyellow") == [0xFA, 0xFA, 0xD2, 255])
        #expect(rgba("grey") == rgba("gray"))
        #expect(rgba("transparent") == [0, 0, 0, 0])
        #expect(rgba("notacolour") == nil)
        #expect(CSSColor(rgb: 0xABCDEF).hexRGB == "#abcdef")
    }
}

@Suite struct PaintDecodingTests: WireDecodingTests {

    @Test func paintKeysGoToTheSideTable() throws {
        let request = try decode(#"""
            {"root": {"style": {"width": 10, "backgroundColor": "red", "opacity": 0.25}, "children": [
              {"id": "x"},
              {"style": {"borderColor": "blue", "borderLeftColor": "#0f0", "borderEndColor": "black", "borderRadius": 4,
                         "color": "white"}}]}}
            """#)
        #expect(request.paint.nodes.count == 2)
        let root = try #require(request.paint[request.root])
        #expect(root.backgroundColor == CSSColor(rgb: 0xFF0000))
        #expect(root.opacity == 0.25)
        let second = try #require(request.paint[NodeID(2)])
        #expect(second.borderRadius == 4)
        #expect(second.color == CSSColor(rgb: 0xFFFFFF))
        #expect(second.borderColor(.left, direction: .ltr) == CSSColor(rgb: 0x00FF00))
        #expect(second.borderColor(.right, direction: .ltr) == CSSColor(rgb: 0))      // end
        #expect(second.borderColor(.top, direction: .ltr) == CSSColor(rgb: 0x0000FF))
        #expect(second.borderColor(.left, direction: .rtl) == CSSColor(rgb: 0x00FF00)) // left wins over end
        #expect(request.paint[NodeID(1)] == nil)
    }

    @Test func paintChangesNeitherFramesNorTheStructuralHash() throws {
        let plain = #"{"root": {"style": {"width": 100, "padding": 5}, "children": [{"style": {"height": 20, "borderWidth": 2}}]}}"#
        let painted = #"""
            {"root": {"style": {"width": 100, "padding": 5, "backgroundColor": "#123", "opacity": 0.5},
                      "children": [{"style": {"height": 20, "borderWidth": 2, "borderColor": "red", "borderRadius": 3}}]}}
            """#
        var a = try decode(plain), b = try decode(painted)
        #expect(a.tree.structuralHash(root: a.root, available: a.available, direction: a.direction)
                == b.tree.structuralHash(root: b.root, available: b.available, direction: b.direction))
        a.computeLayout()
        b.computeLayout()
        #expect(LayoutWire.encodeResponse(a) == LayoutWire.encodeResponse(b))
        #expect(a.tree.style(of: a.root) == b.tree.style(of: b.root))
    }

    @Test func modelKindsAreRecorded() throws {
        let request = try decode(#"{"root": {"type": "stack", "children": [{"type": "flex"}, {"type": "core-layout"}]}}"#)
        #expect(request.paint.modelKinds == [0: "stack", 2: "core-layout"])
    }

    @Test func badPaintValuesPointAtTheKey() {
        let bad = error(#"{"root": {"children": [{"style": {"backgroundColor": "reddish"}}]}}"#)
        #expect(bad?.kind == .invalid)
        #expect(bad?.code == "invalid-value")
        #expect(bad?.pointer == "/root/children/0/style/backgroundColor")
        #expect(bad?.message.contains("#rrggbb") == true)
        #expect(error(#"{"root": {"style": {"borderTopColor": 3}}}"#)?.code == "wrong-type")
        #expect(error(#"{"root": {"style": {"opacity": 1.5}}}"#)?.pointer == "/root/style/opacity")
        #expect(error(#"{"root": {"style": {"borderRadius": -1}}}"#)?.code == "invalid-value")
        let unknown = error(#"{"root": {"style": {"backgroundColour": "red"}}}"#)
        #expect(unknown?.code == "unknown-key")
        #expect(unknown?.pointer == "/root/style/backgroundColour")
    }

    @Test func constraintNodesTakePaintToo() throws {
        let request = try decode(#"""
            {"root": {"type": "constraints", "style": {"width": 50, "height": 50, "backgroundColor": "navy"}, "items": []}}
            """#)
        #expect(request.paint[request.root]?.backgroundColor == CSSColor(rgb: 0x000080))
    }
}
