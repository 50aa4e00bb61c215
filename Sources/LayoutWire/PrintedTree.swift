import LayoutEngine

// `"print": true` for a `core-layout` root: the answer also carries the computed tree as Core
// Layout's Swift API prints it (`print(computed)`), built by the engine's own
// `CoreLayout.ComputedLayout`, so the text is the one the Swift API prints for the same tree.

extension LayoutRequest {
    /// The computed tree of the root as Core Layout prints it, from `frames` (pre-order from
    /// the root, as the cache holds them) with the request's ids as identifiers.
    public func printedTree(frames: [Frame]) -> String {
        let positions = tree.preorderPositions(root: root)
        let computed = CoreLayout.ComputedLayout(
            collecting: root, in: tree,
            frame: { frames[positions[Int($0.index)]] },
            identifier: { Int($0.index) < ids.count ? ids[Int($0.index)] : nil })
        return computed.description
    }

    /// `answer` (a `{"root": ...}` object) with the printed tree added as `"print"` when the
    /// request asked for it; unchanged otherwise.
    public func addingPrintedTree(to answer: [UInt8], frames: [Frame]) -> [UInt8] {
        guard printsTree, answer.last == UInt8(ascii: "}") else { return answer }
        var writer = JSONWriter(capacity: 64)
        writer.string(printedTree(frames: frames))
        var body = answer
        body.removeLast()
        body.append(contentsOf: Array(",\"print\":".utf8))
        body.append(contentsOf: writer.bytes)
        body.append(UInt8(ascii: "}"))
        return body
    }
}
