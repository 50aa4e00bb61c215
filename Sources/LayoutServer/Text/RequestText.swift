import LayoutEngine
import LayoutText
import LayoutTextModel
import LayoutWire

/// The text leaves of one request, measured by LayoutText through the engine's hooks: each
/// leaf's content becomes `.custom` with a tag digesting its text, resolved style and the
/// font files under the structural hash's key, so the structural hash (and the cache) changes
/// whenever any of them does, and a client cannot craft text whose tag collides. Text leaves
/// are sized as CSS sizes flex items (`FlexItemSizing.css`), and so are their siblings: a row
/// item starts at its max-content width and never shrinks below its min-content width, as in a
/// browser.
/// Used on one thread, for one request.
final class RequestText {
    let leaves: [TextLeaf]
    let layouter: TextLayouter
    /// Leaf index by node index (-1: not a text leaf).
    private var leafOfNode: [Int32]
    /// Shaped leaves, prepared when first measured or written.
    private var prepared: [PreparedText?]
    /// What each leaf's measurements share (a flex item is measured several times).
    private var memos: [MeasureMemo]

    /// Tags the leaves of `request` and installs the measure and baseline hooks on its tree.
    /// `tagging` false only installs the hooks, on a tree whose leaves were tagged with this
    /// layouter's fonts and `key` before (a tree kept for patches loses its hooks, see
    /// `BaseEntry`): setting a leaf's content again would mark it dirty.
    init(installingOn request: inout LayoutRequest, layouter: TextLayouter, key: StructuralHashKey,
         tagging: Bool = true) {
        leaves = request.textLeaves
        self.layouter = layouter
        prepared = Array(repeating: nil, count: leaves.count)
        memos = Array(repeating: MeasureMemo(), count: leaves.count)
        leafOfNode = Array(repeating: -1, count: request.tree.nodeCount)
        // A copy's tag is its source's: the digest reads every byte of the text and its style,
        // the comparison of a copy (which shares its source's storage) hardly any.
        let copies = request.textLeafCopies
        var tags: [NodeContent] = []
        if tagging && !copies.isEmpty { tags.reserveCapacity(leaves.count) }
        for index in leaves.indices {
            // Read in place: a copy of the leaf would retain its texts and family names.
            let node = leaves[index].node
            leafOfNode[Int(node.index)] = Int32(index)
            guard tagging else { continue }
            let source = index < copies.count ? Int(copies[index]) : -1
            let tag = source >= 0 && source < index && leaves[source].content == leaves[index].content
                ? tags[source] : Self.content(leaves[index].content, layouter: layouter, key: key)
            if !copies.isEmpty { tags.append(tag) }
            try? request.tree.setContent(tag, for: node)
        }
        // The hooks hold this object (which holds no tree): they stay valid as long as the tree.
        request.tree.measureFunction = { [self] node, width, widthMode, _, _ in
            guard let leaf = self.leaf(of: node) else { return .zero }
            let size = self.prepared(leaf).measure(available: widthMode == .undefined ? nil : width,
                                                   exact: widthMode == .exactly, memo: &self.memos[leaf])
            return Size(width: size.width, height: size.height)
        }
        // The first line's baseline below the content box's top (its padding and border as
        // the engine resolved them, percentages included), the lines broken at its width.
        request.tree.baselineFunction = { [self] node, _, _, content in
            guard let leaf = self.leaf(of: node) else { return 0 }
            return content.top + self.memos[leaf].firstBaseline(self.prepared(leaf), available: content.width)
        }
    }

    /// What a text leaf of `text` holds in the tree: a custom leaf whose tag digests the text,
    /// its style and the layouter's fonts under `key`.
    static func content(_ text: TextContent, layouter: TextLayouter, key: StructuralHashKey) -> NodeContent {
        .custom(tag: Int(bitPattern: UInt(KeyedTextDigest.digest(text, key: key, seed: layouter.fonts.digest))),
                flexSizing: .css)
    }

    private func leaf(of node: NodeID) -> Int? {
        let i = Int(node.index)
        guard i < leafOfNode.count, leafOfNode[i] >= 0 else { return nil }
        return Int(leafOfNode[i])
    }

    private func prepared(_ leaf: Int) -> PreparedText {
        if let text = prepared[leaf] { return text }
        let text = layouter.prepare(leaves[leaf].content)
        prepared[leaf] = text
        return text
    }

    /// The content box of every leaf, in leaf order: appended to the frames a cache entry
    /// keeps, so a cached answer can lay the lines out again without a layout pass.
    func contentBoxes(of tree: LayoutTree) -> [Frame] {
        leaves.map { tree.contentBox(of: $0.node) }
    }

