import Foundation
import LayoutEngine
import LayoutWire
import Testing

/// Differential test against two real Yogas: random trees that
/// `Tests/Scripts/yoga_diff_vectors.py` laid out with Yoga 3.2.1 (PyPI `pyyoga` 0.1.0) and with
/// Yoga main (PyPI `yoga-python` 0.1.5), kept only where the two agree, stored in
/// `Tests/Fixtures/yoga-diff/` (a sample of a 10,000-tree run; the script regenerates it).
///
/// Every case must agree, except the few in `knownYogaBehaviours`: each names the Yoga behaviour
/// (with its source) the engine deliberately does not copy.
@Suite struct YogaDifferentialTests {
    /// Cases where both Yogas agree and the engine does not, each shrunk with
    /// `Tests/Scripts/yoga_diff_minimize.py` to a few nodes and explained.
    static let knownYogaBehaviours: [String: String] = {
        // Yoga's justifyMainAxis (yoga/algorithm/CalculateLayout.cpp, `case Justify::SpaceAround`:
        // `leadingMainDim = 0.5f * remainingFreeSpace / itemsInFlow.size()`) divides by zero
        // in a container with only absolute or hidden children and free space from its min
        // main size, so its content size is infinite. With a max size boundAxis clamps that,
        // and the engine copies it; without one the owner takes ∞ as the flex basis, its
        // flexible-length step computes 0 × ∞ or ∞ / ∞ (NaN) for that item, and boundAxis
        // turns the NaN size into the padding-and-border size, so Yoga shrinks the container
        // (or an ancestor) to its min size or to 0. The engine leaves the space unused instead,
        // which stays finite where Yoga's answer is NaN: copying the division exactly agrees
        // on every tree of seeds 2026 and 2027 but gives NaN frames in two trees of
        // FuzzRegressionTests.
        let spaceAroundWithoutItems = "Yoga: space-around without in-flow items divides by 0 (infinite content size)"
        var known: [String: String] = [:]
        for n in ["01446", "02212", "06251"] { known["yoga_s2026_\(n)"] = spaceAroundWithoutItems }
        return known
    }()

    static let fixtureURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/yoga-diff/yoga-3.2.1-and-main.json")

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

    @Test func agreesWithBothYogas() throws {
        let data = try Data(contentsOf: Self.fixtureURL)
        let cases = try JSONValue.parse(bytes: Array(data)).elements
        #expect(cases.count >= 1000, "the fixture should hold a sample of 1,000 cases or more")

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

        print("\(agreeing)/\(cases.count) cases agree with Yoga 3.2.1 and main")
        let known = disagreeingCases.filter { Self.knownYogaBehaviours[$0] != nil }
        if !known.isEmpty {
            print("  \(known.count) of the disagreements are named Yoga behaviours the engine does not copy")
        }
        let unexplained = disagreeingCases.filter { Self.knownYogaBehaviours[$0] == nil }
        for name in Self.knownYogaBehaviours.keys.sorted() where !disagreeingCases.contains(name) {
            print("  note: \(name), listed as a known Yoga behaviour, now agrees")
        }
        for d in firstDisagreements.prefix(8) {
            let reason = Self.knownYogaBehaviours[d.caseName].map { " (known: \($0))" } ?? ""
            print("  disagrees: \(d)\(reason)")
        }
        for failure in decodeFailures.prefix(5) { print("  decode failed: \(failure)") }

        #expect(decodeFailures.isEmpty, "every case uses only FORMAT.md values, so each must decode")
        #expect(unexplained.isEmpty, "unexplained disagreements: \(unexplained.joined(separator: ", "))")
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
