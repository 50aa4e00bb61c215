import Foundation
import LayoutEngine
import Testing
@testable import LayoutWire

/// The one answer encoder, fed from either frame source.
@Suite struct ResponseEncoderTests {
    /// root(a(b, c(d)), e): pre-order a=1, b=2, c=3, d=4, e=5.
    static func tree() throws -> (LayoutTree, NodeID) {
        var tree = LayoutTree()
        let root = try tree.addNode()
        let a = try tree.addNode(), b = try tree.addNode(), c = try tree.addNode()
        let d = try tree.addNode(), e = try tree.addNode()
        tree.appendChild(a, to: root)
        tree.appendChild(b, to: a)
        tree.appendChild(c, to: a)
        tree.appendChild(d, to: c)
        tree.appendChild(e, to: root)
        return (tree, root)
    }

    static let expected = #"{"root":{"id":"r","left":0,"top":0.5,"width":1,"height":2,"children":["#
        + #"{"left":1,"top":0.5,"width":1,"height":2,"children":[{"id":"b\"","left":2,"top":0.5,"width":1,"height":2},"#
        + #"{"id":"c","left":3,"top":0.5,"width":1,"height":2,"children":[{"id":"d","left":4,"top":0.5,"width":1,"height":2}]}]},"#
        + #"{"id":"e","left":5,"top":0.5,"width":1,"height":2}]}}"#

    @Test func pointersFollowPreorder() throws {
        let (tree, root) = try Self.tree()
        let expected = ["/root", "/root/children/0", "/root/children/0/children/0", "/root/children/0/children/1",
                        "/root/children/0/children/1/children/0", "/root/children/1"]
        for (index, pointer) in expected.enumerated() {
            #expect(ResponseEncoder.pointer(toPreorderIndex: index, tree: tree, root: root) == pointer)
        }
    }

    @Test func encodesFramesInPreorderWithIds() throws {
        let (tree, root) = try Self.tree()
        let frames = (0..<6).map { Frame(left: Float($0), top: 0.5, width: 1, height: 2) }
        let ids: NodeIdentifiers = ["r", nil, "b\"", "c", "d", "e"]
        let text = String(decoding: ResponseEncoder.encode(tree: tree, root: root, ids: ids, frames: frames), as: UTF8.self)
        #expect(text == Self.expected)
    }

    /// A decoded request's ids are vouched to need no escapes, so the encoder copies them
    /// unscanned; an id set later (as a patch renames a node) is checked, and escaped.
    @Test func idsSetAfterDecodingAreEscaped() throws {
        let body = #"{"root":{"id":"r","children":[{"id":"a"},{"id":"b"}]}}"#
        var request = try LayoutWire.decodeRequest(bytes: Array(body.utf8))
        #expect(request.ids.escapeFree)
        request.ids[2] = "b\"\\"
        request.tree.computeLayout(root: request.root)
        let frames = request.tree.preorderFrames(root: request.root)
        let answer = ResponseEncoder.encode(tree: request.tree, root: request.root, ids: request.ids, frames: frames)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(answer)) as? [String: Any])
        let children = try #require((json["root"] as? [String: Any])?["children"] as? [[String: Any]])
        #expect(children.map { $0["id"] as? String } == ["a", "b\"\\"])
    }

    @Test func preorderFramesListEveryNodeOnceInTheEncodersOrder() throws {
        var (tree, root) = try Self.tree()
        tree.computeLayout(root: root)
        let frames = tree.preorderFrames(root: root)
        #expect(frames.count == 6)
        #expect(frames.first == tree.frame(of: root))
        // The cache's frame list, read back in pre-order, gives the tree's own answer.
        #expect(ResponseEncoder.encode(tree: tree, root: root, ids: [], frames: frames)
                == ResponseEncoder.encode(tree: tree, root: root, ids: [], frames: TreeFrames(), members: NoNodeMembers()))
    }

    @Test func missingFramesReadAsZero() throws {
        let (tree, root) = try Self.tree()
        let text = String(decoding: ResponseEncoder.encode(tree: tree, root: root, ids: [], frames: [Frame]()), as: UTF8.self)
        #expect(text.hasPrefix(#"{"root":{"left":0,"top":0,"width":0,"height":0,"children":[{"left":0,"#))
    }

    /// A feature's members land in every node, after the frame and before `children`.
    @Test func nodeMembersAreWrittenAfterTheFrame() throws {
        struct NodeIndexMember: ResponseNodeMembers {
            func write(_ node: NodeID, in tree: LayoutTree, to writer: inout JSONWriter) {
                writer.key("n"); writer.integer(Int(node.index))
            }
        }
        let (tree, root) = try Self.tree()
        let frames = (0..<6).map { Frame(left: Float($0), top: 0.5, width: 1, height: 2) }
        let ids: NodeIdentifiers = ["r", nil, "b\"", "c", "d", "e"]
        let text = String(decoding: ResponseEncoder.encode(tree: tree, root: root, ids: ids, frames: PreorderFrames(frames),
                                                           members: NodeIndexMember()), as: UTF8.self)
        #expect(text.hasPrefix(#"{"root":{"id":"r","left":0,"top":0.5,"width":1,"height":2,"n":0,"children":["#
                               + #"{"left":1,"top":0.5,"width":1,"height":2,"n":1,"children":[{"id":"b\"","#))
        #expect(text.replacingOccurrences(of: #","n":\d"#, with: "", options: .regularExpression) == Self.expected)
    }
}
