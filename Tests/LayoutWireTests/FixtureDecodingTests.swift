import Foundation
import LayoutEngine
import Testing
@testable import LayoutWire

@Suite struct FixtureDecodingTests {
    @Test func everyConformanceCaseDecodes() throws {
        let files = try Fixtures.files()
        #expect(files.count >= 26)
        var cases = 0
        for file in files {
            let document = try JSONValue.parse(bytes: Fixtures.bytes(file))
            #expect(document.kind == .array)
            for (position, testCase) in document.elements.enumerated() {
                let name = testCase["name"]?.stringValue ?? "\(file.lastPathComponent)[\(position)]"
                do {
                    let request = try LayoutWire.decodeRequest(testCase)
                    let root = try #require(testCase["root"])
                    #expect(request.tree.nodeCount == countNodes(root), "\(name)")
                    #expect(request.ids.count == request.tree.nodeCount, "\(name)")
                    #expect(request.ids[Int(request.root.index)] == root["id"]?.stringValue, "\(name)")
                    let direction = testCase["direction"]?.stringValue
                    #expect(request.direction == (direction == "rtl" ? .rtl : .ltr), "\(name)")
                    #expect(request.tree.config.errata == .minSizeUndefinedInsteadOfAuto, "\(name)")
                } catch {
                    Issue.record("\(name): \(error)")
                }
                cases += 1
            }
        }
        #expect(cases == 1180)
    }

    /// Children keep their order and parent links; ids line up with node indices.
    @Test func treeShapeFollowsTheDocument() throws {
        let file = Fixtures.directory.appendingPathComponent("android-news-feed.json")
        let testCase = try #require(JSONValue.parse(bytes: Fixtures.bytes(file))[0])
        let request = try LayoutWire.decodeRequest(testCase)
        // Walk the JSON and the tree side by side.
        var pending: [(JSONValue, NodeID)] = [(try #require(testCase["root"]), request.root)]
        while let (json, node) = pending.popLast() {
            #expect(request.ids[Int(node.index)] == json["id"]?.stringValue)
            let jsonChildren = json["children"]?.elements ?? []
            let treeChildren = Array(request.tree.children(of: node))
            #expect(jsonChildren.count == treeChildren.count)
            for (j, t) in zip(jsonChildren, treeChildren) {
                #expect(request.tree.parent(of: t) == node)
                pending.append((j, t))
            }
        }
    }

    /// Style keys land on the right fields, checked on cases that use each family.
    @Test func fixtureStylesMapToTheModel() throws {
        let file = Fixtures.directory.appendingPathComponent("intrinsic-size.json")
        let document = try JSONValue.parse(bytes: Fixtures.bytes(file))
        var sawText = false
        for testCase in document.elements {
            let request = try LayoutWire.decodeRequest(testCase)
            for index in 0..<request.tree.nodeCount {
                if case .intrinsicText(let text) = request.tree.content(of: NodeID(index)) {
                    sawText = true
                    #expect(!text.isEmpty)
                }
            }
        }
        #expect(sawText)
    }
}

/// Encoding a laid-out fixture case gives the shape of its `expected`: the same ids in the
/// same tree, every frame member present.
@Suite struct FixtureResponseShapeTests {
    @Test func responsesMirrorExpected() throws {
        var checked = 0
        for file in try Fixtures.files() {
            for testCase in try JSONValue.parse(bytes: Fixtures.bytes(file)).elements {
                var request = try LayoutWire.decodeRequest(testCase)
                request.computeLayout()
                let response = try JSONValue.parse(bytes: LayoutWire.encodeResponse(request))
                var pending = [(try #require(response["root"]), try #require(testCase["expected"]))]
                while let (got, want) = pending.popLast() {
                    #expect(got["id"]?.stringValue == want["id"]?.stringValue)
                    for key in ["left", "top", "width", "height"] { #expect(got[key]?.kind == .number) }
                    let gotChildren = got["children"]?.elements ?? []
                    let wantChildren = want["children"]?.elements ?? []
                    #expect(gotChildren.count == wantChildren.count)
                    pending.append(contentsOf: zip(gotChildren, wantChildren))
                }
                checked += 1
            }
        }
        #expect(checked == 1180)
    }
}
