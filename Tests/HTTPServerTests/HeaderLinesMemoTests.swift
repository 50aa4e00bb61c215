import Testing
@testable import HTTPServer

/// A connection reuses the wire form of a header list a handler sends again (same storage);
/// any other list, or the same fields with the body compressed, is serialised afresh.
@Suite struct HeaderLinesMemoTests {
    private static func wire(_ response: HTTPResponse, gzip: Bool = false, memo: inout HeaderLinesMemo) -> String {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.responseCompression.minimumBytes = 1
        var out: [UInt8] = []
        ResponseSerializer.serialize(response, context: ResponseContext(isHead: false, version: .http1_1, acceptsGzip: gzip),
                                     close: false, configuration: configuration, memo: &memo, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func withoutDate(_ text: String) -> String {
        text.split(separator: "\r\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("Date: ") }
            .joined(separator: "\r\n")
    }

    @Test func aRepeatedListIsReusedAndOtherListsAreNot() {
        var memo = HeaderLinesMemo()
        let shared: HTTPHeaders = ["Content-Type": "application/json", "ETag": "\"abc\"", "Content-Length": "99"]
        let body = Array("{}".utf8)
        let first = Self.wire(HTTPResponse(status: 200, headers: shared, body: body), memo: &memo)
        let again = Self.wire(HTTPResponse(status: 200, headers: shared, body: body), memo: &memo)
        #expect(Self.withoutDate(first) == Self.withoutDate(again))
        #expect(first.contains("\r\nContent-Type: application/json\r\nETag: \"abc\"\r\n"))
        #expect(first.contains("Content-Length: 2\r\n"))
        #expect(!first.contains("99"))
        // Equal fields in other storage, and different fields of the same count.
        let other: HTTPHeaders = ["Content-Type": "text/plain", "ETag": "\"xyz\"", "Content-Length": "1"]
        let third = Self.wire(HTTPResponse(status: 404, headers: other, body: body), memo: &memo)
        #expect(third.hasPrefix("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nETag: \"xyz\"\r\n"))
        let fourth = Self.wire(HTTPResponse(status: 200, headers: shared, body: body), memo: &memo)
        #expect(Self.withoutDate(fourth) == Self.withoutDate(first))
    }

    @Test func aListWithItsOwnDateKeepsItWhenReused() {
        var memo = HeaderLinesMemo()
        let dated: HTTPHeaders = ["Date": "Sun, 06 Nov 1994 08:49:37 GMT"]
        for _ in 0..<2 {
            let text = Self.wire(HTTPResponse(status: 200, headers: dated, body: [1]), memo: &memo)
            #expect(text.components(separatedBy: "Date: ").count == 2)
            #expect(text.contains("Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"))
        }
    }

    @Test func compressionIsNotTakenFromTheMemo() {
        var memo = HeaderLinesMemo()
        let varying: HTTPHeaders = ["Vary": "Origin", "X-A": "1"]
        let body = [UInt8](repeating: 65, count: 4000)
        let plain = Self.wire(HTTPResponse(status: 200, headers: varying, body: body), memo: &memo)
        #expect(plain.contains("Vary: Origin\r\n"))
        #expect(!plain.contains("Content-Encoding"))
        let gzipped = Self.wire(HTTPResponse(status: 200, headers: varying, body: body), gzip: true, memo: &memo)
        #expect(gzipped.contains("Vary: Origin, Accept-Encoding\r\n"))
        #expect(gzipped.contains("Content-Encoding: gzip\r\n"))
        let plainAgain = Self.wire(HTTPResponse(status: 200, headers: varying, body: body), memo: &memo)
        #expect(Self.withoutDate(plainAgain) == Self.withoutDate(plain))
    }

    @Test func theConnectionsDateLineMatchesTheSharedOne() {
        var memo = HTTPDate.Memo()
        for _ in 0..<3 {
            var shared: [UInt8] = []
            var own: [UInt8] = []
            HTTPDate.appendField(to: &shared)
            HTTPDate.appendField(to: &own, memo: &memo)
            // Equal unless the second turned between the two calls; then the next round agrees.
            if shared == own {
                let text = String(decoding: own, as: UTF8.self)
                #expect(text.hasPrefix("Date: ") && text.hasSuffix(" GMT\r\n"))
                #expect(own.count == 6 + 29 + 2)
                return
            }
        }
        Issue.record("the memoised Date line never matched the shared one")
    }
}
