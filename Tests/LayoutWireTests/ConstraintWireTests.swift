import LayoutEngine
import LayoutTestSupport
import Testing
@testable import LayoutWire

// The constraint node kinds on the wire: FixFlex and flexible-space layouts decoded and laid
// out through a request, conflicts reported with pointers, and nesting both ways (a constraint
// container inside a flex row, flex subtrees as constraint items). Expected frames are worked
// out by hand in the comments (the FixFlex cell and the 2:1:2 spacers are the same inputs as
// the hand-checked seed tests in Tests/LayoutEngineTests/Constraint*Tests.swift).

@Suite struct ConstraintWireTests: WireDecodingTests {

    /// The FixFlex README cell: icon 44², title 150×24 and subtitle 200×22 (intrinsic), chevron
    /// 20×30, insets of 15.
    static let cell = #"""
    {"type": "fixflex", "id": "cell",
     "items": [{"id": "icon"}, {"id": "title", "intrinsicSize": {"width": 150, "height": 24}},
               {"id": "subtitle", "intrinsicSize": {"width": 200, "height": 22}}, {"id": "chevron"}],
     "stacks": [
       {"axis": "h", "intents": [15, {"kind": "fix", "view": "icon", "value": 44}, 15,
                                 {"kind": "flex", "views": ["title", "subtitle"]}, 15,
                                 {"kind": "fix", "views": ["chevron"], "value": 20}, {"kind": "fix", "value": 15}]},
       {"axis": "v", "intents": [15, {"kind": "fix", "view": "icon", "value": 44}, {"kind": "flex", "min": 15}]},
       {"axis": "vertical", "intents": [15, {"kind": "flex", "view": "title"}, {"kind": "flex", "view": "subtitle"}, 15]},
       {"axis": "v", "intents": [{"kind": "fill"}, {"kind": "fix", "view": "chevron", "value": 30}, {"kind": "fill"}]}]}
    """#

    @Test func fixFlexCellFromJSON() throws {
        // Width 375, height fitted: labels column 15 + 24 + 22 + 15 = 76 >= icon column 74.
        // Title and subtitle at x = 15 + 44 + 15 = 74, width 375 - 74 - 15 - 20 - 15 = 251;
        // chevron centered (76 - 30) / 2 = 23.
        var r = try decode(#"{"available": {"width": 375}, "root": \#(Self.cell)}"#)
        r.computeLayout()
        #expect(r.ids == ["cell", "icon", "title", "subtitle", "chevron"])
        #expect(r.tree.frame(of: r.root) == frame(0, 0, 375, 76))
        #expect(childFrames(r) == [frame(15, 15, 44, 44), frame(74, 15, 251, 24), frame(74, 39, 251, 22), frame(340, 23, 20, 30)])
        // Right-to-left mirrors every x (natural positioning): x' = 375 - x - w.
        var rtl = try decode(#"{"available": {"width": 375}, "direction": "rtl", "root": \#(Self.cell)}"#)
        rtl.computeLayout()
        #expect(childFrames(rtl).map(\.left) == [316, 50, 50, 15])
        // Absolute positioning keeps left-to-right x in RTL.
        let absolute = Self.cell.replacingOccurrences(of: #"{"axis": "h", "intents""#, with: #"{"axis": "h", "positioning": "absolute", "intents""#)
        var abs = try decode(#"{"available": {"width": 375}, "direction": "rtl", "root": \#(absolute)}"#)
        abs.computeLayout()
        #expect(childFrames(abs).map(\.left) == [15, 74, 74, 340])
    }

    @Test func fixFlexCellsInsideAColumn() throws {
        // Two cells stacked by a flex column 375 wide: each fits to 76, the second at y 76.
        var r = try decode(#"{"available": {"width": 375}, "root": {"children": [\#(Self.cell), \#(Self.cell)]}}"#)
        r.computeLayout()
        #expect(r.tree.frame(of: r.root) == frame(0, 0, 375, 152))
        #expect(childFrames(r) == [frame(0, 0, 375, 76), frame(0, 76, 375, 76)])
        let second = Array(r.tree.children(of: r.root))[1]
        #expect(childFrames(r, of: second)[3] == frame(340, 23, 20, 30))
    }

    /// Two 50×40 labels centered in a 100-wide container, spaced 2:1:2 vertically from the top
    /// margin (8) down, at least 32 per coefficient.
    static func spaces(height: String) -> String {
        #"""
        {"config": {"pointScaleFactor": 0}, "available": {"width": 100},
         "root": {"type": "flexible-spaces", "style": {\#(height)},
          "items": [{"id": "first", "intrinsicSize": {"width": 50, "height": 40}},
                    {"id": "second", "intrinsicSize": {"width": 50, "height": 40}}],
          "constraints": ["first.centerX == container.centerX", {"first": "second.centerX", "second": "container.centerX"}],
          "groups": [{"axis": "v", "minimalSize": {"coefficient": 1, "value": 32},
                      "spaces": [{"from": "container.topMargin", "to": "first.top", "coefficient": 2},
                                 {"from": "second.top", "to": "first.bottom", "reversedWith": 1},
                                 {"from": "second.bottom", "to": "container.bottom", "coefficient": 2}]}]}}
        """#
    }

    @Test func flexibleSpaces212WithMinimum() throws {
        // Fitted height: the minimum decides: 8 + 80 + 5 * 32 = 248; first at 8 + 2 * 32 = 72,
        // second at 72 + 40 + 32 = 144.
        var fitted = try decode(Self.spaces(height: ""))
        fitted.computeLayout()
        #expect(near(fitted.tree.frame(of: fitted.root), frame(0, 0, 100, 248)))
        let f = childFrames(fitted)
        #expect(near(f[0], frame(25, 72, 50, 40)) && near(f[1], frame(25, 144, 50, 40)))
        // 300 high: 300 - 8 - 80 = 212 = 5 units of 42.4 (> 32): first at 8 + 84.8 = 92.8,
        // second at 92.8 + 40 + 42.4 = 175.2.
        var tall = try decode(Self.spaces(height: #""height": 300"#))
        tall.computeLayout()
        let t = childFrames(tall)
        #expect(near(t[0], frame(25, 92.8, 50, 40)) && near(t[1], frame(25, 175.2, 50, 40)))
    }

    @Test func stringAndObjectConstraintsAgree() throws {
        // Same layout written both ways: a 40×40 icon 10 from the leading edge, a label 8 after it.
        func layout(_ constraints: String) throws -> [Frame] {
            var r = try decode(#"""
            {"available": {"width": 200, "height": 60}, "root": {"type": "constraints",
             "items": [{"id": "icon"}, {"id": "label", "intrinsicSize": {"width": 60, "height": 20}}],
             "constraints": \#(constraints)}}
            """#)
            r.computeLayout()
            return childFrames(r)
        }
        let strings = try layout(#"""
        ["icon.leading == container.leading + 10", "icon.width == 40", "icon.height == 1 * icon.width @required",
         "icon.centerY == container.centerY", "label.leading == icon.trailing + 8 @750", "label.centerY == icon.centerY"]
        """#)
        let objects = try layout(#"""
        [{"first": "icon.leading", "second": "container.leading", "constant": 10}, {"first": "icon.width", "constant": 40},
         {"first": "icon.height", "relation": "==", "second": "icon.width", "multiplier": 1, "priority": 1000},
         {"first": "icon.centerY", "second": "container.centerY"},
         {"first": "label.leading", "second": "icon.trailing", "constant": 8, "priority": 750},
         {"first": "label.centerY", "second": "icon.centerY"}]
        """#)
        #expect(strings == [frame(10, 10, 40, 40), frame(58, 20, 60, 20)])
        #expect(objects == strings)
    }

    @Test func unsatisfiableConstraintsNameTheirLabelsWithPointers() throws {
        // Nested one level down, so the pointers carry the node's place in the tree.
        let e = try #require(error(#"""
        {"root": {"children": [{"type": "constraints", "items": [{"id": "a"}],
          "constraints": [{"first": "a.width", "constant": 100, "label": "a is 100"},
                          "a.height == 10",
                          "a.width >= 120"]}]}}
        """#))
        #expect(e.kind == .invalid && e.code == "unsatisfiable-constraints")
        #expect(e.message.contains("\"a is 100\"") && e.message.contains("\"a.width >= 120\""))
        #expect(!e.message.contains("a.height == 10"))
        #expect(e.conflicts == ["/root/children/0/constraints/0", "/root/children/0/constraints/2"])
        #expect(e.pointer == "/root/children/0/constraints/0")

        // FixFlex: two stacks fixing the same view to different widths; both fixes are in every
        // conflicting set, named by their generated labels and pointed at as intents.
        let f = try #require(error(#"""
        {"root": {"type": "fixflex", "items": [{"id": "a"}],
          "stacks": [{"axis": "h", "intents": [{"kind": "fix", "view": "a", "value": 100}]},
                     {"axis": "h", "intents": [{"kind": "fix", "view": "a", "value": 120}]}]}}
        """#))
        #expect(f.code == "unsatisfiable-constraints")
        #expect(f.message.contains("stacks[0].intents[0](a) fix 100.0") && f.message.contains("stacks[1].intents[0](a) fix 120.0"))
        let conflicts = f.conflicts ?? []
        #expect(conflicts.contains("/root/stacks/0/intents/0") && conflicts.contains("/root/stacks/1/intents/0"))

        // Flexible spaces: a minimum the required sizes cannot leave room for is no conflict
        // while the container size is free, so it is accepted.
        #expect(error(Self.spaces(height: "")) == nil)
    }

    @Test func constraintContainerInsideAFlexRow() throws {
        // Row 300×100: a 100×50 leaf (stretched to 100 high), then the container (flexGrow 1). Its basis is
        // its fitted width 10 + 40 + 8 + 60 + 10 = 128; it grows by 300 - 100 - 128 = 72 to 200
        // and is stretched to 100 high. Inside, at 200×100: icon (10, 30, 40, 40), label at
        // x = 58, centered: (58, 40, 60, 20).
        var r = try decode(#"""
        {"root": {"style": {"flexDirection": "row", "width": 300, "height": 100}, "children": [
          {"id": "leaf", "measure": {"kind": "fixed", "width": 100, "height": 50}},
          {"type": "constraints", "id": "box", "style": {"flexGrow": 1},
           "items": [{"id": "icon"}, {"id": "label", "intrinsicSize": {"width": 60, "height": 20}}],
           "constraints": ["icon.leading == container.leading + 10", "icon.width == 40", "icon.height == 40",
                           "icon.centerY == container.centerY", "label.leading == icon.trailing + 8",
                           "label.trailing <= container.trailing - 10", "label.centerY == icon.centerY"]}]}}
        """#)
        r.computeLayout()
        #expect(childFrames(r) == [frame(0, 0, 100, 100), frame(100, 0, 200, 100)])
        let box = Array(r.tree.children(of: r.root))[1]
        #expect(childFrames(r, of: box) == [frame(10, 30, 40, 40), frame(58, 40, 60, 20)])
        #expect(r.ids == [nil, "leaf", "box", "icon", "label"])
    }

    @Test func flexSubtreesAsConstraintItems() throws {
        // Container 300 wide, height fitted. "header" is a flex row of two leaves (50×20 and
        // 30×20, space-between), its intrinsic size the row's max-content size 80×20; pinned 20
        // from both sides it is 260 wide at (20, 10), so its second leaf sits at 260 - 30 = 230.
        // Container height = 10 + 20 + 10 = 40. "tag" (a 30×10 leaf node, intrinsic from the
        // node) follows the header's top-left corner + 5: (25, 15, 30, 10).
        var r = try decode(#"""
        {"available": {"width": 300}, "root": {"type": "constraints", "layoutMargins": 0,
          "items": [
            {"id": "header", "node": {"style": {"flexDirection": "row", "justifyContent": "space-between"}, "children": [
               {"id": "a", "measure": {"kind": "fixed", "width": 50, "height": 20}},
               {"id": "b", "measure": {"kind": "fixed", "width": 30, "height": 20}}]}},
            {"id": "tag", "node": {"measure": {"kind": "fixed", "width": 30, "height": 10}}}],
          "constraints": ["header.leading == container.leading + 20", "header.trailing == container.trailing - 20",
                          "header.top == container.top + 10", "container.bottom == header.bottom + 10",
                          "tag.leading == header.leading + 5", "tag.top == header.top + 5"]}}
        """#)
        r.computeLayout()
        #expect(r.ids == [nil, "header", "a", "b", "tag"])
        #expect(r.tree.frame(of: r.root) == frame(0, 0, 300, 40))
        #expect(childFrames(r) == [frame(20, 10, 260, 20), frame(25, 15, 30, 10)])
        let header = Array(r.tree.children(of: r.root))[0]
        #expect(childFrames(r, of: header) == [frame(0, 0, 50, 20), frame(230, 0, 30, 20)])

        // Without the trailing pin the header keeps its intrinsic width 80 (hugging 250 beats
        // nothing else), so b sits at 80 - 30 = 50.
        var loose = try decode(#"""
        {"available": {"width": 300}, "root": {"type": "constraints",
          "items": [{"id": "header", "node": {"style": {"flexDirection": "row", "justifyContent": "space-between"}, "children": [
               {"measure": {"kind": "fixed", "width": 50, "height": 20}}, {"measure": {"kind": "fixed", "width": 30, "height": 20}}]}}],
          "constraints": ["header.leading == container.leading + 20", "header.top == container.top + 10"]}}
        """#)
        loose.computeLayout()
        #expect(childFrames(loose) == [frame(20, 10, 80, 20)])
        #expect(childFrames(loose, of: Array(loose.tree.children(of: loose.root))[0]).map(\.left) == [0, 50])
    }

    @Test func badFieldsAre422WithPointers() {
        func check(_ body: String, _ code: String, _ pointer: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let e = error(#"{"root": \#(body)}"#)
            #expect(e?.kind == .invalid, sourceLocation: sourceLocation)
            #expect(e?.code == code, "\(e?.description ?? "no error")", sourceLocation: sourceLocation)
            #expect(e?.pointer == pointer, "\(e?.description ?? "no error")", sourceLocation: sourceLocation)
        }
        check(#"{"type": "constraints", "items": [{"id": "a"}], "constraints": [{"first": "a.middle"}]}"#,
              "unknown-value", "/root/constraints/0/first")
        // One code per rule: an anchor naming no item (or no anchor kind) is unknown-value in a
        // constraint string as in the object form; a string that does not parse is invalid-value.
        check(#"{"type": "constraints", "items": [{"id": "a"}], "constraints": ["a.width == b.width"]}"#,
              "unknown-value", "/root/constraints/0")
        check(#"{"type": "constraints", "items": [{"id": "a"}], "constraints": [{"first": "a.width", "second": "b.width"}]}"#,
              "unknown-value", "/root/constraints/0/second")
        check(#"{"type": "constraints", "items": [{"id": "a"}], "constraints": ["a.middle == 10"]}"#,
              "unknown-value", "/root/constraints/0")
        check(#"{"type": "constraints", "items": [{"id": "a"}], "constraints": ["a.width == == 10"]}"#,
              "invalid-value", "/root/constraints/0")
        check(#"{"type": "constraints", "items": [{"id": "a"}], "constraints": ["a.width == 10 @1001"]}"#,
              "invalid-value", "/root/constraints/0")
        check(#"{"type": "constraints", "items": [{"id": "a"}], "constraints": [{"first": "a.width", "second": "a.left"}]}"#,
              "invalid-value", "/root/constraints/0")
        check(#"{"type": "constraints", "items": [{"id": "a"}, {"id": "a"}]}"#, "invalid-value", "/root/items/1/id")
        check(#"{"type": "constraints", "items": [{"intrinsicSize": {"width": 1}}]}"#, "missing-key", "/root/items/0")
        check(#"{"type": "constraints", "items": [{"id": "a", "hugging": {"vertical": 0}}]}"#,
              "invalid-value", "/root/items/0/hugging/vertical")
        check(#"{"type": "constraints", "items": [{"id": "a", "node": {"style": {"width": "wide"}}}]}"#,
              "unknown-value", "/root/items/0/node/style/width")
        check(#"{"type": "constraints", "items": [{"id": "a", "node": {"children": [{"bogus": 1}]}}]}"#,
              "unknown-key", "/root/items/0/node/children/0/bogus")
        check(#"{"type": "constraints", "stacks": []}"#, "unknown-key", "/root/stacks")
        check(#"{"type": "fixflex", "items": [{"id": "a"}], "stacks": [{"axis": "h", "intents": [{"kind": "fix", "view": "b", "value": 1}]}]}"#,
              "unknown-value", "/root/stacks/0/intents/0/view")
        check(#"{"type": "fixflex", "stacks": [{"axis": "h", "intents": [{"kind": "fill", "weight": 0}]}]}"#,
              "invalid-value", "/root/stacks/0/intents/0/weight")
        check(#"{"type": "fixflex", "stacks": [{"axis": "h", "intents": [{"kind": "fix", "value": 1, "weight": 2}]}]}"#,
              "unknown-key", "/root/stacks/0/intents/0/weight")
        check(#"{"type": "fixflex", "items": [{"id": "a"}], "stacks": [{"axis": "v", "startAnchor": "a.leading", "intents": []}]}"#,
              "invalid-value", "/root/stacks/0")
        check(#"{"type": "flexible-spaces", "items": [{"id": "a"}], "groups": [{"axis": "h", "spaces": [{"from": "a.top", "to": "container.bottom", "coefficient": 1}]}]}"#,
              "invalid-value", "/root/groups/0/spaces/0")
        check(#"{"type": "flexible-spaces", "groups": [{"axis": "h", "spaces": [{"from": "container.left", "to": "container.right"}]}]}"#,
              "missing-key", "/root/groups/0/spaces/0")
        check(#"{"children": [{"type": "constraint"}]}"#, "unknown-value", "/root/children/0/type")
        // Beyond Float's range the solver's answer could only be a non-finite frame (once
        // answered 200 with width 0; found by schemathesis).
        check(#"{"type": "constraints", "items": [{"id": "a"}], "constraints": [{"first": "a.width", "constant": 1e39}]}"#,
              "not-representable", "/root/constraints/0/constant")
        check(#"{"type": "constraints", "items": [{"id": "a", "intrinsicSize": {"width": 1e300}}]}"#,
              "not-representable", "/root/items/0/intrinsicSize/width")
    }
}
