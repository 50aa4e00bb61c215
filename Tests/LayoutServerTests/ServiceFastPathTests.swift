import LayoutEngine
import LayoutWire
import Testing
@testable import LayoutServer

/// The per-request helpers rewritten to avoid allocation give the same results as the plain
/// String forms they replaced.
@Suite struct ServiceFastPathTests {
    /// FNV-1a over each id's UTF-8 with a marker per slot, as ETags have always hashed ids.
    static func referenceIdsHash(_ ids: [String?]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        for id in ids {
            guard let id else { mix(0xFF); continue }
            mix(0xFE)
            id.utf8.forEach(mix)
            mix(0xFD)
        }
        return hash
    }

    static func referenceQuoted(_ structure: StructuralHash, _ ids: [String?]) -> String {
        let digits = String(referenceIdsHash(ids), radix: 16)
        return "\"" + structure.hexString + "-" + String(repeating: "0", count: 16 - digits.count) + digits + "\""
    }

    @Test(arguments: [
        (StructuralHash(high: 0, low: 0), [String?]()),
        (StructuralHash(high: 1, low: 2), ["a", nil]),
        (StructuralHash(high: .max, low: 0x0123_4567_89AB_CDEF), ["é ☃", "", nil, "x"]),
    ])
    func entityTagIsTheHexOfBothHashes(structure: StructuralHash, ids: [String?]) {
        let tag = EntityTag(structure: structure, ids: NodeIdentifiers(ids))
        #expect(tag.quoted == Self.referenceQuoted(structure, ids))
        #expect(tag.quoted.utf8.count == EntityTag.quotedLength)
    }

    @Test func idsHashReadsEveryByte() {
        #expect(EntityTag.idsHash(["é"]) != EntityTag.idsHash(["e"]))
        #expect(EntityTag.idsHash(["ab", "c"]) != EntityTag.idsHash(["a", "bc"]))
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