    /// Writes `"lines"` for a text leaf, laid out in its content box (`boxes[leaf]`).
    func writeLines(_ node: NodeID, boxes: ArraySlice<Frame>, into writer: inout JSONWriter) {
        let i = Int(node.index)
        guard i < leafOfNode.count, leafOfNode[i] >= 0 else { return }
        let leaf = Int(leafOfNode[i])
        let box = boxes[boxes.startIndex + leaf]
        let layout = prepared(leaf).layout(available: box.width, boxWidth: box.width)
        writer.key("lines" as StaticString)
        writer.beginArray()
        for line in layout.lines {
            writer.beginObject()
            writer.key("text" as StaticString); writer.string(line.text)
            writer.key("left" as StaticString); writer.number(line.left)
            writer.key("top" as StaticString); writer.number(line.top)
            writer.key("width" as StaticString); writer.number(line.width)
            writer.key("height" as StaticString); writer.number(line.height)
            writer.key("baseline" as StaticString); writer.number(line.baseline)
            writer.endObject()
        }
        writer.endArray()
    }

    /// Each leaf's lines with their glyph runs, by node index, laid out in its content box as
    /// `writeLines` lays them out: what a picture draws.
    func glyphLines(of tree: LayoutTree) -> [Int32: [GlyphLine]] {
        var lines: [Int32: [GlyphLine]] = [:]
        for (leaf, entry) in leaves.enumerated() {
            let box = tree.contentBox(of: entry.node)
            lines[entry.node.index] = layouter.glyphLines(prepared(leaf), of: entry.content, available: box.width,
                                                          boxWidth: box.width)
        }
        return lines
    }

    /// Writes the answer's `warnings` member.
    static func write(_ warnings: [WireWarning], into writer: inout JSONWriter) {
        writer.key("warnings" as StaticString)
        writer.beginArray()
        for warning in warnings {
            writer.beginObject()
            writer.key("code" as StaticString); writer.string(warning.code)
            writer.key("message" as StaticString); writer.string(warning.message)
            writer.key("pointer" as StaticString); writer.string(warning.pointer)
            writer.endObject()
        }
        writer.endArray()
    }

    /// The font families `text`'s styles name that no font has (paragraph style first, then
    /// the spans'), each once: what a warning of its leaf lists.
    static func unknownFamilies(in text: TextContent, fonts: FontLibrary) -> [String] {
        var known: [String: Bool] = [:]
        return unknownFamilies(in: text, fonts: fonts, known: &known)
    }

    /// `unknownFamilies(in:fonts:)`, with `known` noting by name whether a font has the family:
    /// a request's leaves mostly name the same few, and looking a family up in the library
    /// (its name lowercased, the library's lock taken) cost more than the rest of a warning's
    /// check.
    static func unknownFamilies(in text: TextContent, fonts: FontLibrary, known: inout [String: Bool]) -> [String] {
        var unknown: [String] = []
        func note(_ style: TextStyle) {
            // As `FontLibrary.primaryFace` reports them: the names before the first known one.
            for name in style.fontFamilies {
                let isKnown: Bool
                if let noted = known[name] {
                    isKnown = noted
                } else {
                    isKnown = fonts.faces(ofFamily: name) != nil
                    known[name] = isKnown
                }
                if isKnown { break }
                if !unknown.contains(name) { unknown.append(name) }
            }
        }
        note(text.style)
        for span in text.spans { note(span.style) }
        return unknown
    }

    /// One warning per text leaf whose styles name font families no font has.
    var warnings: [WireWarning] {
        let fonts = layouter.fonts
        var result: [WireWarning] = []
        var known: [String: Bool] = [:]
        for (index, leaf) in leaves.enumerated() {
            // A prepared leaf has noted them (paragraph style first, then the spans'), as here.
            let unknown = prepared[index]?.unknownFamilies ?? Self.unknownFamilies(in: leaf.content, fonts: fonts, known: &known)
            guard !unknown.isEmpty else { continue }
            let names = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
            result.append(WireWarning(code: "unknown-font-family",
                                      message: "no font of the family \(names); the next family listed or \(FontLibrary.defaultFamily) was used",
                                      pointer: leaf.pointer))
        }
        return result
    }
}

/// A note in an answer about something the service did instead of what was asked (the
/// `warnings` member): what, why, and where (a JSON pointer to the node).
struct WireWarning: Hashable, Sendable {
    var code: String
    var message: String
    var pointer: String
}

/// The answer's per-node member for `"textLines": true`: each text leaf's `lines`.
struct TextLineMembers: ResponseNodeMembers {
    let text: RequestText
    /// Each leaf's content box, in leaf order.
    let boxes: ArraySlice<Frame>

    func write(_ node: NodeID, in tree: LayoutTree, to writer: inout JSONWriter) {
        text.writeLines(node, boxes: boxes, into: &writer)
    }
}
