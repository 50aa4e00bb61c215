import Testing
@testable import HTTPServer

/// A simplified, comparable view of parser events.
private enum Seen: Equatable {
    case head(method: String, path: String, query: String?)
    case end(String)
}

private func events(_ text: String, limits: RequestParser.Limits = .init()) throws(HTTPParseError) -> [Seen] {
    var parser = RequestParser(limits: limits)
    return try parser.feed(Array(text.utf8)).map(simplify)
}

private func simplify(_ event: RequestParserEvent) -> Seen {
    switch event {
    case .head(let head): return .head(method: head.method, path: head.path, query: head.query)
    case .end(let body): return .end(String(decoding: body, as: UTF8.self))
    }
}

private func errorKind(_ text: String, limits: RequestParser.Limits = .init()) -> HTTPParseError.Kind? {
    var parser = RequestParser(limits: limits)
    do {
        _ = try parser.feed(Array(text.utf8))
        return nil
    } catch {
        return error.kind
    }
}

private func head(_ text: String) throws -> RequestHead {
    var parser = RequestParser()
    for event in try parser.feed(Array(text.utf8)) {
        if case .head(let head) = event { return head }
    }
    throw HTTPParseError(.invalidRequestLine, "no head")
}

@Suite struct RequestParserTests {
    @Test func parsesASimpleGet() throws {
        let seen = try events("GET /a/b?x=1&y=2 HTTP/1.1\r\nHost: h\r\nUser-Agent: t\r\n\r\n")
        #expect(seen == [.head(method: "GET", path: "/a/b", query: "x=1&y=2"), .end("")])
        let parsed = try head("GET / HTTP/1.1\r\nHost: h\r\nX-Thing:   padded value \t\r\n\r\n")
        #expect(parsed.headers["x-thing"] == "padded value")
        #expect(parsed.headers["HOST"] == "h")
        #expect(parsed.keepAlive)
        #expect(parsed.version == .http1_1)
    }

