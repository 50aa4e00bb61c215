import LayoutEngine
import LayoutTestSupport
import Testing
import LayoutWire

// FlexLayout's and StackViewLayout's `width(of:)` / `height(of:)` as `{"of": id}` sizes, and
// FlexLayout's `isIncludedInLayout`, on the wire: layouts through requests, and one error
// code per rule with a pointer to the `of` member.

@Suite struct SizeOfWireTests: WireDecodingTests {
    @Test func flexWidthOfAnotherNode() throws {
        // FlexLayout: `b.flex.width(of: a)` at half: a 80, b 40, d grows into the 180 left.
        var request = try decode(#"""
        {"root": {"style": {"flexDirection": "row", "width": 300, "height": 100}, "children": [
          {"id": "a", "style": {"width": 80}},
          {"id": "b", "style": {"width": {"of": "a", "multiplier": 0.5}}},
          {"id": "d", "style": {"flexGrow": 1}}]}}
        """#)
        request.computeLayout()
        #expect(childFrames(request) == [frame(0, 0, 80, 100), frame(80, 0, 40, 100), frame(120, 0, 180, 100)])
    }

    @Test func flexHeightOfALaterNodeInAnotherBranch() throws {
        // `height(of:)` pointing forward and across branches: the icon takes the 44 of the
        // header's title, laid out first; the column then stacks them.
        var request = try decode(#"""
        {"root": {"style": {"width": 200, "alignItems": "flex-start"}, "children": [
          {"id": "icon", "style": {"width": 20, "height": {"of": "title"}}},
          {"style": {"flexDirection": "row"}, "children": [
            {"id": "title", "style": {"width": 100, "height": 44}}]}]}}
        """#)
        request.computeLayout()
        #expect(childFrames(request) == [frame(0, 0, 20, 44), frame(0, 44, 100, 44)])
    }

    @Test func stackItemWidthAndHeightOfAnotherItem() throws {
        // StackViewLayout: b is twice a's width and a's height (a measured 60×40, aligned to
        // the start): b 120×40 after a.
        var request = try decode(#"""
        {"root": {"type": "stack", "direction": "row", "alignItems": "start", "width": 300, "height": 100, "children": [
          {"type": "stack-item", "id": "a", "sizeThatFits": {"width": 60, "height": 40}},
          {"type": "stack-item", "id": "b", "sizeThatFits": {"width": 10, "height": 10},
           "width": {"of": "a", "multiplier": 2}, "height": {"of": "a"}}]}}
        """#)
        request.computeLayout()
        #expect(childFrames(request) == [frame(0, 0, 60, 40), frame(60, 0, 120, 40)])
    }

    @Test func theFlexLayoutSeedsUsageExamples() throws {
        // `view.flex.width(of: view1).maxWidth(250)` and `view.flex.height(of: view1)
        // .maxHeight(30%)` in a 400×400 column: view1 is 300×200; the first view takes its
        // 300 capped at 250, the second its 200 capped at 30 % of 400 = 120.
        var request = try decode(#"""
        {"root": {"style": {"width": 400, "height": 400, "alignItems": "flex-start"}, "children": [
          {"id": "view1", "style": {"width": 300, "height": 200}},
          {"style": {"width": {"of": "view1"}, "maxWidth": 250, "height": 10}},
          {"style": {"height": {"of": "view1"}, "maxHeight": "30%", "width": 10}}]}}
        """#)
        request.computeLayout()
        #expect(childFrames(request) == [frame(0, 0, 300, 200), frame(0, 200, 250, 10), frame(0, 210, 10, 120)])
    }

    @Test func theStackViewLayoutSeedsUsageExamples() throws {
        // `view.item.width(of: view1).maxWidth(250)` and `view.item.height(of: view1)
        // .maxHeight(30%)` in a 400×400 column stack aligned to the start: the same sizes.
        var request = try decode(#"""
        {"root": {"type": "stack", "alignItems": "start", "width": 400, "height": 400, "children": [
          {"type": "stack-item", "id": "view1", "sizeThatFits": {"width": 300, "height": 200}},
          {"type": "stack-item", "sizeThatFits": {"width": 10, "height": 10}, "width": {"of": "view1"}, "maxWidth": 250},
          {"type": "stack-item", "sizeThatFits": {"width": 10, "height": 10}, "height": {"of": "view1"}, "maxHeight": "30%"}]}}
        """#)
        request.computeLayout()
        #expect(childFrames(request) == [frame(0, 0, 300, 200), frame(0, 200, 250, 10), frame(0, 210, 10, 120)])
    }

    @Test func aChainOfSizes() throws {
        var request = try decode(#"""
        {"root": {"style": {"flexDirection": "row", "width": 300, "height": 10}, "children": [
          {"id": "c", "style": {"width": {"of": "b", "multiplier": 0.5}}},
          {"id": "b", "style": {"width": {"of": "a", "multiplier": 0.5}}},
          {"id": "a", "style": {"width": 160}}]}}
        """#)
        request.computeLayout()
        #expect(childFrames(request).map(\.width) == [40, 80, 160])
    }

    @Test func flexIsIncludedInLayoutFalseLeavesTheLayout() throws {
        // FlexLayout's isIncludedInLayout(false): the node takes no space, its subtree neither;
        // they answer 0×0 at the origin.
        var request = try decode(#"""
        {"root": {"style": {"flexDirection": "row", "width": 300, "height": 100}, "children": [
          {"id": "a", "style": {"width": 80}},
          {"id": "gone", "isIncludedInLayout": false, "style": {"width": 50}, "children": [{"style": {"width": 10, "height": 10}}]},
          {"id": "b", "isIncludedInLayout": true, "style": {"width": 80}}]}}
        """#)
        request.computeLayout()
        let children = Array(request.tree.children(of: request.root))
        #expect(childFrames(request) == [frame(0, 0, 80, 100), frame(0, 0, 0, 0), frame(80, 0, 80, 100)])
        #expect(childFrames(request, of: children[1]) == [frame(0, 0, 0, 0)])
    }

    @Test func sizesOfOtherNodesArePartOfTheCacheKey() throws {
        func hash(_ multiplier: String) throws -> StructuralHash {
            let request = try decode(#"{"root": {"children": [{"id": "a", "style": {"width": 10}}, "#
                                     + #"{"style": {"width": {"of": "a", "multiplier": \#(multiplier)}}}]}}"#)
            return request.tree.structuralHash(root: request.root)
        }
        #expect(try hash("1") != hash("2"))
        #expect(try hash("2") == hash("2"))
    }

    @Test func oneErrorCodePerRule() {
        func check(_ body: String, _ kind: WireError.Kind, _ code: String, _ pointer: String,
                   limits: WireLimits = .default, sourceLocation: SourceLocation = #_sourceLocation) {
            let e = error(#"{"root": \#(body)}"#, limits: limits)
            #expect(e?.kind == kind, "\(e?.description ?? "no error")", sourceLocation: sourceLocation)
            #expect(e?.code == code, "\(e?.description ?? "no error")", sourceLocation: sourceLocation)
            #expect(e?.pointer == pointer, "\(e?.description ?? "no error")", sourceLocation: sourceLocation)
        }
        // An id no node has.
        check(#"{"children": [{"style": {"width": {"of": "nobody"}}}]}"#, .invalid, "unknown-value", "/root/children/0/style/width/of")
        check(#"{"type": "stack", "children": [{"type": "stack-item", "height": {"of": "x"}}]}"#,
              .invalid, "unknown-value", "/root/children/0/height/of")
        // A cycle, and a node sized from itself.
        check(#"{"children": [{"id": "a", "style": {"width": {"of": "b"}}}, {"id": "b", "style": {"width": {"of": "a"}}}]}"#,
              .invalid, "invalid-value", "/root/children/0/style/width/of")
        check(#"{"id": "r", "style": {"height": {"of": "r"}}}"#, .invalid, "invalid-value", "/root/style/height/of")
        // An id two nodes have.
        check(#"{"children": [{"id": "a"}, {"id": "a"}, {"style": {"width": {"of": "a"}}}]}"#,
              .invalid, "invalid-value", "/root/children/2/style/width/of")
        // The object's own shape.
        check(#"{"style": {"width": {"multiplier": 2}}}"#, .invalid, "missing-key", "/root/style/width")
        check(#"{"style": {"width": {"of": 3}}}"#, .invalid, "wrong-type", "/root/style/width/of")
        check(#"{"style": {"width": {"of": "a", "times": 2}}}"#, .invalid, "unknown-key", "/root/style/width/times")
        check(#"{"style": {"width": {"of": "a", "multiplier": -1}}}"#, .invalid, "invalid-value", "/root/style/width/multiplier")
        check(#"{"style": {"width": {"of": "a", "multiplier": 1e39}}}"#, .invalid, "not-representable", "/root/style/width/multiplier")
        check(#"{"style": {"minWidth": {"of": "a"}}}"#, .invalid, "wrong-type", "/root/style/minWidth")
        check(#"{"isIncludedInLayout": "no"}"#, .invalid, "wrong-type", "/root/isIncludedInLayout")
        // A chain longer than the limit.
        var short = WireLimits.default
        short.maxSizeReferenceChain = 1
        check(#"{"children": [{"id": "a", "style": {"width": 5}}, {"id": "b", "style": {"width": {"of": "a"}}}, "#
              + #"{"style": {"width": {"of": "b"}}}]}"#, .overLimit, "reference-chain-too-long", "/root/children/2/style/width/of",
              limits: short)
    }
}
