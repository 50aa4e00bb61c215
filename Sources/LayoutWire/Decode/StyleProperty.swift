import LayoutEngine

/// Every style key of the wire format and what it sets, looked up by the key's bytes.
enum StyleProperty {
    case direction, flexDirection, justifyContent, alignContent, alignItems, alignSelf
    case positionType, flexWrap, overflow, display, boxSizing
    case flex, flexGrow, flexShrink, aspectRatio
    case flexBasis, width, height, minWidth, minHeight, maxWidth, maxHeight
    case margin(Edge), inset(Edge), padding(Edge), border(Edge)
    case gap(Gutter)
    /// Text style keys (`TextDecoder.swift`): inherited by the text leaves below the node.
    case text(TextProperty)

    /// The forms a length property accepts.
    var forms: LengthForms {
        switch self {
        case .flexBasis, .width, .height: return [.percent, .auto, .intrinsic]
        case .minWidth, .minHeight, .maxWidth, .maxHeight: return [.percent, .intrinsic]
        case .margin, .inset: return [.percent, .auto, .negative]
        case .padding, .gap: return [.percent]
        case .border: return []
        default: return []
        }
    }

    /// Every key with its property. Edge keys follow Yoga/React Native names.
    static let all: [(name: String, property: StyleProperty)] = {
        var table: [(String, StyleProperty)] = [
            ("direction", .direction), ("flexDirection", .flexDirection),
            ("justifyContent", .justifyContent), ("alignContent", .alignContent),
            ("alignItems", .alignItems), ("alignSelf", .alignSelf), ("position", .positionType),
            ("flexWrap", .flexWrap), ("overflow", .overflow), ("display", .display),
            ("boxSizing", .boxSizing), ("flex", .flex), ("flexGrow", .flexGrow),
            ("flexShrink", .flexShrink), ("aspectRatio", .aspectRatio), ("flexBasis", .flexBasis),
            ("width", .width), ("height", .height), ("minWidth", .minWidth), ("minHeight", .minHeight),
            ("maxWidth", .maxWidth), ("maxHeight", .maxHeight),
            ("gap", .gap(.all)), ("rowGap", .gap(.row)), ("columnGap", .gap(.column)),
            ("left", .inset(.left)), ("top", .inset(.top)), ("right", .inset(.right)),
            ("bottom", .inset(.bottom)), ("start", .inset(.start)), ("end", .inset(.end)),
            ("inset", .inset(.all)), ("insetHorizontal", .inset(.horizontal)),
            ("insetVertical", .inset(.vertical)), ("borderWidth", .border(.all)),
            ("margin", .margin(.all)), ("padding", .padding(.all)),
        ]
        let edges: [(String, Edge)] = [("Left", .left), ("Top", .top), ("Right", .right), ("Bottom", .bottom),
                                       ("Start", .start), ("End", .end), ("Horizontal", .horizontal),
                                       ("Vertical", .vertical)]
        for (suffix, edge) in edges {
            table.append(("margin" + suffix, .margin(edge)))
            table.append(("padding" + suffix, .padding(edge)))
            table.append(("border" + suffix + "Width", .border(edge)))
        }
        for property in TextProperty.allCases { table.append((property.name, .text(property))) }
        return table
    }()

    /// Open-addressing table indexed by `slot(for:)` of the key bytes (no `Hasher`, no
    /// Strings); the stored name confirms a match.
    fileprivate static let slotCount = 256
    private static let slots = SlotTable(all, count: slotCount)

    /// The home slot of a key: its length and four of its bytes, mixed by one multiply (the
    /// keys differ early, late or in length; a byte-serial hash cost ~3 % of a request).
    @inline(__always) static func slot(for key: UnsafeBufferPointer<UInt8>) -> Int {
        let n = key.count
        guard n > 0 else { return 0 }
        let bytes = UInt64(key[0]) | UInt64(key[n - 1]) << 8 | UInt64(key[n / 2]) << 16
            | UInt64(key[min(n - 1, 6)]) << 24 | UInt64(truncatingIfNeeded: n) << 32
        return Int(truncatingIfNeeded: (bytes &* 0x9E37_79B9_7F4A_7C15) >> 56) & (slotCount - 1)
    }