    @Test func contentLengthBody() throws {
        let seen = try events("POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello")
        #expect(seen == [.head(method: "POST", path: "/p", query: nil), .end("hello")])
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() throws {
        let request = "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value;flag\r\nhello\r\n"
            + "6 ; q=\"quoted \\\" text\"\r\n world\r\n"
            + "0\r\nX-Trailer: yes\r\nOther: 1\r\n\r\n"
        #expect(try events(request) == [.head(method: "POST", path: "/c", query: nil), .end("hello world")])
    }

    /// The de-chunked part of a body being received is still held by the parser: it counts as
    /// buffered (the input bound's measure) until the body ends, like a sized body's bytes.
    @Test func aChunkedBodyInProgressCountsAsBuffered() throws {
        var parser = RequestParser()
        let head = "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        let chunk = "1000\r\n" + String(repeating: "x", count: 4096) + "\r\n"
        var seen = try parser.feed(Array((head + chunk + chunk).utf8))
        #expect(seen.count == 1)
        #expect(parser.bufferedByteCount >= 2 * 4096)
        seen = try parser.feed(Array("0\r\n\r\n".utf8))
        guard seen.count == 1, case .end(let body) = seen[0] else {
            Issue.record("expected the body's end, got \(seen.count) events")
            return
        }
        #expect(body.count == 2 * 4096)
        #expect(parser.bufferedByteCount == 0)
    }

    @Test func absoluteFormTargetsGiveThePath() throws {
        #expect(try events("GET http://example.com:8080/x/y?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")
            == [.head(method: "GET", path: "/x/y", query: "q=1"), .end("")])
        #expect(try events("GET HTTPS://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n")
            == [.head(method: "GET", path: "/", query: nil), .end("")])
        #expect(errorKind("GET example.com/x HTTP/1.1\r\nHost: h\r\n\r\n") == .invalidTarget)
        #expect(errorKind("GET * HTTP/1.1\r\nHost: h\r\n\r\n") == .invalidTarget)
        #expect(try events("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n") == [.head(method: "OPTIONS", path: "*", query: nil), .end("")])
    }

    @Test func connectionSemantics() throws {
        #expect(try head("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n").keepAlive == false)
        #expect(try head("GET / HTTP/1.0\r\n\r\n").keepAlive == false)
        #expect(try head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").keepAlive == true)
        #expect(try head("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n").expectsContinue)
        #expect(try head("POST / HTTP/1.1\r\nHost: h\r\nContent-Encoding: gzip\r\nContent-Length: 3\r\n\r\n").contentEncoding == .gzip)
    }

    @Test func pipelinedRequestsSplitAtEveryByteBoundary() throws {
        let stream = "GET /one HTTP/1.1\r\nHost: h\r\n\r\n"
            + "POST /two HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
            + "POST /three HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nde\r\n1\r\nf\r\n0\r\nT: v\r\n\r\n"
            + "\r\nGET /four HTTP/1.0\r\n\r\n"
        let bytes = Array(stream.utf8)
        let expected: [Seen] = [
            .head(method: "GET", path: "/one", query: nil), .end(""),
            .head(method: "POST", path: "/two", query: nil), .end("abc"),
            .head(method: "POST", path: "/three", query: nil), .end("def"),
            .head(method: "GET", path: "/four", query: nil), .end(""),
        ]
        #expect(try events(stream) == expected)
        for split in 0...bytes.count {
            var parser = RequestParser()
            let seen = try (parser.feed(bytes[0..<split]) + parser.feed(bytes[split...])).map(simplify)
            #expect(seen == expected, "split at \(split)")
        }
        var parser = RequestParser()
        var seen: [Seen] = []
        for byte in bytes { seen += try parser.feed([byte]).map(simplify) }
        #expect(seen == expected)
        #expect(parser.phase == .idle)
    }

    @Test(arguments: [
        // Ambiguous framing (request smuggling vectors).
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", HTTPParseError.Kind.contentLengthWithTransferEncoding),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", .contentLengthWithTransferEncoding),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", .duplicateContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n", .duplicateContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -3\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0x10\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1 0\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", .unsupportedTransferEncoding),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .unsupportedTransferEncoding),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", .invalidTransferEncoding),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", .invalidTransferEncoding),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \"chunked\"\r\n\r\n", .invalidTransferEncoding),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding:\r\n\r\n", .invalidTransferEncoding),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", .transferEncodingInHTTP10),
        // Line syntax.
        ("GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n", .bareCR),
        ("GET / HTTP/1.1\rHost: h\r\n\r\n", .bareCR),
        ("GET / HTTP/1.1\nHost: h\r\n\r\n", .bareLF),
        ("GET / HTTP/1.1\r\nHost: h\n\r\n", .bareLF),
        ("GET / HTTP/1.1\r\nHost: h\r\n\n", .bareLF),
        ("GET / HTTP/1.1\r\nHost : h\r\n\r\n", .whitespaceBeforeColon),
        ("GET / HTTP/1.1\r\nHost\t: h\r\n\r\n", .whitespaceBeforeColon),
        ("GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n  continued\r\n\r\n", .obsFold),
        ("GET / HTTP/1.1\r\n Host: h\r\n\r\n", .obsFold),
        ("GET / HTTP/1.1\r\nHost: h\r\nX-A: a\u{01}b\r\n\r\n", .invalidHeaderValue),
        ("GET / HTTP/1.1\r\nHost: h\r\nX-A: a\u{7F}b\r\n\r\n", .invalidHeaderValue),
        ("GET / HTTP/1.1\r\nHost: h\r\nX-A: a\u{00}b\r\n\r\n", .invalidHeaderValue),
        ("GET / HTTP/1.1\r\nHost: h\r\nBad(Name): 1\r\n\r\n", .invalidHeaderName),
        ("GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", .invalidHeaderName),
        ("GET / HTTP/1.1\r\nHost: h\r\n: empty\r\n\r\n", .invalidHeaderName),
        ("GET / HTTP/1.1\r\n\r\n", .missingHost),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .duplicateHost),
        ("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", .invalidHeaderValue),
        // Request line.
        ("G(ET / HTTP/1.1\r\nHost: h\r\n\r\n", .invalidMethod),
        ("GE\"T / HTTP/1.1\r\nHost: h\r\n\r\n", .invalidMethod),
        (" GET / HTTP/1.1\r\nHost: h\r\n\r\n", .invalidRequestLine),
        ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", .invalidRequestLine),
        ("GET / HTTP/1.1 \r\nHost: h\r\n\r\n", .invalidRequestLine),
        ("GET /\r\n\r\n", .invalidRequestLine),
        ("GET / HTTP/1.1x\r\nHost: h\r\n\r\n", .invalidRequestLine),
        ("GET / http/1.1\r\nHost: h\r\n\r\n", .invalidRequestLine),
        ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", .unsupportedVersion),
        ("GET / HTTP/1.2\r\nHost: h\r\n\r\n", .unsupportedVersion),
        ("GET / HTTP/0.9\r\nHost: h\r\n\r\n", .unsupportedVersion),
        ("GET /a\u{7F}b HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget),
        ("GET /a#frag HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget),
        // Chunked framing.
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .invalidChunkSize),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", .invalidChunkSize),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n+1\r\n", .invalidChunkSize),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", .invalidChunkSize),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\n", .invalidChunkSize),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n", .invalidChunkSize),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n", .invalidChunkSize),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\rhello\r\n", .invalidChunkSize),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n", .invalidChunkExtension),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;=x\r\nhello\r\n", .invalidChunkExtension),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\"x\r\nhello\r\n", .invalidChunkExtension),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b c\r\nhello\r\n", .invalidChunkExtension),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloX\r\n", .invalidChunkTerminator),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\n0\r\n\r\n", .invalidChunkTerminator),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nBad Trailer: x\r\n\r\n", .invalidTrailer),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n folded: x\r\n\r\n", .invalidTrailer),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: a\u{01}\r\n\r\n", .invalidTrailer),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n", .invalidTrailer),
        // Other refusals.
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Encoding: br\r\nContent-Length: 1\r\n\r\nx", .unsupportedContentEncoding),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Encoding: gzip, gzip\r\nContent-Length: 1\r\n\r\nx", .unsupportedContentEncoding),
        ("POST / HTTP/1.1\r\nHost: h\r\nExpect: something\r\nContent-Length: 1\r\n\r\nx", .expectationFailed),
    ])
    func rejects(request: String, kind: HTTPParseError.Kind) {
        #expect(errorKind(request) == kind)
    }

    @Test func limits() {
        let small = RequestParser.Limits(maxRequestLineBytes: 64, maxHeaderBytes: 128, maxHeaderCount: 3, maxBodyBytes: 10)
        let longTarget = "/" + String(repeating: "a", count: 100)
        #expect(errorKind("GET \(longTarget) HTTP/1.1\r\nHost: h\r\n\r\n", limits: small) == .requestLineTooLong)
        // Without a line end yet: refused as soon as the line is over the limit.
        #expect(errorKind("GET \(longTarget)", limits: small) == .requestLineTooLong)
        let bigHeader = "X-Big: " + String(repeating: "b", count: 200)
        #expect(errorKind("GET / HTTP/1.1\r\nHost: h\r\n\(bigHeader)\r\n\r\n", limits: small) == .headersTooLarge)
        #expect(errorKind("GET / HTTP/1.1\r\nHost: h\r\n\(bigHeader)", limits: small) == .headersTooLarge)
        #expect(errorKind("GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", limits: small) == .headersTooLarge)
        #expect(errorKind("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n", limits: small) == .bodyTooLarge)
        #expect(errorKind("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n5\r\n",
                          limits: small) == .bodyTooLarge)
        let longTrailer = "T: " + String(repeating: "t", count: 200)
        #expect(errorKind("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\(longTrailer)\r\n\r\n",
                          limits: small) == .headersTooLarge)
        #expect(errorKind("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n", limits: small) == nil)
    }

    @Test func errorsAreStickyAndMapToStatuses() {
        var parser = RequestParser()
        #expect(throws: HTTPParseError.self) { try parser.feed(Array("GET / HTTP/1.1\nHost: h\r\n\r\n".utf8)) }
        #expect(parser.phase == .failed)
        do {
            _ = try parser.feed(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
            Issue.record("a failed parser accepted more input")
        } catch {
            #expect(error.kind == .bareLF)
            #expect(error.status == 400)
        }
        #expect(HTTPParseError(.requestLineTooLong, "").status == 414)
        #expect(HTTPParseError(.headersTooLarge, "").status == 431)
        #expect(HTTPParseError(.bodyTooLarge, "").status == 413)
        #expect(HTTPParseError(.unsupportedTransferEncoding, "").status == 501)
        #expect(HTTPParseError(.unsupportedVersion, "").status == 505)
        #expect(HTTPParseError(.unsupportedContentEncoding, "").status == 415)
    }

    @Test func phasesTrackProgress() throws {
        var parser = RequestParser()
        #expect(parser.phase == .idle)
        _ = try parser.feed(Array("POST / HTTP/1.1\r\nHo".utf8))
        #expect(parser.phase == .head)
        _ = try parser.feed(Array("st: h\r\nContent-Length: 4\r\n\r\nab".utf8))
        #expect(parser.phase == .body)
        let last = try parser.feed(Array("cd".utf8))
        #expect(last.count == 1)
        #expect(parser.phase == .idle)
    }

    /// A sized body that arrives in pieces is gathered into one array reserved for its declared
    /// length (not grown by doubling, which copies it again each time and may hold twice its
    /// size), counts as buffered while it arrives, and leaves the bytes after it to the next
    /// request.
    @Test func aSizedBodyIsGatheredIntoOneArrayOfItsLength() throws {
        let length = 100_000
        let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var parser = RequestParser()
        #expect(try parser.feed(Array("POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: \(length)\r\n\r\n".utf8)
            + body[0..<10]).map(simplify) == [.head(method: "POST", path: "/b", query: nil)])
        var fed = 10
        while fed < length - 1000 {
            #expect(try parser.feed(body[fed..<(fed + 1000)]).isEmpty)
            fed += 1000
            #expect(parser.bufferedByteCount == fed)
            // The head's buffer does not take the body.
            #expect(parser.bufferCapacity <= 4096)
        }
        let last = try parser.feed(body[fed...] + Array("GET /next HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        guard last.count == 3, case .end(let received) = last[0] else {
            Issue.record("expected the body's end and the next request, got \(last.map(simplify))")
            return
        }
        #expect(received == body)
        #expect(received.capacity < length + 4096, "capacity \(received.capacity): grown, not reserved")
        #expect(last[1...].map(simplify) == [.head(method: "GET", path: "/next", query: nil), .end("")])
        #expect(parser.bufferedByteCount == 0)
    }

    @Test func commonAndUncommonValuesAndTargetsParseExactly() throws {
        // Values the parser hands out as literals, their near misses, and each target shape.
        let values = ["application/json", "application/JSON", "application/json; charset=utf-8",
                      "gzip, deflate, br", "gzip, deflate, bx", "gzip, deflate, br, zstd", "text/plain"]
        for value in values {
            for (target, path, query) in [("/p", "/p", nil), ("/p?a=1", "/p", "a=1"), ("/p?", "/p", ""),
                                          ("http://h/x?y", "/x", "y"), ("http://h", "/", nil)] as [(String, String, String?)] {
                for method in ["POST", "GET", "HEAD", "PUT", "POSTX"] {
                    let parsed = try head("\(method) \(target) HTTP/1.1\r\nHost: h\r\nX-Value: \(value)\r\n\r\n")
                    #expect(parsed.method == method)
                    #expect(parsed.target == target)
                    #expect(parsed.path == path)
                    #expect(parsed.query == query)
                    #expect(parsed.headers["x-value"] == value)
                    #expect(parsed.headers["X-VALUE"] == value)
                    #expect(parsed.headers["X-Valu"] == nil)
                }
            }
        }
    }

    @Test func fieldNamesKeepTheirSpellingAsSent() throws {
        let names = ["Host", "host", "Content-Type", "content-type", "Content-Typf", "If-None-Match",
                     "Accept-Encoding", "ACCEPT-ENCODING", "User-Agent", "Accept", "X-Other"]
        var text = "GET / HTTP/1.1\r\n"
        for name in names where name.lowercased() != "host" { text += "\(name): v-\(name)\r\n" }
        text += "Host: h\r\n\r\n"
        let parsed = try head(text)
        let sent = parsed.headers.map(\.name)
        #expect(sent == names.filter { $0.lowercased() != "host" } + ["Host"])
        for name in names where name.lowercased() != "host" {
            #expect(parsed.headers.values(for: name).contains("v-\(name)"))
        }
    }

    /// After a request, the input buffer keeps its storage only up to `retainedBufferBytes`:
    /// a keep-alive connection does not hold its largest body's buffer while idle.
    @Test(arguments: [(retained: 4096, bodyBytes: 20_000, kept: false), (retained: 64 * 1024, bodyBytes: 20_000, kept: true),
                      (retained: 4096, bodyBytes: 100, kept: true)])
    func anEmptiedInputBufferKeepsOnlyTheRetainedCapacity(retained: Int, bodyBytes: Int, kept: Bool) throws {
        var parser = RequestParser(limits: .init(retainedBufferBytes: retained))
        let body = String(repeating: "b", count: bodyBytes)
        let seen = try parser.feed(Array("POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: \(bodyBytes)\r\n\r\n\(body)".utf8))
        #expect(seen.map(simplify) == [.head(method: "POST", path: "/x", query: nil), .end(body)])
        #expect(parser.bufferedByteCount == 0)
        #expect((parser.bufferCapacity > 0) == kept)
        #expect(parser.bufferCapacity <= max(retained, 0) || !kept)
    }

    /// The output buffer likewise, once everything in it was sent.
    @Test func aSentOutputBufferKeepsOnlyTheRetainedCapacity() {
        var output = OutputBuffer(responseBytesEstimate: 0)
        output.append([UInt8](repeating: 1, count: 10_000))
        output.sent(retainedBytes: 4096)
        #expect(output.bytes.capacity == 0)
        output.append([UInt8](repeating: 1, count: 1_000))
        output.sent(retainedBytes: 4096)
        #expect(output.bytes.isEmpty && output.bytes.capacity >= 1_000)
        output.append([UInt8](repeating: 1, count: 10_000))
        output.sent(retainedBytes: 16 * 1024)
        #expect(output.bytes.capacity >= 10_000)
    }
}
