import Foundation
import LayoutEngine
import LayoutWire
import Testing

/// Differential test against a real Yoga: random trees that `Tests/Scripts/yoga_diff_vectors.py`
/// laid out with Yoga 3.2.1 (PyPI `pyyoga` 0.1.0), stored in `Tests/Fixtures/yoga-diff/`.
///
/// Our engine follows Yoga `main` (the conformance vectors' commit), not 3.2.1, so a few
/// disagreements are expected; the test prints every figure and asserts a floor rather than
/// perfection. A disagreement that is a real 3.2.1-vs-main behaviour change is listed in
/// `knownVersionDifferences` with its reason.
@Suite struct YogaDifferentialTests {
    /// Cases (of 400) that must agree with Yoga 3.2.1. First run of the working engine
    /// (2026-11-21): 385/400; 14 of the other 15 are listed below, and pyyoga_s2026_0006 (a
    /// column wrap-reverse container of zero width: 3.2.1 puts its 106-high child at left -53,
    /// we at 0) is not explained yet. One case of slack, so a change
    /// that moves one case from 3.2.1's answer to main's does not fail; a real regression does.
    static let minimumAgreement = 384

    /// Disagreements explained by a change in Yoga after 3.2.1 (our engine follows main),
    /// each shrunk to a few nodes with `Tests/Scripts/yoga_diff_minimize.py`.
    static let knownVersionDifferences: [String: String] = {
        // facebook/yoga#1823 (2025-07, fixes #1819): 3.2.1's fixed-size fast path, for a node
        // measured "at most" with zero room on one axis, sets BOTH axes to the owner's size;
        // main only takes it when both axes are fixed. Signature: a node whose content is 0 on
        // one axis gets the owner's full size on the other in 3.2.1 (main's own vector
        // align_items_non_stretch_s526008 is this bug; 3.2.1 fails it, 400 vs 10).
        let zeroSizeFastPath = "facebook/yoga#1823: 3.2.1 sizes a zero-size axis's other axis to the owner"
        var known: [String: String] = [:]
        for n in ["0030", "0045", "0109", "0143", "0163", "0203", "0211", "0231", "0287", "0305",
                  "0331", "0337", "0370", "0389"] {
            known["pyyoga_s2026_\(n)"] = zeroSizeFastPath
        }
        return known
    }()

    static let fixtureURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/yoga-diff/pyyoga-3.2.1.json")

    /// One node whose frame differs from Yoga's.
    struct Disagreement: CustomStringConvertible {
        var caseName: String
        var nodeID: String
        var got: Frame?
        var expected: Frame
        var description: String {
            let g = got.map { "(\($0.left), \($0.top), \($0.width), \($0.height))" } ?? "no node"
            return "\(caseName) \(nodeID): got \(g), expected "
                + "(\(expected.left), \(expected.top), \(expected.width), \(expected.height))"
        }
    }

    @Test func agreesWithYoga321() throws {
        let data = try Data(contentsOf: Self.fixtureURL)
        let cases = try JSONValue.parse(bytes: Array(data)).elements
        #expect(cases.count >= 300, "the fixture should hold a few hundred cases")

        var agreeing = 0
        var firstDisagreements: [Disagreement] = []
        var disagreeingCases: [String] = []
        var decodeFailures: [String] = []
        for testCase in cases {
            let name = testCase["name"]?.stringValue ?? "?"
            let request: LayoutRequest
            do {
                request = try LayoutWire.decodeRequest(testCase)  // it ignores the case metadata
            } catch {
                decodeFailures.append("\(name): \(error)")
                disagreeingCases.append(name)
                continue
            }
            var tree = request.tree
            tree.computeLayout(root: request.root, available: request.available, direction: request.direction)
            let tolerance = Float(testCase["tolerance"]?.doubleValue ?? 0.01)
            var found: [Disagreement] = []
            if let expected = testCase["expected"] {
                Self.compare(tree, request, node: request.root, expected: expected, caseName: name,
                             tolerance: tolerance, into: &found)
            }
            if found.isEmpty {
                agreeing += 1
            } else {
                disagreeingCases.append(name)
                firstDisagreements.append(found[0])  // the first differing node of each case
            }
        }

        print("\(agreeing)/\(cases.count) pyyoga 3.2.1 cases agree")
        let known = disagreeingCases.filter { Self.knownVersionDifferences[$0] != nil }
        if !known.isEmpty {
            print("  \(known.count) of the disagreements are known Yoga 3.2.1 vs main differences")
        }
        let unexplained = disagreeingCases.filter { Self.knownVersionDifferences[$0] == nil }
        if !unexplained.isEmpty {
            print("  unexplained: \(unexplained.joined(separator: ", "))")
        }
        for name in Self.knownVersionDifferences.keys.sorted() where !disagreeingCases.contains(name) {
            print("  note: known difference \(name) now agrees with 3.2.1")
        }
        for d in firstDisagreements.filter({ Self.knownVersionDifferences[$0.caseName] == nil }).prefix(6) {
            print("  disagrees: \(d)")
        }
        for d in firstDisagreements.filter({ Self.knownVersionDifferences[$0.caseName] != nil }).prefix(3) {
            print("  disagrees (known version difference): \(d)")
        }
        for failure in decodeFailures.prefix(5) { print("  decode failed: \(failure)") }

        #expect(decodeFailures.isEmpty, "every case uses only FORMAT.md values, so each must decode")
        #expect(agreeing >= Self.minimumAgreement,
                "\(agreeing)/\(cases.count) agree; the floor is \(Self.minimumAgreement)")
    }

    /// Walks our tree and the expected frames together, in child order.
    static func compare(_ tree: LayoutTree, _ request: LayoutRequest, node: NodeID, expected: JSONValue,
                        caseName: String, tolerance: Float, into found: inout [Disagreement]) {
        let id = expected["id"]?.stringValue ?? "?"
        let want = Frame(left: number(expected["left"]), top: number(expected["top"]),
                         width: number(expected["width"]), height: number(expected["height"]))
        let got = tree.frame(of: node)
        let ourID = Int(node.index) < request.ids.count ? request.ids[Int(node.index)] : nil
        let same = abs(got.left - want.left) <= tolerance && abs(got.top - want.top) <= tolerance
            && abs(got.width - want.width) <= tolerance && abs(got.height - want.height) <= tolerance
        if !same || (ourID != nil && ourID != id) {
            found.append(Disagreement(caseName: caseName, nodeID: id, got: got, expected: want))
        }
        let expectedChildren = expected["children"]?.elements ?? []
        let ourChildren = Array(tree.children(of: node))
        for (index, child) in expectedChildren.enumerated() {
            guard index < ourChildren.count else {
                let childWant = Frame(left: number(child["left"]), top: number(child["top"]),
                                      width: number(child["width"]), height: number(child["height"]))
                found.append(Disagreement(caseName: caseName, nodeID: child["id"]?.stringValue ?? "?",
                                          got: nil, expected: childWant))
                continue
            }
            compare(tree, request, node: ourChildren[index], expected: child, caseName: caseName,
                    tolerance: tolerance, into: &found)
        }
    }

    static func number(_ value: JSONValue?) -> Float {
        Float(value?.doubleValue ?? .nan)
    }
}
