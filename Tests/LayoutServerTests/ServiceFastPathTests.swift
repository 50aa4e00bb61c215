import LayoutEngine
import Testing
@testable import LayoutServer

/// The per-request helpers rewritten to avoid allocation give the same results as the plain
/// String forms they replaced.
@Suite struct ServiceFastPathTests {
    static func referenceQuoted(_ structure: StructuralHash, _ ids: [String?]) -> String {
        let digits = String(EntityTag.idsHash(ids), radix: 16)
        return "\"" + structure.hexString + "-" + String(repeating: "0", count: 16 - digits.count) + digits + "\""
    }

    @Test(arguments: [
        (StructuralHash(high: 0, low: 0), [String?]()),
        (StructuralHash(high: 1, low: 2), ["a", nil]),
        (StructuralHash(high: .max, low: 0x0123_4567_89AB_CDEF), ["é ☃", "", nil, "x"]),
    ])
    func entityTagIsTheHexOfBothHashes(structure: StructuralHash, ids: [String?]) {
        let tag = EntityTag(structure: structure, ids: ids)
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
