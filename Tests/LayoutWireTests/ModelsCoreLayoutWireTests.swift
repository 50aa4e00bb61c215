import LayoutEngine
import LayoutTestSupport
import Testing
@testable import LayoutWire

// Core Layout's node kind on the wire: decoding onto the model's styles, the README's
// first example laid out through a request, and errors with pointers.

@Suite struct ModelsCoreLayoutWireTests: WireDecodingTests {

    @Test func decodesToTheModelsStyles() throws {
        let request = try decode(#"""
        {"root": {"type": "core-layout", "identifier": "root",
          "container": {"primaryAxis": "horizontal", "primaryAxisDistribution": "spaceBetween",
                        "secondaryAxisDistribution": "center", "secondaryAxisDistributionWhenWrapping": "spaceAround",
                        "shouldWrap": true, "overflow": "hidden"},
          "size": {"mode": "flexible", "units": 2, "minWidth": 10, "maxHeight": 90},
          "margin": {"top": 1, "sides": 2}, "padding": 8, "border": {"all": 3, "bottom": 4},
          "overriddenPosition": {"type": "absolute", "top": 5, "leading": 6},
          "overriddenSecondaryAxisDistribution": "trailing", "isIncludedInLayout": false,
          "children": [{"type": "core-layout", "id": "c", "size": {"mode": "relative", "measure": {"kind": "fixed", "width": 2.5, "height": 3}}},
                       {"type": "core-layout", "size": {"mode": "absolute", "width": 7}}]}}
        """#)
        #expect(request.ids == ["root", "c", nil])
        let layout = CoreLayout.Layout(
            container: CoreLayout.ContainerBehavior(primaryAxis: .horizontal, primaryAxisDistribution: .spaceBetween,
                                                    secondaryAxisDistribution: .center,
                                                    secondaryAxisDistributionWhenWrapping: .spaceAround,
                                                    shouldWrap: true, overflow: .hidden),
            overriddenSecondaryAxisDistribution: .trailing,
            overriddenPosition: .absolute(CoreLayout.Edges(top: 5, leading: 6)),
            size: .flexible(units: 2, minWidth: 10, maxHeight: 90),
            margin: CoreLayout.Edges(top: 1, sides: 2),
            padding: CoreLayout.Edges(all: 8),
            border: CoreLayout.Edges(top: 3, leading: 3, bottom: 4, trailing: 3),
            isIncludedInLayout: false)
        #expect(request.tree.style(of: request.root) == layout.engineNode().style)
        let children = Array(request.tree.children(of: request.root))
        let relative = CoreLayout.Layout(size: .relative(.fixed(Size(width: 2.5, height: 3)))).engineNode()
        #expect(request.tree.style(of: children[0]) == relative.style)
        #expect(request.tree.content(of: children[0]) == .fixed(Size(width: 3, height: 3)))
        #expect(request.tree.style(of: children[1]) == CoreLayout.Layout(size: .absolute(width: 7)).engineNode().style)
    }

    @Test func readmeExampleThroughARequest() throws {
        // 160×284, padding 8, a child with minHeight 44: (8, 8, 144, 44).
        var request = try decode(#"""
        {"available": {"width": 160, "height": 284},
         "root": {"type": "core-layout", "container": {"primaryAxis": "vertical"}, "padding": {"all": 8},
                  "children": [{"type": "core-layout", "size": {"minHeight": 44}}]}}
        """#)
        request.computeLayout()
        let child = try #require(request.tree.children(of: request.root).first(where: { _ in true }))
        #expect(request.tree.frame(of: request.root) == Frame(left: 0, top: 0, width: 160, height: 284))
        #expect(request.tree.frame(of: child) == Frame(left: 8, top: 8, width: 144, height: 44))
    }

    @Test(arguments: [
        (#"{"type": "core-layout", "container": {"primaryAxis": "diagonal"}}"#, "/root/container/primaryAxis", "unknown-value"),
        (#"{"type": "core-layout", "children": [{"type": "core-layout", "size": {"mode": "flexible", "units": 1.5}}]}"#,
         "/root/children/0/size/units", "invalid-value"),
        (#"{"type": "core-layout", "size": {"mode": "absolute", "units": 1}}"#, "/root/size/units", "invalid-value"),
        // 4294967200 rounds to 2^32 as a Float: once a trap (found by schemathesis).
        (#"{"type": "core-layout", "size": {"mode": "flexible", "units": 4294967200}}"#, "/root/size/units", "invalid-value"),
        (#"{"type": "core-layout", "size": {"mode": "relative"}}"#, "/root/size", "missing-key"),
        (#"{"type": "core-layout", "size": {"mode": "relative", "measure": {"kind": "fixed", "width": 1}}}"#,
         "/root/size/measure", "missing-key"),
        (#"{"type": "core-layout", "padding": {"top": -1}}"#, "/root/padding/top", "invalid-value"),
        (#"{"type": "core-layout", "margin": {"left": 1}}"#, "/root/margin/left", "unknown-key"),
        (#"{"type": "core-layout", "overriddenPosition": {"type": "fixed"}}"#, "/root/overriddenPosition/type", "unknown-value"),
        (#"{"type": "core-layout", "identifier": "a", "id": "b"}"#, "/root/id", "invalid-value"),
        (#"{"type": "core-layout", "container": {"shouldWrap": 1}}"#, "/root/container/shouldWrap", "wrong-type"),
        (#"{"type": "core-layout", "style": {}}"#, "/root/style", "unknown-key"),
    ])
    func badFieldsPointAtThemselves(_ root: String, _ pointer: String, _ code: String) {
        let failure = error(#"{"root": "# + root + "}")
        #expect(failure?.pointer == pointer, "\(String(describing: failure))")
        #expect(failure?.code == code, "\(String(describing: failure))")
        #expect(failure?.kind == .invalid)
    }
}

// Core Layout's `.relative` sizes as functions of the container's size.
@Suite struct CoreLayoutRelativeWireTests: WireDecodingTests {
    @Test func relativeTermsDecodeToTheModelsSize() throws {
        let request = try decode(#"""
        {"root": {"type": "core-layout", "size": {"mode": "relative", "width": {"constant": -20}, "height": {"multiplier": 0.5}}}}
        """#)
        let layout = CoreLayout.Layout(size: .relative(width: .init(constant: -20), height: .init(multiplier: 0.5)))
        #expect(request.tree.content(of: request.root) == layout.engineNode().content)
        #expect(request.tree.style(of: request.root) == layout.engineNode().style)
    }

    @Test func theParentsWidthMinusTwentyThroughARequest() throws {
        // As the Swift model's test: offered 164 - 8 wide and 164 tall → 136 × 82 at x 8.
        var request = try decode(#"""
        {"available": {"width": 164, "height": 164},
         "root": {"type": "core-layout", "container": {"primaryAxis": "vertical", "secondaryAxisDistribution": "leading"},
          "children": [{"type": "core-layout", "size": {"mode": "relative", "width": {"multiplier": 1, "constant": -20},
                                                         "height": {"multiplier": 0.5}}, "margin": {"leading": 8}}]}}
        """#)
        request.computeLayout()
        #expect(childFrames(request) == [frame(8, 0, 136, 82)])
    }

    @Test func badRelativeSizesAre422WithPointers() {
        func check(_ size: String, _ code: String, _ pointer: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let e = error(#"{"root": {"type": "core-layout", "size": \#(size)}}"#)
            #expect(e?.kind == .invalid, sourceLocation: sourceLocation)
            #expect(e?.code == code, "\(e?.description ?? "no error")", sourceLocation: sourceLocation)
            #expect(e?.pointer == pointer, "\(e?.description ?? "no error")", sourceLocation: sourceLocation)
        }
        check(#"{"mode": "relative", "width": {"multiplier": 1}, "measure": {"kind": "fixed", "width": 1, "height": 1}}"#,
              "invalid-value", "/root/size/measure")
        check(#"{"mode": "relative", "width": 10}"#, "wrong-type", "/root/size/width")
        check(#"{"mode": "relative", "height": {"percent": 50}}"#, "unknown-key", "/root/size/height/percent")
        check(#"{"mode": "relative", "height": {"multiplier": -1}}"#, "invalid-value", "/root/size/height/multiplier")
        check(#"{"mode": "relative", "height": {"constant": "big"}}"#, "wrong-type", "/root/size/height/constant")
        check(#"{"mode": "relative"}"#, "missing-key", "/root/size")
        check(#"{"mode": "absolute", "width": {"multiplier": 1}}"#, "wrong-type", "/root/size/width")
        check(#"{"mode": "flexible", "width": {"multiplier": 1}}"#, "invalid-value", "/root/size/width")
    }
}
