import Foundation
import LayoutEngine
@testable import LayoutServer
import LayoutWire
import Testing

// `"print": true` on a `core-layout` root: the answer carries the computed tree as Core
// Layout's Swift API prints it, the same text `CoreLayout.ComputedLayout.description` gives
// for the same tree — computed or from the cache.

@Suite struct PrintedTreeTests {
    /// The README's debugging example: a 44×44 child absolutely at (8, 8) in 160×284.
    static let debugExample = #"""
    {"available": {"width": 160, "height": 284}, "print": true,
     "root": {"type": "core-layout", "container": {"primaryAxis": "vertical"},
      "children": [{"type": "core-layout", "overriddenPosition": {"type": "absolute", "top": 8, "leading": 8},
                    "size": {"mode": "absolute", "width": 44, "height": 44}}]}}
    """#

    private func printed(_ body: [UInt8]) throws -> String? {
        try (JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["print"] as? String
    }

    @Test func theREADMEsDebugPrintOverHTTP() throws {
        let answer = LayoutOnce.answer(body: Array(Self.debugExample.utf8))
        #expect(answer.status == 200)
        let layout = CoreLayout.Layout(
            container: CoreLayout.ContainerBehavior(primaryAxis: .vertical),
            children: [CoreLayout.Layout(overriddenPosition: .absolute(CoreLayout.Edges(top: 8, leading: 8)),
                                         size: .absolute(width: 44, height: 44))])
        let swift = try layout.compute(with: Size(width: 160, height: 284)).description
        #expect(try printed(answer.body) == swift)
        #expect(try printed(answer.body) == """
            ComputedLayout(
              frame: CGRect(x: 0.0, y: 0.0, width: 160.0, height: 284.0),
              children: [
                ComputedLayout(frame: CGRect(x: 8.0, y: 8.0, width: 44.0, height: 44.0))
              ]
            )
            """)
    }

    @Test func identifiersRelativeSizesAndTheCache() throws {
        // The README's relative-size example with the label's size as "my parent's width
        // minus 20, half its height"; the second answer comes from the frame cache and prints
        // the same.
        let body = #"""
        {"available": {"width": 164, "height": 164}, "print": true,
         "root": {"type": "core-layout", "container": {"primaryAxis": "vertical", "secondaryAxisDistribution": "leading"},
          "children": [{"type": "core-layout", "identifier": "Core Layout",
                        "size": {"mode": "relative", "width": {"constant": -20}, "height": {"multiplier": 0.5}},
                        "margin": {"leading": 8}}]}}
        """#
        let layout = CoreLayout.Layout(
            container: CoreLayout.ContainerBehavior(primaryAxis: .vertical, secondaryAxisDistribution: .leading),
            children: [CoreLayout.Layout(identifier: "Core Layout",
                                         size: .relative(width: .init(constant: -20), height: .init(multiplier: 0.5)),
                                         margin: CoreLayout.Edges(leading: 8))])
        let swift = try layout.compute(with: Size(width: 164, height: 164)).description
        let computer = LayoutComputer(cache: FrameCache(capacityBytes: 1 << 20, shardCount: 1), limits: .default)
        let miss = computer.answer(body: Array(body.utf8), ifNoneMatch: nil)
        let hit = computer.answer(body: Array(body.utf8), ifNoneMatch: nil)
        #expect(miss.cache == .miss && hit.cache == .hit)
        #expect(try printed(miss.body) == swift)
        #expect(try printed(hit.body) == swift)
        #expect(swift.contains(#"identifier: "Core Layout", frame: CGRect(x: 8.0, y: 0.0, width: 136.0, height: 82.0)"#))
    }

    @Test func thePrintedAnswerHasItsOwnETag() throws {
        let computer = LayoutComputer(cache: FrameCache(capacityBytes: 1 << 20, shardCount: 1), limits: .default)
        let printedTag = computer.answer(body: Array(Self.debugExample.utf8), ifNoneMatch: nil).entityTag
        let plain = Self.debugExample.replacingOccurrences(of: #""print": true"#, with: #""print": false"#)
        let plainAnswer = computer.answer(body: Array(plain.utf8), ifNoneMatch: nil)
        #expect(try printed(plainAnswer.body) == nil)
        #expect(printedTag != nil && plainAnswer.entityTag != nil && printedTag != plainAnswer.entityTag)
        // The plain answer's tag does not turn a printing request into a 304.
        let conditional = computer.answer(body: Array(Self.debugExample.utf8), ifNoneMatch: plainAnswer.entityTag)
        #expect(conditional.status == 200)
    }

    @Test func printIsForCoreLayoutRoots() throws {
        let flex = LayoutOnce.answer(body: Array(#"{"print": true, "root": {"style": {"width": 10}}}"#.utf8))
        #expect(flex.status == 422)
        let error = (try JSONSerialization.jsonObject(with: Data(flex.body)) as? [String: Any])?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "invalid-value")
        #expect(error?["pointer"] as? String == "/print")
        let wrongType = LayoutOnce.answer(body: Array(#"{"print": "yes", "root": {"type": "core-layout"}}"#.utf8))
        #expect(wrongType.status == 422)
        // false needs no particular root.
        #expect(LayoutOnce.answer(body: Array(#"{"print": false, "root": {"style": {"width": 10}}}"#.utf8)).status == 200)
    }
}
