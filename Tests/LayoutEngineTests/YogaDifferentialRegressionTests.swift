import Foundation
import LayoutEngine
import LayoutWire
import Testing

/// The disagreements with real Yoga that `Tests/Scripts/yoga_diff_vectors.py` found (seed 2026,
/// 10,000 trees), each shrunk by `yoga_diff_minimize.py` and fixed. Expected frames are what
/// Yoga 3.2.1 (pyyoga 0.1.0) and Yoga main (yoga-python 0.1.5) both give; each case failed
/// before its fix.
@Suite struct YogaDifferentialRegressionTests {
    static let config = #""config":{"pointScaleFactor":1,"useWebDefaults":false,"experimentalFeatures":[],"errata":"min-size-undefined-instead-of-auto"}"#

    /// A baseline row whose item's first child is `display: none`: Yoga's baseline of that
    /// item is NaN (the hidden child's measured height is undefined), so the item adds nothing
    /// to the line's cross size and the row is 0 high (cases 01636 and 08887).
    @Test func baselineThroughHiddenChildIsUndefined() throws {
        try expectYoga(#"""
            {"available":{"width":null,"height":null},"direction":"ltr",\#(Self.config),
             "root":{"id":"root","style":{"flexDirection":"row","alignItems":"baseline"},"children":[
               {"id":"item","style":{"alignSelf":"stretch","borderWidth":0.5},"children":[
                 {"id":"hidden","style":{"display":"none"}}]}]},
             "expected":{"id":"root","left":0,"top":0,"width":1,"height":0,"children":[
               {"id":"item","left":0,"top":0,"width":1,"height":1,"children":[
                 {"id":"hidden","left":0,"top":0,"width":0,"height":0}]}]}}
            """#)
    }

    /// `justify-content: space-around` with only an absolute child and free space from the min
    /// height: Yoga's content size is infinite, clamped to the max height (case 09313).
    @Test func spaceAroundWithoutItemsTakesTheMaxSize() throws {
        try expectYoga(#"""
            {"available":{"width":null,"height":null},"direction":"ltr",\#(Self.config),
             "root":{"id":"root","style":{},"children":[
               {"id":"box","style":{"justifyContent":"space-around","minHeight":4,"maxHeight":73},"children":[
                 {"id":"abs","style":{"position":"absolute"}}]}]},
             "expected":{"id":"root","left":0,"top":0,"width":0,"height":73,"children":[
               {"id":"box","left":0,"top":0,"width":0,"height":73,"children":[
                 {"id":"abs","left":0,"top":37,"width":0,"height":0}]}]}}
            """#)
    }

    /// A text leaf with a 150-point top margin measured at most 10 high (0 high), then asked at
    /// most 153: Yoga's stricter-size cache rule compares 153 - 150 with the old 10 margins
    /// included, so it keeps the 0-high result and `inner` is 150 + 0 + 30 % of 153 = 196
    /// (case 09653).
    @Test func stricterSizeCacheRuleComparesTheOldSizeWithMargins() throws {
        try expectYoga(#"""
            {"available":{"width":250,"height":300},"direction":"ltr",\#(Self.config),
             "root":{"id":"root","style":{},"children":[
               {"id":"outer","style":{"height":10},"children":[
                 {"id":"column","style":{},"children":[
                   {"id":"inner","style":{},"children":[
                     {"id":"text","style":{"marginTop":150},
                      "measure":{"kind":"intrinsic-text","text":"ipsum lorem ab wide amet"}},
                     {"id":"percent","style":{"height":"30%"}}]}]}]}]},
             "expected":{"id":"root","left":0,"top":0,"width":250,"height":300,"children":[
               {"id":"outer","left":0,"top":0,"width":250,"height":10,"children":[
                 {"id":"column","left":0,"top":0,"width":250,"height":153,"children":[
                   {"id":"inner","left":0,"top":0,"width":250,"height":196,"children":[
                     {"id":"text","left":0,"top":150,"width":250,"height":10},
                     {"id":"percent","left":0,"top":160,"width":250,"height":59}]}]}]}]}}
            """#)
    }

    func expectYoga(_ json: String) throws {
        let testCase = try JSONValue.parse(bytes: Array(json.utf8))
        let request = try LayoutWire.decodeRequest(testCase)
        var tree = request.tree
        tree.computeLayout(root: request.root, available: request.available, direction: request.direction)
        var found: [YogaDifferentialTests.Disagreement] = []
        YogaDifferentialTests.compare(tree, request, node: request.root, expected: try #require(testCase["expected"]),
                                      caseName: "regression", tolerance: 0.01, into: &found)
        #expect(found.isEmpty, "\(found)")
    }
}
