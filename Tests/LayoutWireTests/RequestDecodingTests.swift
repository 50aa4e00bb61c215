import LayoutEngine
import LayoutTestSupport
import Testing
@testable import LayoutWire

@Suite struct RequestDecodingTests: WireDecodingTests {

    @Test func defaults() throws {
        let request = try decode(#"{"root": {}}"#)
        #expect(request.tree.nodeCount == 1)
        #expect(request.ids == [nil])
        #expect(request.available == AvailableSize())
        #expect(request.direction == .ltr)
        #expect(request.tree.config == LayoutConfig())
        #expect(request.tree.style(of: request.root) == Style())
        #expect(request.tree.content(of: request.root) == .none)
    }

    @Test func requestMembers() throws {
        let request = try decode(#"""
        {"name": "n", "source": "s", "tags": ["t"], "tolerance": 0.5, "expected": {"whatever": [1]},
         "available": {"width": 300, "height": null}, "direction": "rtl",
         "config": {"pointScaleFactor": 2, "useWebDefaults": true, "errata": ["stretch-flex-basis", "absolute-percent-against-inner-size"],
                    "experimentalFeatures": ["web-flex-basis"]},
         "root": {"id": "r", "children": [{"id": "a"}, {}, {"id": "c", "children": [{"id": "c0"}]}]}}
        """#)
        #expect(request.available == AvailableSize(width: 300, height: nil))
        #expect(request.direction == .rtl)
        #expect(request.tree.config.pointScaleFactor == 2)
        #expect(request.tree.config.useWebDefaults)
        #expect(request.tree.config.errata == [.stretchFlexBasis, .absolutePercentAgainstInnerSize])
        #expect(request.tree.config.experimentalFeatures == .webFlexBasis)
        #expect(request.ids == ["r", "a", nil, "c", "c0"])
        #expect(request.tree.childCount(of: request.root) == 3)
        // Web defaults are every node's base style.
        for index in 0..<request.tree.nodeCount {
            #expect(request.tree.style(of: NodeID(index)) == Style(webDefaults: true))
        }
        #expect(try decode(#"{"root": {}, "config": {"errata": "classic"}}"#).tree.config.errata == .classic)
        #expect(try decode(#"{"root": {}, "available": null}"#).available == AvailableSize())
    }

    @Test func everyStyleFamily() throws {
        let request = try decode(#"""
        {"root": {"style": {
          "direction": "rtl", "flexDirection": "row-reverse", "justifyContent": "space-evenly",
          "alignContent": "space-between", "alignItems": "baseline", "alignSelf": "flex-end",
          "position": "absolute", "flexWrap": "wrap-reverse", "overflow": "scroll", "display": "contents",
          "boxSizing": "content-box", "flex": -1, "flexGrow": 2, "flexShrink": 0.5, "aspectRatio": 1.5,
          "flexBasis": "fit-content", "width": "50%", "height": "auto", "minWidth": "max-content",
          "minHeight": 5, "maxWidth": "stretch", "maxHeight": "12.5%",
          "margin": 1, "marginLeft": "auto", "marginTop": -2, "marginRight": "10%", "marginBottom": 3,
          "marginStart": 4, "marginEnd": 5, "marginHorizontal": 6, "marginVertical": 7,
          "padding": 8, "paddingLeft": "5%", "paddingTop": 9, "paddingRight": 10, "paddingBottom": 11,
          "paddingStart": 12, "paddingEnd": 13, "paddingHorizontal": 14, "paddingVertical": 15,
          "borderWidth": 1, "borderLeftWidth": 2, "borderTopWidth": 3, "borderRightWidth": 4,
          "borderBottomWidth": 5, "borderStartWidth": 6, "borderEndWidth": 7,
          "borderHorizontalWidth": 8, "borderVerticalWidth": 9,
          "left": "auto", "top": -10, "right": "20%", "bottom": 0, "start": 1, "end": 2,
          "inset": 3, "insetHorizontal": 4, "insetVertical": 5,
          "gap": "10%", "rowGap": 1, "columnGap": 2
        }}}
        """#)
        let s = request.tree.style(of: request.root)
        #expect(s.direction == .rtl && s.flexDirection == .rowReverse && s.justifyContent == .spaceEvenly)
        #expect(s.alignContent == .spaceBetween && s.alignItems == .baseline && s.alignSelf == .flexEnd)
        #expect(s.positionType == .absolute && s.flexWrap == .wrapReverse && s.overflow == .scroll)
        #expect(s.display == .contents && s.boxSizing == .contentBox)
        #expect(s.flex == -1 && s.flexGrow == 2 && s.flexShrink == 0.5 && s.aspectRatio == 1.5)
        #expect(s.flexBasis == .fitContent && s.width == .percent(50) && s.height == .auto)
        #expect(s.minWidth == .maxContent && s.minHeight == .points(5) && s.maxWidth == .stretch)
        #expect(s.maxHeight == .percent(12.5))
        #expect(s.margin.all == .points(1) && s.margin.left == .auto && s.margin.top == .points(-2))
        #expect(s.margin.right == .percent(10) && s.margin.bottom == .points(3) && s.margin.start == .points(4))
        #expect(s.margin.end == .points(5) && s.margin.horizontal == .points(6) && s.margin.vertical == .points(7))
        #expect(s.padding.all == .points(8) && s.padding.left == .percent(5) && s.padding.top == .points(9))
        #expect(s.padding.right == .points(10) && s.padding.bottom == .points(11) && s.padding.start == .points(12))
        #expect(s.padding.end == .points(13) && s.padding.horizontal == .points(14) && s.padding.vertical == .points(15))
        let borders: [Edge: Float] = [.all: 1, .left: 2, .top: 3, .right: 4, .bottom: 5, .start: 6, .end: 7,
                                      .horizontal: 8, .vertical: 9]
        for (edge, width) in borders { #expect(s.border[edge] == .points(width)) }
        #expect(s.position.left == .auto && s.position.top == .points(-10) && s.position.right == .percent(20))
        #expect(s.position.bottom == .points(0) && s.position.start == .points(1) && s.position.end == .points(2))
        #expect(s.position.all == .points(3) && s.position.horizontal == .points(4) && s.position.vertical == .points(5))
        #expect(s.gap == .percent(10) && s.rowGap == .points(1) && s.columnGap == .points(2))
    }

    @Test func measureKinds() throws {
        let request = try decode(#"""
        {"root": {"children": [
          {"measure": {"kind": "fixed", "width": 120, "height": 20}},
          {"measure": {"kind": "intrinsic-text", "text": "hello world"}},
          {"measure": {"kind": "benchmark-leaf", "width": 10, "height": 10}, "children": []}
        ]}}
        """#)
        let children = Array(request.tree.children(of: request.root))
        #expect(request.tree.content(of: children[0]) == .fixed(Size(width: 120, height: 20)))
        #expect(request.tree.content(of: children[1]) == .intrinsicText("hello world"))
        #expect(request.tree.content(of: children[2]) == .benchmarkLeaf(Size(width: 10, height: 10)))
    }

    @Test func idsWithEscapes() throws {
        let request = try decode(#"{"root": {"id": "a\"b\\c\u00e9\ud83d\ude00/~", "children": [{"id": ""}]}}"#)
        #expect(request.ids == ["a\"b\\cé😀/~", ""])
    }

    @Test func nodeTypeDispatch() throws {
        #expect(try decode(#"{"root": {"type": "flex", "style": {"width": 1}}}"#).tree.nodeCount == 1)
        let e = error(#"{"root": {"children": [{"type": "grid"}]}}"#)
        #expect(e?.kind == .invalid && e?.code == "unknown-value" && e?.pointer == "/root/children/0/type")
    }

    /// Each 422 with its code and exact pointer.
    @Test(arguments: [
        (#"[]"#, "wrong-type", ""),
        (#"{}"#, "missing-key", ""),
        (#"{"root": {}, "extra": 1}"#, "unknown-key", "/extra"),
        (#"{"root": []}"#, "wrong-type", "/root"),
        (#"{"root": {"colour": 1}}"#, "unknown-key", "/root/colour"),
        (#"{"root": {"style": {"widht": 1}}}"#, "unknown-key", "/root/style/widht"),
        (#"{"root": {"style": {"a/b~c": 1}}}"#, "unknown-key", "/root/style/a~1b~0c"),
        (#"{"root": {"children": [{}, {}, {"style": {"width": -1}}]}}"#, "invalid-value", "/root/children/2/style/width"),
        // Rounds to -0 as a Float, but is negative as written (found by schemathesis).
        (#"{"root": {"style": {"paddingLeft": -2.6e-233}}}"#, "invalid-value", "/root/style/paddingLeft"),
        (#"{"root": {"children": [{"children": [{"style": {"width": "-5%"}}]}]}}"#, "invalid-value", "/root/children/0/children/0/style/width"),
        (#"{"root": {"style": {"width": true}}}"#, "wrong-type", "/root/style/width"),
        (#"{"root": {"style": {"width": null}}}"#, "wrong-type", "/root/style/width"),
        (#"{"root": {"style": {"width": "wide"}}}"#, "unknown-value", "/root/style/width"),
        (#"{"root": {"style": {"width": "50 %"}}}"#, "unknown-value", "/root/style/width"),
        (#"{"root": {"style": {"padding": "auto"}}}"#, "unknown-value", "/root/style/padding"),
        (#"{"root": {"style": {"borderWidth": "10%"}}}"#, "unknown-value", "/root/style/borderWidth"),
        (#"{"root": {"style": {"minWidth": "auto"}}}"#, "unknown-value", "/root/style/minWidth"),
        (#"{"root": {"style": {"marginLeft": "max-content"}}}"#, "unknown-value", "/root/style/marginLeft"),
        (#"{"root": {"style": {"alignItems": "middle"}}}"#, "unknown-value", "/root/style/alignItems"),
        (#"{"root": {"style": {"alignItems": 3}}}"#, "wrong-type", "/root/style/alignItems"),
        (#"{"root": {"style": {"flexGrow": -1}}}"#, "invalid-value", "/root/style/flexGrow"),
        (#"{"root": {"style": {"flexGrow": "1"}}}"#, "wrong-type", "/root/style/flexGrow"),
        (#"{"root": {"style": {"width": 1e400}}}"#, "not-representable", "/root/style/width"),
        (#"{"root": {"style": {"height": 1e39}}}"#, "not-representable", "/root/style/height"),
        (#"{"root": {"style": {"margin": "1e39%"}}}"#, "not-representable", "/root/style/margin"),
        (#"{"root": {"style": []}}"#, "wrong-type", "/root/style"),
        (#"{"root": {"id": 7}}"#, "wrong-type", "/root/id"),
        (#"{"root": {"children": {}}}"#, "wrong-type", "/root/children"),
        (#"{"root": {"children": [1]}}"#, "wrong-type", "/root/children/0"),
        (#"{"root": {"measure": {"kind": "fixed", "width": 1, "height": 1}, "children": [{}]}}"#, "measure-with-children", "/root/measure"),
        (#"{"root": {"measure": {"kind": "svg"}}}"#, "unknown-value", "/root/measure/kind"),
        (#"{"root": {"measure": {"width": 1}}}"#, "missing-key", "/root/measure"),
        (#"{"root": {"measure": {"kind": "fixed", "width": 1}}}"#, "missing-key", "/root/measure"),
        (#"{"root": {"measure": {"kind": "fixed", "width": -1, "height": 1}}}"#, "invalid-value", "/root/measure/width"),
        (#"{"root": {"measure": {"kind": "intrinsic-text", "text": 5}}}"#, "wrong-type", "/root/measure/text"),
        (#"{"root": {"measure": {"kind": "fixed", "width": 1, "height": 1, "depth": 1}}}"#, "unknown-key", "/root/measure/depth"),
        (#"{"root": {}, "direction": "inherit"}"#, "unknown-value", "/direction"),
        (#"{"root": {}, "direction": 1}"#, "wrong-type", "/direction"),
        (#"{"root": {}, "available": {"width": -1}}"#, "invalid-value", "/available/width"),
        (#"{"root": {}, "available": {"depth": 1}}"#, "unknown-key", "/available/depth"),
        (#"{"root": {}, "available": 5}"#, "wrong-type", "/available"),
        (#"{"root": {}, "config": {"errata": "bogus"}}"#, "unknown-value", "/config/errata"),
        (#"{"root": {}, "config": {"errata": ["none", 3]}}"#, "wrong-type", "/config/errata/1"),
        (#"{"root": {}, "config": {"experimentalFeatures": ["warp-drive"]}}"#, "unknown-value", "/config/experimentalFeatures/0"),
        (#"{"root": {}, "config": {"useWebDefaults": 1}}"#, "wrong-type", "/config/useWebDefaults"),
        (#"{"root": {}, "config": {"pointScaleFactor": -2}}"#, "invalid-value", "/config/pointScaleFactor"),
        (#"{"root": {}, "config": {"colour": 1}}"#, "unknown-key", "/config/colour"),
    ])
    func invalidLayouts(text: String, code: String, pointer: String) {
        let e = error(text)
        #expect(e?.kind == .invalid, "\(text)")
        #expect(e?.code == code, "\(text): \(String(describing: e))")
        #expect(e?.pointer == pointer, "\(text): \(String(describing: e))")
    }

    @Test func unknownEnumValueListsTheAcceptedOnes() throws {
        let e = try #require(error(#"{"root": {"style": {"flexDirection": "diagonal"}}}"#))
        for name in FlexDirection.cssNames { #expect(e.message.contains("\"\(name)\""), "\(e.message)") }
        #expect(e.message.contains("diagonal"))
    }

    @Test func nanIsASyntaxError() {
        let e = error(#"{"root": {"style": {"width": NaN}}}"#)
        #expect(e?.kind == .malformed)
        #expect(e?.offset == 29)
    }

    @Test func nodeLimits() {
        var limits = WireLimits()
        limits.maxNodes = 3
        #expect(error(#"{"root": {"children": [{}, {}]}}"#, limits: limits) == nil)
        let many = error(#"{"root": {"children": [{}, {}, {"children": [{}]}]}}"#, limits: limits)
        #expect(many?.kind == .overLimit && many?.code == "too-many-nodes" && many?.pointer == "/root/children/2")

        limits = WireLimits(maxDepth: 3)
        #expect(error(#"{"root": {"children": [{"children": [{}]}]}}"#, limits: limits) == nil)
        let deep = error(#"{"root": {"children": [{"children": [{"children": [{}]}]}]}}"#, limits: limits)
        #expect(deep?.kind == .overLimit && deep?.code == "too-deep")
        #expect(deep?.pointer == "/root/children/0/children/0/children/0")
    }

    /// A chain of 1,000 nodes (the default depth limit) decodes without recursion trouble.
    @Test func deepChainAtTheDefaultLimit() throws {
        let depth = WireLimits.default.maxDepth
        let text = "{\"root\":" + String(repeating: "{\"children\":[", count: depth - 1) + "{}"
            + String(repeating: "]}", count: depth - 1) + "}"
        #expect(try decode(text).tree.nodeCount == depth)
        let over = "{\"root\":" + String(repeating: "{\"children\":[", count: depth) + "{}"
            + String(repeating: "]}", count: depth) + "}"
        #expect(error(over)?.kind == .overLimit)
    }

    @Test func syntaxErrorsSayWhereInBytes() throws {
        let syntax = try #require(error("{"))
        #expect(syntax.kind == .malformed && syntax.code == "invalid-json")
        #expect(syntax.offset == 1)
        #expect(syntax.description.hasPrefix("invalid-json: "))
    }

    /// The value and bytes entry points agree.
    @Test func bothEntryPointsAgree() throws {
        let text = #"{"root": {"id": "r", "style": {"width": 10}, "children": [{"id": "c", "measure": {"kind": "fixed", "width": 1, "height": 2}}]}}"#
        let a = try decode(text)
        let b = try LayoutWire.decodeRequest(JSONValue.parse(text))
        let padded = Array(("  " + text + "  ").utf8)
        let c = try LayoutWire.decodeRequest(bytes: padded[1..<(padded.count - 1)])
        #expect(a.ids == b.ids)
        #expect(a.ids == c.ids)
        #expect(c.tree.nodeCount == a.tree.nodeCount)
        #expect(a.tree.nodeCount == b.tree.nodeCount)
        for index in 0..<a.tree.nodeCount {
            #expect(a.tree.style(of: NodeID(index)) == b.tree.style(of: NodeID(index)))
            #expect(a.tree.content(of: NodeID(index)) == b.tree.content(of: NodeID(index)))
        }
    }
}
