import LayoutEngine

/// The paint style keys: accepted in `style` beside the layout keys, decoded into the request's
/// `PaintTable` instead of the engine's `Style`.
enum PaintKey {
    case backgroundColor, borderColor(PaintEdge?), borderRadius, color, opacity

    /// The key's property, or nil when `name` is not a paint key (looked up only for keys the
    /// layout table does not know, so layout keys pay nothing).
    static func named(_ name: String) -> PaintKey? { table[name] }

    static let names: [String] = table.keys.sorted()

    private static let table: [String: PaintKey] = {
        var table: [String: PaintKey] = [
            "backgroundColor": .backgroundColor, "borderColor": .borderColor(nil),
            "borderRadius": .borderRadius, "color": .color, "opacity": .opacity,
        ]
        let edges: [(String, PaintEdge)] = [("Left", .left), ("Top", .top), ("Right", .right), ("Bottom", .bottom),
                                            ("Start", .start), ("End", .end)]
        for (name, edge) in edges { table["border\(name)Color"] = .borderColor(edge) }
        return table
    }()
}

/// Collects paint while a tree is decoded: a style's paint keys go to `pending`, which the
/// tree walk files under the node's id once the node exists. A reference, because the walk's
/// decoding functions do not mutate the decoder.
final class PaintCollector {
    var pending: NodePaint?
    var table = PaintTable()

    /// Files the pending paint, if any, under `node`.
    @inline(__always) func attachPending(to node: NodeID) {
        guard let paint = pending else { return }
        table.nodes[node.index] = paint
        pending = nil
    }
}

extension RequestDecoder {
    /// Applies the paint key `key` (the token of its name) with the value at `value` to the
    /// pending paint. Pointers are relative to the style object.
    func applyPaint(_ property: PaintKey, value: Int, key: Int) throws(WireError) {
        func pointer() -> String { "/" + JSONPointer.escape(doc.string(at: key)) }
        func color() throws(WireError) -> CSSColor {
            guard doc.tokens[value].kind == .string else {
                throw wrongType(value, "\(doc.string(at: key)) must be \(CSSColor.syntaxDescription)", pointer: pointer())
            }
            let text = doc.string(at: value)
            guard let color = CSSColor(css: text) else {
                throw .invalid("invalid-value", "invalid \(doc.string(at: key)) \"\(text)\"; expected \(CSSColor.syntaxDescription)",
                               pointer: pointer())
            }
            return color
        }
        var paint = paints.pending ?? NodePaint()
        switch property {
        case .backgroundColor: paint.backgroundColor = try color()
        case .borderColor(nil): paint.borderColor = try color()
        case .borderColor(let edge?): paint.borderEdgeColors[edge] = try color()
        case .color: paint.color = try color()
        case .borderRadius: paint.borderRadius = try float(value, doc.string(at: key), allowNegative: false, pointer: pointer())
        case .opacity:
            let opacity = try float(value, "opacity", allowNegative: false, pointer: pointer())
            guard opacity <= 1 else { throw .invalid("invalid-value", "opacity must be between 0 and 1", pointer: pointer()) }
            paint.opacity = opacity
        }
        paints.pending = paint
    }
}
