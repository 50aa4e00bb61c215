import LayoutEngine

// FixFlex stacks on the wire (the `stacks` member of a `fixflex` node):
//
//   {"axis": "h" | "v" | "horizontal" | "vertical", "startAnchor"?: "icon.trailing", "startOffset"?: 0,
//    "endAnchor"?: "...", "endOffset"?: 0, "positioning"?: "natural" | "absolute",
//    "intents": [intent]}
//   intent: {"kind": "fix", "value": 15, "views"?: ["icon"]}
//         | {"kind": "flex", "views"?, "min"?, "max"?, "huggingPriority"?, "compressionResistancePriority"?}
//         | {"kind": "fill", "views"?, "weight"?: 1}
//         | {"kind": "match", "views"?, "dimension": "icon.width", "multiplier"?, "offset"?}
//         | 15 (a Fix spacer)
//
// No views means a spacer. "view": "id" is a shorthand for one view. Natural positioning uses
// leading/trailing (mirrored in right-to-left); absolute uses left/right.

extension RequestDecoder {
    func decodeFixFlexStacks(_ index: Int, _ base: ConstraintNodeBase) throws(WireError) -> [FixFlexStack] {
        try decodeElements(index) { (i: Int) throws(WireError) in try decodeFixFlexStack(i, base) }
    }

