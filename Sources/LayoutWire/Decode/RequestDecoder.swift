import LayoutEngine

/// Decodes a request from a parsed document's tape. Errors are raised with pointers relative
/// to the value being decoded; the callers that know where it sits prefix the rest.
struct RequestDecoder {
    let doc: JSONDocument
    let limits: WireLimits
    /// Base style of every node (web defaults or Yoga's).
    var baseStyle = Style()
    /// Text styles and leaves met on the way (see `TextDecoder.swift`).
    let text = TextCollector()
    /// The paint style keys met so far (see `PaintKey`).
    let paints = PaintCollector()
    /// The `{"of": id}` sizes of the tree being decoded.
    let sizeOf = SizeOfCollector()
    /// Where a large tree takes its storage from (nil: fresh arrays).
    var storage: TreeStoragePool?

    init(doc: JSONDocument, limits: WireLimits) {
        self.doc = doc
        self.limits = limits
    }

    // MARK: Request

    mutating func decodeRequest(at index: Int) throws(WireError) -> LayoutRequest {
        try expect(index, .object, "a layout request", "")
        var root = -1, available = -1, direction = -1, config = -1, print = -1, textLines = -1
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "root") { root = value }
            else if doc.equals(key, "available") { available = value }
            else if doc.equals(key, "direction") { direction = value }
            else if doc.equals(key, "config") { config = value }
            else if doc.equals(key, "print") { print = value }
            else if doc.equals(key, "textLines") { textLines = value }
            else if doc.equals(key, "name") || doc.equals(key, "source") || doc.equals(key, "tags")
                        || doc.equals(key, "expected") || doc.equals(key, "tolerance") {
                // Metadata of conformance cases: accepted and ignored.
            } else {
                throw unknownKey(key, in: "a layout request",
                                 accepted: "root, available, direction, config, print, textLines (and the case metadata name, source, "
                                    + "tags, expected, tolerance)",
                                 pointer: "")
            }
        }
        guard root >= 0 else { throw .invalid("missing-key", "a layout request needs a \"root\" node", pointer: "") }

        var layoutConfig = LayoutConfig()
        if config >= 0 { layoutConfig = try within("/config") { () throws(WireError) in try decodeConfig(at: config) } }
        baseStyle = Style(webDefaults: layoutConfig.useWebDefaults)
        var availableSize = AvailableSize()
        if available >= 0 { availableSize = try within("/available") { () throws(WireError) in try decodeAvailable(at: available) } }
        var ownerDirection = Direction.ltr
        if direction >= 0 {
            ownerDirection = try keyword(direction, Keywords.ownerDirection, "direction", pointer: "/direction")
        }
        var printsTree = false
        if print >= 0, try bool(print, "print", pointer: "/print") {
            let type = try within("/root") { () throws(WireError) in try modelType(at: root) }
            guard type >= 0 && doc.equals(type, "core-layout") else {
                throw .invalid("invalid-value", "print applies to a core-layout root (Core Layout's printed ComputedLayout)",
                               pointer: "/print")
            }
            printsTree = true
        }
        var tree = LayoutTree(config: layoutConfig)
        var ids = NodeIdentifiers()
        sizeOf.pending.removeAll()
        sizeOf.bound.removeAll()
        let rootID = try decodeTree(at: root, into: &tree, ids: &ids)
        try resolveSizeOf(in: &tree, ids: ids)
        var request = LayoutRequest(tree: tree, root: rootID, ids: ids, available: availableSize, direction: ownerDirection)
        request.printsTree = printsTree
        if textLines >= 0 {
            switch doc.tokens[textLines].kind {
            case .true: request.textLines = true
            case .false: request.textLines = false
            default: throw wrongType(textLines, "textLines must be true or false", pointer: "/textLines")
            }
        }
        if !text.leaves.isEmpty {
            (request.textLeaves, request.textLeafCopies) = text.resolve(tree: request.tree, ownerDirection: ownerDirection)
        }
        request.paint = paints.table
        return request
    }

    private func decodeAvailable(at index: Int) throws(WireError) -> AvailableSize {
        if doc.tokens[index].kind == .null { return AvailableSize() }
        try expect(index, .object, "available (an object with width and height)", "")
        var size = AvailableSize()
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "width") { size.width = try optionalSize(value, "available width", pointer: "/width") }
            else if doc.equals(key, "height") { size.height = try optionalSize(value, "available height", pointer: "/height") }
            else { throw unknownKey(key, in: "available", accepted: "width, height", pointer: "") }
        }
        return size
    }

    private func optionalSize(_ index: Int, _ what: String, pointer: String) throws(WireError) -> Float? {
        if doc.tokens[index].kind == .null { return nil }
        return try float(index, what, allowNegative: false, pointer: pointer)
    }

    private func decodeConfig(at index: Int) throws(WireError) -> LayoutConfig {
        try expect(index, .object, "config", "")
        var config = LayoutConfig()
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "pointScaleFactor") {
                config.pointScaleFactor = try float(value, "pointScaleFactor", allowNegative: false, pointer: "/pointScaleFactor")
            } else if doc.equals(key, "useWebDefaults") {
                switch doc.tokens[value].kind {
                case .true: config.useWebDefaults = true
                case .false: config.useWebDefaults = false
                default: throw wrongType(value, "useWebDefaults must be true or false", pointer: "/useWebDefaults")
                }
            } else if doc.equals(key, "errata") {
                config.errata = try names(value, Errata.named.map { ($0.name, $0.errata) }, "errata", pointer: "/errata")
            } else if doc.equals(key, "experimentalFeatures") {
                config.experimentalFeatures = try names(value, ExperimentalFeatures.named.map { ($0.name, $0.feature) },
                                                        "experimentalFeatures", pointer: "/experimentalFeatures")
            } else {
                throw unknownKey(key, in: "config", accepted: "pointScaleFactor, useWebDefaults, errata, experimentalFeatures", pointer: "")
            }
        }
        return config
    }

    /// A name or an array of names from `table`, as the union of their bits.
    private func names<Set: OptionSet>(_ index: Int, _ table: [(String, Set)], _ what: String,
                                       pointer: String) throws(WireError) -> Set where Set.Element == Set {
        func one(_ index: Int, _ pointer: String) throws(WireError) -> Set {
            guard doc.tokens[index].kind == .string else {
                throw wrongType(index, "\(what) must be a name or an array of names", pointer: pointer)
            }
            let name = doc.string(at: index)
            guard let match = table.first(where: { $0.0 == name }) else {
                throw WireError.invalid("unknown-value", "unknown \(what) name \"\(name)\"; expected one of "
                                        + table.map { "\"\($0.0)\"" }.joined(separator: ", "), pointer: pointer)
            }
            return match.1
        }
        guard doc.tokens[index].kind == .array else { return try one(index, pointer) }
        var result: Set = []
        for (position, i) in doc.elements(of: index) {
            result.formUnion(try one(i, pointer + "/\(position)"))
        }
        return result
    }

    // MARK: Values

    func expect(_ index: Int, _ kind: JSONToken.Kind, _ what: String, _ pointer: String) throws(WireError) {
        guard doc.tokens[index].kind == kind else {
            let article = kind == .object ? "an object" : kind == .array ? "an array" : "a \(kind)"
            throw wrongType(index, "\(what) must be \(article)", pointer: pointer)
        }
    }

    /// A finite number that fits a Float.
    // Names and pointers are autoclosures: built only when an error needs them.

    func float(_ index: Int, _ what: @autoclosure () -> String, allowNegative: Bool,
               pointer: @autoclosure () -> String) throws(WireError) -> Float {
        let token = doc.tokens[index]
        guard token.kind == .number else {
            throw wrongType(index, "\(what()) must be \(allowNegative ? "a number" : "a non-negative number")", pointer: pointer())
        }
        return try checked(Double(bitPattern: token.payload), what(), allowNegative: allowNegative, pointer: pointer())
    }

    @inline(__always)
    func checked(_ number: Double, _ what: @autoclosure () -> String, allowNegative: Bool,
                 pointer: @autoclosure () -> String) throws(WireError) -> Float {
        do { return try StyleProperty.checked(number, allowNegative: allowNegative) } catch {
            if case .notRepresentable = error {
                throw .invalid("not-representable", "\(what()) is not representable as a 32-bit float", pointer: pointer())
            }
            throw .invalid("invalid-value", "\(what()) must not be negative", pointer: pointer())
        }
    }

    func keyword<K>(_ index: Int, _ table: KeywordTable<K>, _ what: @autoclosure () -> String,
                    pointer: @autoclosure () -> String) throws(WireError) -> K {
        guard doc.tokens[index].kind == .string else {
            throw wrongType(index, "\(what()) must be one of \(table.accepted)", pointer: pointer())
        }
        guard let value = table.match(doc.bytes(at: index)) else {
            throw .invalid("unknown-value", "unknown \(what()) \"\(doc.string(at: index))\"; expected \(table.accepted)",
                           pointer: pointer())
        }
        return value
    }

    // MARK: Errors

    func wrongType(_ index: Int, _ message: String, pointer: String) -> WireError {
        .invalid("wrong-type", message + " (got \(kindName(index)))", pointer: pointer)
    }

    /// An unknown member; the pointer names the key.
    func unknownKey(_ key: Int, in what: String, accepted: String, pointer: String) -> WireError {
        let name = doc.string(at: key)
        return .invalid("unknown-key", "unknown member \"\(name)\" in \(what); accepted: \(accepted)",
                        pointer: pointer + "/" + JSONPointer.escape(name))
    }

    func kindName(_ index: Int) -> String {
        switch doc.tokens[index].kind {
        case .null: return "null"
        case .true, .false: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// Runs `body`, putting `prefix` in front of the pointer of any error it raises.
@inline(__always)
func within<T>(_ prefix: String, _ body: () throws(WireError) -> T) throws(WireError) -> T {
    do { return try body() } catch { throw error.prefixed(by: prefix) }
}
