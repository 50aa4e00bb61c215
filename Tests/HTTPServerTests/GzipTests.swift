import Testing
@testable import HTTPServer

@Suite struct GzipTests {
    @Test func roundTripsAndEnforcesTheLimit() throws {
        let input = Array(String(repeating: "{\"layout\":[1,2,3]}", count: 500).utf8)
        let compressed = try #require(Gzip.compress(input, level: 5))
        #expect(compressed.count < input.count / 4)
        #expect(Array(compressed.prefix(2)) == [0x1F, 0x8B])
        #expect(try Gzip.decompress(compressed, limit: input.count) == input)
        #expect(throws: Gzip.InflateError.tooLarge) { try Gzip.decompress(compressed, limit: input.count - 1) }
        #expect(throws: Gzip.InflateError.corrupt) { try Gzip.decompress(Array(compressed.dropLast(3)), limit: 1 << 20) }
        #expect(throws: Gzip.InflateError.corrupt) { try Gzip.decompress(compressed + [1, 2, 3], limit: 1 << 20) }
        #expect(throws: Gzip.InflateError.corrupt) { try Gzip.decompress(Array("not gzip".utf8), limit: 1 << 20) }
    }

    @Test func acceptEncoding() {
        #expect(Gzip.accepts("gzip"))
        #expect(Gzip.accepts("deflate, GZIP;q=0.5"))
        #expect(Gzip.accepts("*"))
        #expect(!Gzip.accepts("gzip;q=0"))
        #expect(!Gzip.accepts("gzip;q=0.000, deflate"))
        #expect(!Gzip.accepts("br, deflate"))
        #expect(!Gzip.accepts("*;q=0"))
        #expect(!Gzip.accepts("*, gzip;q=0"))
        #expect(Gzip.accepts("identity, x-GZip"))
        #expect(!Gzip.accepts("ggzip"))  // names gzip, but is another coding
        #expect(!Gzip.accepts("identity"))
        #expect(!Gzip.accepts("gzi, p"))
        // The prefilter: every value that can admit gzip names gzip or *, in any case.
        for value in ["gzip", "GZIP", "x-gZiP", "*", "br;q=1, *;q=0.5", "gggzip"] { #expect(Gzip.namesGzipOrStar(value)) }
        for value in ["", "identity", "br, deflate", "gzi", "g zip", "zip"] { #expect(!Gzip.namesGzipOrStar(value)) }
    }

    @Test func httpDateFormat() {
        #expect(String(decoding: HTTPDate.format(784111777), as: UTF8.self) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
