// libFuzzer harness for HTTPServer.RequestParser (and the gzip inflater behind request bodies).
//
// Input layout: byte 0 picks small or default limits, bytes 1...4 seed the split points, the
// rest is the byte stream a client sends. The stream is parsed three ways — all at once, in
// random-sized pieces, and (for short inputs) one byte at a time — and every way must yield the
// same events and the same final error. Any trap, sanitizer report or disagreement is a crash.
import FuzzSupport
import TestSupport
@testable import HTTPServer

/// A comparable summary of what the parser produced.
struct Outcome: Equatable {
    var events: [String] = []
    var error: HTTPParseError.Kind?

    /// Same events and both failed or both not. Which error a doomed stream reports may depend
    /// on how far it had arrived (a too-long line is refused before its bad line ending shows
    /// up), so the kinds are not compared.
    func agrees(with other: Outcome) -> Bool {
        events == other.events && (error == nil) == (other.error == nil)
    }
}

func describe(_ event: RequestParserEvent, limits: RequestParser.Limits, lastFraming: inout BodyFraming?) -> String {
    switch event {
    case .head(let head):
        // Invariants every accepted head must satisfy.
        switch head.framing {
        case .contentLength(let n):
            precondition(n > 0 && n <= limits.maxBodyBytes, "content-length framing out of range: \(n)")
        case .chunked:
            precondition(head.version == .http1_1, "chunked accepted on HTTP/1.0")
        case .none:
            break
        }
        precondition(head.headers.count <= limits.maxHeaderCount, "more headers than the limit")
        precondition(head.path.hasPrefix("/") || head.path == "*", "path does not start with /: \(head.path)")
        lastFraming = head.framing
        let fields = head.headers.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
        return "H \(head.method) \(head.target) \(head.path) \(head.query ?? "-") \(head.version) \(head.framing) "
            + "ka=\(head.keepAlive) ec=\(head.expectsContinue) ce=\(head.contentEncoding) [\(fields)]"
    case .end(let body):
        precondition(body.count <= limits.maxBodyBytes, "body over the limit: \(body.count)")
        if case .contentLength(let n)? = lastFraming {
            precondition(body.count == n, "body length \(body.count) differs from Content-Length \(n)")
        } else if case BodyFraming.none? = lastFraming {
            precondition(body.isEmpty, "a request without framing has a body")
        }
        lastFraming = nil
        let fnv = body.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return "E \(body.count) \(fnv)"
    }
}

/// Parses `stream` delivered in `pieces` (lengths summing to stream.count).
func run(_ stream: [UInt8], pieces: [Int], limits: RequestParser.Limits) -> Outcome {
    var parser = RequestParser(limits: limits)
    var outcome = Outcome()
    var framing: BodyFraming?
    var offset = 0
    for length in pieces {
        parser.append(contentsOf: stream[offset..<(offset + length)])
        offset += length
        do {
            while let event = try parser.next() {
                outcome.events.append(describe(event, limits: limits, lastFraming: &framing))
            }
        } catch {
            outcome.error = error.kind
            // After an error the parser must keep failing with the same error.
            do {
                _ = try parser.next()
                preconditionFailure("parser recovered after \(error)")
            } catch let again {
                precondition(again == error, "a second call threw a different error")
            }
            precondition(parser.phase == .failed)
            return outcome
        }
    }
    return outcome
}

let smallLimits = RequestParser.Limits(maxRequestLineBytes: 64, maxHeaderBytes: 256, maxHeaderCount: 8,
                                       maxBodyBytes: 512, maxChunkLineBytes: 32)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 5 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = input[0] & 1 == 0 ? smallLimits : RequestParser.Limits()
    var rng = SplitMix64(seed: UInt64(input[1]) | UInt64(input[2]) << 8 | UInt64(input[3]) << 16 | UInt64(input[4]) << 24)
    let stream = Array(input[5...])

    let whole = run(stream, pieces: [stream.count], limits: limits)

    var pieces: [Int] = []
    var left = stream.count
    while left > 0 {
        let take = min(left, Int(rng.next() % 17) + 1)
        pieces.append(take)
        left -= take
    }
    let split = run(stream, pieces: pieces, limits: limits)
    if !split.agrees(with: whole) {
        report("whole: \(whole)\nsplit: \(split)\npieces: \(pieces)")
        preconditionFailure("split parse differs from whole parse")
    }
    if stream.count <= 600 {
        let bytewise = run(stream, pieces: Array(repeating: 1, count: stream.count), limits: limits)
        if !bytewise.agrees(with: whole) {
            report("whole: \(whole)\nbytewise: \(bytewise)")
            preconditionFailure("byte-at-a-time parse differs from whole parse")
        }
    }

    // The inflater on the raw stream: bounded output, no trap, whatever the bytes.
    if input[0] & 2 != 0 {
        let limit = 4096
        if let out = try? Gzip.decompress(stream, limit: limit) {
            precondition(out.count <= limit, "inflated past the limit")
        }
    }
    return 0
}

runFuzzer { data, size in fuzzOne(data, size) }