    @inline(__always) static func named(_ key: UnsafeBufferPointer<UInt8>) -> StyleProperty? {
        slotAndProperty(named: key)?.property
    }

    /// The property of a key and the slot it sits in (0..<256, one per key: a decoder can
    /// mark the keys an object has set in 256 bits).
    @inline(__always) static func slotAndProperty(named key: UnsafeBufferPointer<UInt8>) -> (slot: Int, property: StyleProperty)? {
        keyTable.slotAndProperty(named: key)
    }

    /// The key table, for a decoder to read once and look many keys up in: every read of a
    /// static constant goes through its lazy initialiser's check (`swift_once`).
    static var keyTable: StyleKeyTable { StyleKeyTable(entries: slots.entries) }
}

/// The style keys' table, borrowed: valid for the life of the process (the table is a static
/// constant, never freed).
struct StyleKeyTable {
    fileprivate let entries: UnsafeMutablePointer<SlotTable.Entry>

    /// `StyleProperty.slotAndProperty(named:)`.
    @inline(__always) func slotAndProperty(named key: UnsafeBufferPointer<UInt8>) -> (slot: Int, property: StyleProperty)? {
        guard let name = SlotTable.Name(key) else { return nil }
        let mask = StyleProperty.slotCount - 1
        var slot = StyleProperty.slot(for: key)
        while entries[slot].property != nil {
            if entries[slot].name == name { return (slot, entries[slot].property!) }
            slot = (slot + 1) & mask
        }
        return nil
    }
}

/// The style keys' table as one block of fixed-size entries, each name in three words: a
/// lookup compares words and reads the block without reference counting (an array of
/// optional tuples holding byte arrays retained and released every entry it looked at).
// @unchecked Sendable: written once in `init`, read-only after, and never freed (it lives in
// a static constant for the life of the process).
private final class SlotTable: @unchecked Sendable {
    /// A name of up to 24 bytes as three little-endian words, zero-padded, and its length.
    struct Name: Equatable {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var length = 0

        init() {}

        /// The name of `bytes`, or nil when longer than any key.
        @inline(__always) init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count <= 24 else { return nil }
            length = bytes.count
            withUnsafeMutableBytes(of: &words) { raw in
                for i in 0..<bytes.count { raw[i] = bytes[i] }
            }
        }

        @inline(__always) static func == (a: Name, b: Name) -> Bool {
            a.length == b.length && a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2
        }
    }

    struct Entry {
        var name = Name()
        var property: StyleProperty?
    }

    let entries: UnsafeMutablePointer<Entry>

    init(_ keys: [(name: String, property: StyleProperty)], count: Int) {
        precondition(keys.count < count / 2, "style key table too full")
        entries = .allocate(capacity: count)
        entries.initialize(repeating: Entry(), count: count)
        for (key, property) in keys {
            let bytes = Array(key.utf8)
            bytes.withUnsafeBufferPointer { bytes in
                guard let name = Name(bytes) else { preconditionFailure("style key \(key) is over 24 bytes") }
                var slot = StyleProperty.slot(for: bytes)
                while entries[slot].property != nil { slot = (slot + 1) & (count - 1) }
                entries[slot] = Entry(name: name, property: property)
            }
        }
    }
}

/// What a length property accepts besides a number of points.
struct LengthForms: OptionSet {
    let rawValue: UInt8
    static let percent = LengthForms(rawValue: 1)
    static let auto = LengthForms(rawValue: 2)
    /// `max-content`, `fit-content`, `stretch`.
    static let intrinsic = LengthForms(rawValue: 4)
    static let negative = LengthForms(rawValue: 8)

    /// For messages: "a number, a percentage like \"50%\" or \"auto\"".
    var described: String {
        var parts = [contains(.negative) ? "a number" : "a non-negative number"]
        if contains(.percent) { parts.append("a percentage like \"50%\"") }
        if contains(.auto) { parts.append("\"auto\"") }
        if contains(.intrinsic) { parts.append(contentsOf: ["\"max-content\"", "\"fit-content\"", "\"stretch\""]) }
        guard parts.count > 1 else { return parts[0] }
        return parts.dropLast().joined(separator: ", ") + " or " + parts[parts.count - 1]
    }
}