    private func decodeFixFlexStack(_ index: Int, _ base: ConstraintNodeBase) throws(WireError) -> FixFlexStack {
        try expect(index, .object, "a stack", "")
        var stack = FixFlexStack(axis: .horizontal, intents: [])
        var hasAxis = false, intents = -1
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "axis") {
                stack.axis = try axis(value, pointer: "/axis")
                hasAxis = true
            } else if doc.equals(key, "startAnchor") {
                stack.startAnchor = try anchor(value, base, pointer: "/startAnchor")
            } else if doc.equals(key, "startOffset") {
                stack.startOffset = try double(value, "startOffset", pointer: "/startOffset")
            } else if doc.equals(key, "endAnchor") {
                stack.endAnchor = try anchor(value, base, pointer: "/endAnchor")
            } else if doc.equals(key, "endOffset") {
                stack.endOffset = try double(value, "endOffset", pointer: "/endOffset")
            } else if doc.equals(key, "positioning") {
                guard doc.tokens[value].kind == .string, doc.equals(value, "natural") || doc.equals(value, "absolute") else {
                    throw .invalid("unknown-value", "positioning must be \"natural\" or \"absolute\"", pointer: "/positioning")
                }
                stack.useAbsolutePositioning = doc.equals(value, "absolute")
            } else if doc.equals(key, "intents") {
                try expect(value, .array, "intents", "/intents")
                intents = value
            } else {
                throw unknownKey(key, in: "a stack", accepted: "axis, startAnchor, startOffset, endAnchor, endOffset, positioning, intents",
                                 pointer: "")
            }
        }
        guard hasAxis else { throw .invalid("missing-key", "a stack needs an \"axis\": \"h\" or \"v\"", pointer: "") }
        if stack.useAbsolutePositioning && stack.axis == .vertical {
            throw .invalid("invalid-value", "absolute positioning applies to horizontal stacks only", pointer: "/positioning")
        }
        guard intents >= 0 else { throw .invalid("missing-key", "a stack needs \"intents\"", pointer: "") }
        stack.intents = try within("/intents") { () throws(WireError) in
            try decodeElements(intents) { (k: Int) throws(WireError) in try decodeIntent(k, base) }
        }
        return stack
    }

    /// `"h"`, `"v"`, `"horizontal"` or `"vertical"`.
    func axis(_ index: Int, pointer: String) throws(WireError) -> LayoutAnchorKind.Axis {
        guard doc.tokens[index].kind == .string else { throw wrongType(index, "axis must be \"h\" or \"v\"", pointer: pointer) }
        if doc.equals(index, "h") || doc.equals(index, "horizontal") { return .horizontal }
        if doc.equals(index, "v") || doc.equals(index, "vertical") { return .vertical }
        throw .invalid("unknown-value", "unknown axis \"\(doc.string(at: index))\"; expected \"h\" or \"v\"", pointer: pointer)
    }

    private func decodeIntent(_ index: Int, _ base: ConstraintNodeBase) throws(WireError) -> FixFlexIntent {
        if doc.tokens[index].kind == .number { return .fix(try double(index, "a fix spacer", pointer: "")) }
        try expect(index, .object, "an intent (an object, or a number for a fixed spacer)", "")
        var kind = -1, views: [Int] = [], value: Double?, min: Double?, max: Double?, weight: Double?
        var hugging: LayoutPriority?, compression: LayoutPriority?, dimension: LayoutAnchor?
        var multiplier: Double?, offset: Double?
        var given: [String] = []
        for (key, v) in doc.members(of: index) {
            let name = doc.string(at: key)
            if name != "kind" { given.append(name) }
            switch name {
            case "kind": kind = v
            case "views":
                try expect(v, .array, "views", "/views")
                for (p, element) in doc.elements(of: v) {
                    views.append(try viewIndex(element, base, pointer: "/views/\(p)"))
                }
            case "view": views.append(try viewIndex(v, base, pointer: "/view"))
            case "value": value = try double(v, "value", pointer: "/value")
            case "min": min = try double(v, "min", pointer: "/min")
            case "max": max = try double(v, "max", pointer: "/max")
            case "weight": weight = try double(v, "weight", pointer: "/weight")
            case "huggingPriority": hugging = try priority(v, "huggingPriority", pointer: "/huggingPriority")
            case "compressionResistancePriority":
                compression = try priority(v, "compressionResistancePriority", pointer: "/compressionResistancePriority")
            case "dimension":
                dimension = try anchor(v, base, pointer: "/dimension")
                if let d = dimension, !d.kind.isDimension {
                    throw .invalid("invalid-value", "dimension must be a width or height anchor", pointer: "/dimension")
                }
            case "multiplier": multiplier = try double(v, "multiplier", pointer: "/multiplier")
            case "offset": offset = try double(v, "offset", pointer: "/offset")
            default:
                throw unknownKey(key, in: "an intent", accepted: "kind, views, view, value, min, max, weight, huggingPriority, "
                                 + "compressionResistancePriority, dimension, multiplier, offset", pointer: "")
            }
        }
        guard kind >= 0 else { throw .invalid("missing-key", "an intent needs a \"kind\": fix, flex, fill or match", pointer: "") }
        guard doc.tokens[kind].kind == .string else { throw wrongType(kind, "kind must be fix, flex, fill or match", pointer: "/kind") }
        // Each kind takes its own parameters; anything else is a mistake worth reporting.
        func only(_ allowed: [String]) throws(WireError) {
            if let extra = given.first(where: { !allowed.contains($0) && $0 != "views" && $0 != "view" }) {
                throw .invalid("unknown-key", "a \(doc.string(at: kind)) intent takes no \"\(extra)\"; it takes "
                               + (["views"] + allowed).joined(separator: ", "), pointer: "/" + JSONPointer.escape(extra))
            }
        }
        if doc.equals(kind, "fix") {
            try only(["value"])
            guard let value else { throw .invalid("missing-key", "a fix intent needs a \"value\"", pointer: "") }
            return FixFlexIntent(views: views, sizing: .fix(value))
        }
        if doc.equals(kind, "flex") {
            try only(["min", "max", "huggingPriority", "compressionResistancePriority"])
            if views.isEmpty { return .flex(min: min, max: max) }
            return .flex(views, min: min, max: max, huggingPriority: hugging, compressionResistancePriority: compression)
        }
        if doc.equals(kind, "fill") {
            try only(["weight"])
            if let weight, !(weight > 0) { throw .invalid("invalid-value", "weight must be > 0", pointer: "/weight") }
            return FixFlexIntent(views: views, sizing: .fill(weight: weight ?? 1))
        }
        if doc.equals(kind, "match") {
            try only(["dimension", "multiplier", "offset"])
            guard let dimension else { throw .invalid("missing-key", "a match intent needs a \"dimension\"", pointer: "") }
            return FixFlexIntent(views: views, sizing: .match(dimension: dimension, multiplier: multiplier, offset: offset))
        }
        throw .invalid("unknown-value", "unknown intent kind \"\(doc.string(at: kind))\"; expected fix, flex, fill or match",
                       pointer: "/kind")
    }

    /// An item id as the item's index.
    private func viewIndex(_ index: Int, _ base: ConstraintNodeBase, pointer: String) throws(WireError) -> Int {
        let name = try idString(index, "a view", pointer: pointer)
        guard let i = base.itemIndex[name] else { throw .invalid("unknown-value", "no item \"\(name)\"", pointer: pointer) }
        return i
    }
}
