import LayoutEngine
import LayoutWire
import Testing
@testable import LayoutServer

/// The per-request helpers rewritten to avoid allocation give the same results as the plain
/// String forms they replaced.
@Suite struct ServiceFastPathTests {
    /// Each id's length (or a nil marker), then its UTF-8 in little-endian words, the last
    /// one the id's last eight bytes (or, under eight, its bytes zero-padded); written plainly.
    static func referenceIdsHash(_ ids: [String?]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
        }
        func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
            bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        for id in ids {
            guard let id else { mix(~0); continue }
            let bytes = Array(id.utf8)
            mix(UInt64(bytes.count) << 8 | 0xFE)
            var at = 0
            while at + 8 <= bytes.count {
                mix(word(bytes[at..<(at + 8)]))
                at += 8
            }
            if at < bytes.count { mix(word(bytes.count >= 8 ? bytes[(bytes.count - 8)...] : bytes[...])) }
        }
        var h = hash &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return h
    }

    static func referenceQuoted(_ structure: StructuralHash, _ ids: [String?]) -> String {
        let digits = String(referenceIdsHash(ids), radix: 16)
        return "\"" + structure.hexString + "-" + String(repeating: "0", count: 16 - digits.count) + digits + "\""
    }

    @Test(arguments: [
        (StructuralHash(high: 0, low: 0), [String?]()),
        (StructuralHash(high: 1, low: 2), ["a", nil]),
        (StructuralHash(high: .max, low: 0x0123_4567_89AB_CDEF), ["é ☃", "", nil, "x"]),
        (StructuralHash(high: 3, low: 4), ["message-0042", "01234567", "0123456789abcdef0", "avatar"]),
    ])
    func entityTagIsTheHexOfBothHashes(structure: StructuralHash, ids: [String?]) {
        let tag = EntityTag(structure: structure, ids: NodeIdentifiers(ids))
        #expect(tag.quoted == Self.referenceQuoted(structure, ids))
        #expect(tag.quoted.utf8.count == EntityTag.quotedLength)
    }

    @Test func idsHashReadsEveryByte() {
        #expect(EntityTag.idsHash(["é"]) != EntityTag.idsHash(["e"]))
        #expect(EntityTag.idsHash(["ab", "c"]) != EntityTag.idsHash(["a", "bc"]))
        // Ids are read a word at a time, the last word overlapping the one before: a change of
        // any byte, at any length around a word's, moves the hash.
        for length in [1, 7, 8, 9, 15, 16, 17, 36] {
            let id = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            var seen: Set<UInt64> = [EntityTag.idsHash([id])]
            for k in 0..<length {
                var bytes = Array(id.utf8)
                bytes[k] = UInt8(ascii: "#")
                seen.insert(EntityTag.idsHash([String(decoding: bytes, as: UTF8.self)]))
            }
            seen.insert(EntityTag.idsHash([id + "\u{0}"]))
            seen.insert(EntityTag.idsHash([String(id.dropLast())]))
            #expect(seen.count == length + 3, "length \(length)")
        }
        #expect(EntityTag.idsHash([nil]) != EntityTag.idsHash([""]))
        #expect(EntityTag.idsHash(["", ""]) != EntityTag.idsHash([""]))
    }

    @Test(arguments: [
        ("application/json", true), ("Application/JSON", true), ("application/json; charset=utf-8", true),
        ("  application/json\t;x=y", true), ("APPLICATION/JSON;", true),
        ("application/jsonx", false), ("application/js", false), ("text/plain", false), ("", false),
        ("application/json-seq", false), ("; application/json", false), ("application /json", false),
    ])
    func contentTypeIsJSONIgnoringCaseAndParameters(value: String, expected: Bool) {
        #expect(JSONBody.isJSON(value) == expected)
    }

    @Test func noContentTypeIsNotJSON() {
        #expect(!JSONBody.isJSON(nil))
    }
}
