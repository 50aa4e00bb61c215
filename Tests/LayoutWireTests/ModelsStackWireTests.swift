import LayoutEngine
import LayoutTestSupport
import Testing
@testable import LayoutWire

// StackViewLayout's node kinds on the wire: decoding onto the same styles the Swift model
// builds, layout through a request, nesting with flexbox nodes, and errors with pointers.

@Suite struct ModelsStackWireTests: WireDecodingTests {

    @Test func stackDecodesToTheModelsStyles() throws {
        let request = try decode(#"""
        {"root": {"type": "stack", "id": "s", "direction": "row", "justifyContent": "spaceEvenly",
                  "alignItems": "center", "padding": {"all": 4, "left": "10%"},
          "children": [
            {"type": "stack-item", "id": "a", "sizeThatFits": {"width": 60, "height": 40}, "grow": 1, "shrink": 2,
             "alignSelf": "end", "width": "50%", "maxHeight": 30, "margin": {"vertical": "5%", "start": -3},
             "aspectRatio": 1.5, "isHidden": true},
            {"type": "stack-item", "measure": {"kind": "intrinsic-text", "text": "hi"}, "isIncludedInLayout": false}
          ]}}
        """#)
        #expect(request.ids == ["s", "a", nil])
        let stack = StackViewLayout.StackView(direction: .row, justifyContent: .spaceEvenly, alignItems: .center,
                                              padding: StackViewLayout.Insets(top: .points(4), left: .percent(10),
                                                                              bottom: .points(4), right: .points(4)))
        #expect(request.tree.style(of: request.root) == stack.containerStyle(StackViewLayout.StackItem(width: 0, height: 0).itemStyle()))
        let children = Array(request.tree.children(of: request.root))
        var a = StackViewLayout.StackItem(width: 60, height: 40).grow(1).shrink(2).alignSelf(.end)
            .width(.percent(50)).maxHeight(.points(30)).marginVertical(.percent(5)).marginStart(.points(-3))
            .aspectRatio(1.5).isHidden(true)
        #expect(request.tree.style(of: children[0]) == a.itemStyle())
        #expect(request.tree.content(of: children[0]) == .fixed(Size(width: 60, height: 40)))
        a = StackViewLayout.StackItem(width: 0, height: 0).isIncludedInLayout(false)
        #expect(request.tree.style(of: children[1]) == a.itemStyle())
        #expect(request.tree.content(of: children[1]) == .intrinsicText("hi"))
    }

    @Test func stackLaysOutThroughARequest() throws {
        // The intro's row: 4 buttons 60×40 with marginLeft 10, spaceBetween in 300:
        // 270 used, 10 more per gap: x 0, 80, 160, 240; the stack fits its height to 40.
        var request = try decode(#"""
        {"available": {"width": 300},
         "root": {"type": "stack", "direction": "row", "justifyContent": "spaceBetween", "children": [
           {"type": "stack-item", "sizeThatFits": {"width": 60, "height": 40}},
           {"type": "stack-item", "sizeThatFits": {"width": 60, "height": 40}, "margin": {"left": 10}},
           {"type": "stack-item", "sizeThatFits": {"width": 60, "height": 40}, "margin": {"left": 10}},
           {"type": "stack-item", "sizeThatFits": {"width": 60, "height": 40}, "margin": {"left": 10}}]}}
        """#)
        request.computeLayout()
        #expect(request.tree.frame(of: request.root) == frame(0, 0, 300, 40))
        #expect(request.tree.children(of: request.root).map { request.tree.frame(of: $0).left } == [0, 80, 160, 240])
    }

    @Test func percentMarginsResolveAgainstTheStacksFullSize() throws {
        // A 300×400 column with padding 20 and an item with 10 % margins: 30 left and right
        // (of 300, not of the 260 inside the padding), 40 top and bottom (of 400).
        var request = try decode(#"""
        {"root": {"type": "stack", "width": 300, "height": 400, "padding": 20, "children": [
          {"type": "stack-item", "id": "a", "sizeThatFits": {"width": 60, "height": 40}, "margin": "10%"},
          {"type": "stack-item", "id": "b", "sizeThatFits": {"width": 60, "height": 40}}]}}
        """#)
        request.computeLayout()
        let children = Array(request.tree.children(of: request.root))
        #expect(request.tree.frame(of: children[0]) == frame(50, 60, 200, 40))
        #expect(request.tree.frame(of: children[1]) == frame(20, 140, 260, 40))
    }

    @Test func stacksAndFlexNodesNest() throws {
        // A flexbox row (200×100) holds a stack (60 wide: its item; stretched to 100 tall);
        // the stack holds a flex node with a fixed 20-tall style, stretched across 60.
        var request = try decode(#"""
        {"root": {"style": {"flexDirection": "row", "width": 200, "height": 100}, "children": [
          {"type": "stack", "id": "s", "children": [
            {"type": "stack-item", "id": "i", "sizeThatFits": {"width": 60, "height": 30}},
            {"type": "flex", "id": "f", "style": {"height": 20}}]}]}}
        """#)
        request.computeLayout()
        func frameOf(_ id: String) -> Frame? {
            request.ids.firstIndex(of: id).map { request.tree.frame(of: NodeID($0)) }
        }
        #expect(frameOf("s") == frame(0, 0, 60, 100))
        #expect(frameOf("i") == frame(0, 0, 60, 30))
        #expect(frameOf("f") == frame(0, 30, 60, 20))
    }

    @Test(arguments: [
        (#"{"type": "stack", "direction": "diagonal"}"#, "/root/direction", "unknown-value"),
        (#"{"type": "stack", "children": [{"type": "stack-item", "width": "abc"}]}"#, "/root/children/0/width", "unknown-value"),
        (#"{"type": "stack", "children": [{}, {"type": "stack-item", "grow": -1}]}"#, "/root/children/1/grow", "invalid-value"),
        (#"{"type": "stack", "margin": {"top": "5%", "middle": 3}}"#, "/root/margin/middle", "unknown-key"),
        (#"{"type": "stack", "padding": {"left": -1}}"#, "/root/padding/left", "invalid-value"),
        (#"{"type": "stack", "isHidden": "yes"}"#, "/root/isHidden", "wrong-type"),
        (#"{"type": "stack", "style": {}}"#, "/root/style", "unknown-key"),
        (#"{"type": "stack-item", "sizeThatFits": {"width": 1}}"#, "/root/sizeThatFits", "missing-key"),
        (#"{"type": "stack-item", "sizeThatFits": {"width": 1, "height": 1}, "measure": {"kind": "fixed", "width": 1, "height": 1}}"#,
         "/root/measure", "invalid-value"),
        (#"{"type": "stack-item", "children": []}"#, "/root/children", "unknown-key"),
        (#"{"type": "stack-item", "maxWidth": "NaN%"}"#, "/root/maxWidth", "unknown-value"),
        (#"{"type": "stack-item", "maxWidth": "1e39%"}"#, "/root/maxWidth", "not-representable"),
        (#"{"type": "stack-item", "minHeight": "-5%"}"#, "/root/minHeight", "invalid-value"),
    ])
    func badFieldsPointAtThemselves(_ root: String, _ pointer: String, _ code: String) {
        let failure = error(#"{"root": "# + root + "}")
        #expect(failure?.pointer == pointer, "\(String(describing: failure))")
        #expect(failure?.code == code, "\(String(describing: failure))")
        #expect(failure?.kind == .invalid)
    }

    @Test func unknownTypeNamesTheModelKinds() {
        let failure = error(#"{"root": {"type": "stak"}}"#)
        #expect(failure?.pointer == "/root/type")
        #expect(failure?.message.contains("\"stack\"") == true)
    }
}
