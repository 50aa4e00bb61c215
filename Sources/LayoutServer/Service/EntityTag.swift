import LayoutEngine

/// The ETag of a layout answer: the structural hash of the input and a hash of the ids, so
/// two answers share an ETag exactly when their bodies are equal (the same layout with other
/// ids is a different body).
struct EntityTag: Equatable {
    /// The quoted form sent in `ETag`: `"<32 hex digits>-<16 hex digits>"`.
    let quoted: String

    init(structure: StructuralHash, ids: [String?]) {
        quoted = "\"" + structure.hexString + "-" + Self.hex16(Self.idsHash(ids)) + "\""
    }

    /// FNV-1a over the ids, with a marker byte per slot so nil, "" and shifted boundaries differ.
    static func idsHash(_ ids: [String?]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        @inline(__always) func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        for id in ids {
            guard let id else {
                mix(0xFF)
                continue
            }
            mix(0xFE)
            for byte in id.utf8 { mix(byte) }
            mix(0xFD)
        }
        return hash
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether an `If-None-Match` field value names this tag: `*`, or a comma-separated list
    /// of tags compared weakly (a `W/` prefix is ignored), as RFC 9110 says for this header.
    func matches(ifNoneMatch field: String) -> Bool {
        for candidate in field.split(separator: ",") {
            var tag = candidate.trimmingSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == quoted[...] { return true }
        }
        return false
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
