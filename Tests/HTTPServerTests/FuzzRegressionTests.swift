import Testing
@testable import HTTPServer

/// Inputs found by the libFuzzer harness in Fuzz/Sources/FuzzHTTPParser, kept as regression
/// tests. Each parses the stream whole and in the split that failed, and expects agreement.
@Suite struct FuzzRegressionTests {
    /// Feeds `pieces` in order; returns the number of events and whether it failed.
    private func parse(_ pieces: [[UInt8]], limits: RequestParser.Limits) -> (events: Int, failed: HTTPParseError.Kind?) {
        var parser = RequestParser(limits: limits)
        var count = 0
        do {
            for piece in pieces { count += try parser.feed(piece).count }
            return (count, nil)
        } catch {
            return (count, error.kind)
        }
    }

    /// A request line exactly at `maxRequestLineBytes` whose CR arrives in one read and LF in
    /// the next was refused with 414, while the same bytes in one read were accepted: the
    /// incremental limit check counted the CR of the line ending.
    @Test func requestLineAtTheLimitWithCRAndLFInSeparateReads() {
        let limits = RequestParser.Limits(maxRequestLineBytes: 64)
        let line = "GET http://RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRxample.com/p?q HTTP/1.0"
        #expect(line.utf8.count == 64)
        let rest = "Connection: keep-alive\r\n\r\n"
        let whole = parse([Array((line + "\r\n" + rest).utf8)], limits: limits)
        let split = parse([Array((line + "\r").utf8), Array(("\n" + rest).utf8)], limits: limits)
        #expect(whole.failed == nil)
        #expect(whole.events == 2)
        #expect(split.failed == nil)
        #expect(split.events == whole.events)
        // One byte more is still refused, however it arrives.
        let long = "GET /" + String(repeating: "a", count: 51) + " HTTP/1.1"
        #expect(long.utf8.count == 65)
        #expect(parse([Array((long + "\r\n").utf8)], limits: limits).failed == .requestLineTooLong)
        #expect(parse([Array((long + "\r").utf8), Array("\n".utf8)], limits: limits).failed == .requestLineTooLong)
    }
}
