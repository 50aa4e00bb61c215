import LayoutEngine

// Core Layout on the wire.
//
//   {"type": "core-layout", "identifier"? (or "id"), "container"?: {"primaryAxis",
//    "primaryAxisDistribution", "secondaryAxisDistribution",
//    "secondaryAxisDistributionWhenWrapping", "shouldWrap", "overflow"},
//    "size"?: {"mode": "flexibleShrinksButDoesntGrow" | "flexible" | "absolute" | "relative",
//              "units"? (flexible), "width"?, "height"? (absolute: numbers), "measure" or
//              "width"?, "height"? (relative: {"multiplier"?, "constant"?} of the container's
//              size), "minWidth"?, "maxWidth"?, "minHeight"?, "maxHeight"?},
//    "margin"?, "padding"?, "border"?: edges, "overriddenPosition"?: {"type": "relative" |
//    "absolute", ...edges}, "overriddenSecondaryAxisDistribution"?, "isIncludedInLayout"?,
//    "children"?}
//
// Edges are a number for all four, or {"top", "leading", "bottom", "trailing", "all",
// "topAndBottom", "sides"}: as in Core Layout, an edge not given is 0.

extension RequestDecoder {
    func decodeCoreLayoutNode(at index: Int) throws(WireError) -> DecodedNode {
        var node = DecodedNode(id: nil, style: Style(), content: .none)
        var layout = CoreLayout.Layout()
        var identifierKey = -1
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "identifier") || doc.equals(key, "id") {
                if identifierKey >= 0 {
                    throw .invalid("invalid-value", "give the identifier once, as \"identifier\" or \"id\"",
                                   pointer: "/" + doc.string(at: key))
                }
                identifierKey = key
                node.id = try idString(value, doc.string(at: key), pointer: "/" + doc.string(at: key))
            } else if doc.equals(key, "container") {
                layout.container = try within("/container") { () throws(WireError) in try coreContainer(value) }
            } else if doc.equals(key, "size") {
                layout.size = try within("/size") { () throws(WireError) in try coreSize(value) }
            } else if doc.equals(key, "margin") {
                layout.margin = try within("/margin") { () throws(WireError) in try coreEdges(value, "margin", allowNegative: true) }
            } else if doc.equals(key, "padding") {
                layout.padding = try within("/padding") { () throws(WireError) in try coreEdges(value, "padding", allowNegative: false) }
            } else if doc.equals(key, "border") {
                layout.border = try within("/border") { () throws(WireError) in try coreEdges(value, "border", allowNegative: false) }
            } else if doc.equals(key, "overriddenPosition") {
                layout.overriddenPosition = try within("/overriddenPosition") { () throws(WireError) in try corePosition(value) }
            } else if doc.equals(key, "overriddenSecondaryAxisDistribution") {
                layout.overriddenSecondaryAxisDistribution = try keyword(
                    value, CoreKeywords.secondary, "overriddenSecondaryAxisDistribution",
                    pointer: "/overriddenSecondaryAxisDistribution")
            } else if doc.equals(key, "isIncludedInLayout") {
                layout.isIncludedInLayout = try bool(value, "isIncludedInLayout", pointer: "/isIncludedInLayout")
            } else if doc.equals(key, "children") {
                try expect(value, .array, "children", "/children")
                node.children = value
            } else if !doc.equals(key, "type") {
                throw unknownKey(key, in: "a core-layout node",
                                 accepted: "type, identifier (or id), container, size, margin, padding, border, "
                                    + "overriddenPosition, overriddenSecondaryAxisDistribution, isIncludedInLayout, children",
                                 pointer: "")
            }
        }
        let engineNode = layout.engineNode()
        node.style = engineNode.style
        node.content = engineNode.content
        return node
    }

    private func coreContainer(_ index: Int) throws(WireError) -> CoreLayout.ContainerBehavior {
        try expect(index, .object, "container", "")
        var container = CoreLayout.ContainerBehavior()
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "primaryAxis") {
                container.primaryAxis = try keyword(value, CoreKeywords.axis, "primaryAxis", pointer: "/primaryAxis")
            } else if doc.equals(key, "primaryAxisDistribution") {
                container.primaryAxisDistribution = try keyword(value, CoreKeywords.primary, "primaryAxisDistribution",
                                                                pointer: "/primaryAxisDistribution")
            } else if doc.equals(key, "secondaryAxisDistribution") {
                container.secondaryAxisDistribution = try keyword(value, CoreKeywords.secondary, "secondaryAxisDistribution",
                                                                  pointer: "/secondaryAxisDistribution")
            } else if doc.equals(key, "secondaryAxisDistributionWhenWrapping") {
                container.secondaryAxisDistributionWhenWrapping = try keyword(
                    value, CoreKeywords.wrapping, "secondaryAxisDistributionWhenWrapping",
                    pointer: "/secondaryAxisDistributionWhenWrapping")
            } else if doc.equals(key, "shouldWrap") {
                container.shouldWrap = try bool(value, "shouldWrap", pointer: "/shouldWrap")
            } else if doc.equals(key, "overflow") {
                container.overflow = try keyword(value, Keywords.overflow, "overflow", pointer: "/overflow")
            } else {
                throw unknownKey(key, in: "container", accepted: "primaryAxis, primaryAxisDistribution, secondaryAxisDistribution, "
                                 + "secondaryAxisDistributionWhenWrapping, shouldWrap, overflow", pointer: "")
            }
        }
        return container
    }

    private func coreSize(_ index: Int) throws(WireError) -> CoreLayout.SizeBehavior {
        try expect(index, .object, "size", "")
        var mode = CoreSizeMode.flexibleShrinksButDoesntGrow
        var units = -1, width = -1, height = -1, measure = -1
        var size = CoreLayout.SizeBehavior()
        var minimum = CoreLayout.WidthAndOrHeight(), maximum = CoreLayout.WidthAndOrHeight()
        func bound(_ value: Int, _ name: String) throws(WireError) -> Float {
            try float(value, name, allowNegative: false, pointer: "/" + name)
        }
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "mode") { mode = try keyword(value, CoreKeywords.sizeMode, "mode", pointer: "/mode") }
            else if doc.equals(key, "units") { units = value }
            else if doc.equals(key, "width") { width = value }
            else if doc.equals(key, "height") { height = value }
            else if doc.equals(key, "measure") { measure = value }
            else if doc.equals(key, "minWidth") { minimum.width = try bound(value, "minWidth") }
            else if doc.equals(key, "minHeight") { minimum.height = try bound(value, "minHeight") }
            else if doc.equals(key, "maxWidth") { maximum.width = try bound(value, "maxWidth") }
            else if doc.equals(key, "maxHeight") { maximum.height = try bound(value, "maxHeight") }
            else {
                throw unknownKey(key, in: "size", accepted: "mode, units, width, height, measure, minWidth, maxWidth, minHeight, maxHeight",
                                 pointer: "")
            }
        }
        if minimum != CoreLayout.WidthAndOrHeight() { size.minimum = minimum }
        if maximum != CoreLayout.WidthAndOrHeight() { size.maximum = maximum }
        // Each member belongs to one mode; a member of another mode is a mistake, not a no-op.
        func refuse(_ member: Int, _ name: String) throws(WireError) {
            if member >= 0 { throw .invalid("invalid-value", "\(name) does not apply to size mode \"\(mode.cssName)\"", pointer: "/" + name) }
        }
        switch mode {
        case .flexibleShrinksButDoesntGrow:
            try refuse(units, "units"); try refuse(width, "width"); try refuse(height, "height"); try refuse(measure, "measure")
            size.mode = .flexibleShrinksButDoesntGrow
        case .flexible:
            try refuse(width, "width"); try refuse(height, "height"); try refuse(measure, "measure")
            var count: UInt32 = 1
            if units >= 0 {
                let number = try float(units, "units", allowNegative: false, pointer: "/units")
                // Float(UInt32.max) rounds up to 2^32, so a range check in Float lets 2^32 through.
                guard let whole = UInt32(exactly: number) else {
                    throw .invalid("invalid-value", "units must be a whole number below 2^32", pointer: "/units")
                }
                count = whole
            }
            size.mode = .flexible(units: count)
        case .absolute:
            try refuse(units, "units"); try refuse(measure, "measure")
            size.mode = .absolute(width: width >= 0 ? try bound(width, "width") : nil,
                                  height: height >= 0 ? try bound(height, "height") : nil)
        case .relative:
            try refuse(units, "units")
            if width >= 0 || height >= 0 {
                if measure >= 0 {
                    throw .invalid("invalid-value", "size mode \"relative\" takes measure, or width and height, not both",
                                   pointer: "/measure")
                }
                let proportional = ProportionalSize(width: width >= 0 ? try relativeTerm(width, "width") : nil,
                                                    height: height >= 0 ? try relativeTerm(height, "height") : nil)
                size.mode = .relative(.proportional(proportional))
            } else {
                guard measure >= 0 else {
                    throw .invalid("missing-key", "size mode \"relative\" needs \"measure\", or \"width\" and \"height\" "
                                   + "as {\"multiplier\", \"constant\"} of the container's size", pointer: "")
                }
                size.mode = .relative(try within("/measure") { () throws(WireError) in try decodeMeasure(at: measure) })
            }
        }
        return size
    }

    /// A relative size on one axis: `{"multiplier"?: m ≥ 0 (default 1), "constant"?: c
    /// (default 0)}`, meaning `m × container + c`.
    private func relativeTerm(_ index: Int, _ name: String) throws(WireError) -> ProportionalSize.Term {
        guard doc.tokens[index].kind == .object else {
            throw wrongType(index, "\(name) of a relative size must be an object {\"multiplier\", \"constant\"}", pointer: "/" + name)
        }
        var term = ProportionalSize.Term()
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "multiplier") {
                term.multiplier = try float(value, "\(name) multiplier", allowNegative: false, pointer: "/\(name)/multiplier")
            } else if doc.equals(key, "constant") {
                term.constant = try float(value, "\(name) constant", allowNegative: true, pointer: "/\(name)/constant")
            } else {
                throw unknownKey(key, in: "a relative \(name)", accepted: "multiplier, constant", pointer: "/" + name)
            }
        }
        return term
    }

    private func coreEdges(_ index: Int, _ what: String, allowNegative: Bool) throws(WireError) -> CoreLayout.Edges {
        if doc.tokens[index].kind == .number {
            return CoreLayout.Edges(all: try float(index, what, allowNegative: allowNegative, pointer: ""))
        }
        guard doc.tokens[index].kind == .object else {
            throw wrongType(index, "\(what) must be a number or an object of edges", pointer: "")
        }
        return try coreEdgeMembers(index, what, allowNegative: allowNegative, skipping: nil)
    }

    /// The edge members of an object; `skipping` names one other member the caller reads.
    private func coreEdgeMembers(_ index: Int, _ what: String, allowNegative: Bool,
                                 skipping: StaticString?) throws(WireError) -> CoreLayout.Edges {
        var values: [Float?] = Array(repeating: nil, count: 7)
        let names = ["top", "leading", "bottom", "trailing", "all", "topAndBottom", "sides"]
        for (key, value) in doc.members(of: index) {
            if let skipping, doc.equals(key, skipping) { continue }
            let name = doc.string(at: key)
            guard let slot = names.firstIndex(of: name) else {
                throw unknownKey(key, in: what, accepted: names.joined(separator: ", ")
                                 + (skipping.map { ", \($0)" } ?? ""), pointer: "")
            }
            values[slot] = try float(value, "\(what) \(name)", allowNegative: allowNegative, pointer: "/" + name)
        }
        let all = values[4]
        return CoreLayout.Edges(top: values[0] ?? all, leading: values[1] ?? all, bottom: values[2] ?? all,
                                trailing: values[3] ?? all, topAndBottom: values[5], sides: values[6])
    }

    private func corePosition(_ index: Int) throws(WireError) -> CoreLayout.OverriddenPosition {
        try expect(index, .object, "overriddenPosition", "")
        var isAbsolute = false
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "type") {
                guard doc.tokens[value].kind == .string else {
                    throw wrongType(value, "type must be \"relative\" or \"absolute\"", pointer: "/type")
                }
                if doc.equals(value, "absolute") { isAbsolute = true }
                else if !doc.equals(value, "relative") {
                    throw .invalid("unknown-value", "unknown position type \"\(doc.string(at: value))\"; expected \"relative\" or \"absolute\"",
                                   pointer: "/type")
                }
            }
        }
        let edges = try coreEdgeMembers(index, "overriddenPosition", allowNegative: true, skipping: "type")
        return isAbsolute ? .absolute(edges) : .relative(edges)
    }
}

/// Size modes by their wire names.
enum CoreSizeMode: UInt8, CSSKeyword {
    case flexibleShrinksButDoesntGrow, flexible, absolute, relative
    var cssName: String { ["flexibleShrinksButDoesntGrow", "flexible", "absolute", "relative"][Int(rawValue)] }
}

/// Keyword tables of Core Layout's properties, built once.
enum CoreKeywords {
    static let axis = KeywordTable(CoreLayout.Axis.self)
    static let primary = KeywordTable(CoreLayout.PrimaryAxisDistribution.self)
    static let secondary = KeywordTable(CoreLayout.SecondaryAxisDistribution.self)
    static let wrapping = KeywordTable(CoreLayout.SecondaryAxisDistributionWhenWrapping.self)
    static let sizeMode = KeywordTable(CoreSizeMode.self)
}
