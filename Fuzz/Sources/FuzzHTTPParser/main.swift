// libFuzzer harness for HTTPServer.RequestParser (and the gzip inflater behind request bodies).
//
// Input layout: byte 0 picks small or default limits, bytes 1...4 seed the split points, the
// rest is the byte stream a client sends. The stream is parsed three ways — all at once, in
// random-sized pieces, and (for short inputs) one byte at a time — and every way must yield the
// same events and the same final error. Any trap, sanitizer report or disagreement is a crash.
import FuzzSupport
import TestSupport
@testable import HTTPServer

/// A comparable summary of what the parser produced: one digest per event (a `Hasher` over
/// every field of a head, the length and bytes of a body). Digests, not descriptions: building
/// strings per event cost more than the parsing itself.
struct Outcome: Equatable {
    var events: [Int] = []
    var error: HTTPParseError.Kind?

    /// Same events and both failed or both not. Which error a doomed stream reports may depend
    /// on how far it had arrived (a too-long line is refused before its bad line ending shows
    /// up), so the kinds are not compared.
    func agrees(with other: Outcome) -> Bool {
        events == other.events && (error == nil) == (other.error == nil)
    }
}

func digest(_ event: RequestParserEvent, limits: RequestParser.Limits, lastFraming: inout BodyFraming?) -> Int {
    var h = Hasher()
    switch event {
    case .head(let head):
        // Invariants every accepted head must satisfy.
        switch head.framing {
        case .contentLength(let n):
            precondition(n > 0 && n <= limits.maxBodyBytes, "content-length framing out of range: \(n)")
            h.combine(n)
        case .chunked:
            precondition(head.version == .http1_1, "chunked accepted on HTTP/1.0")
            h.combine(-1)
        case .none:
            h.combine(-2)
        }
        precondition(head.headers.count <= limits.maxHeaderCount, "more headers than the limit")
        precondition(head.path.hasPrefix("/") || head.path == "*", "path does not start with /: \(head.path)")
        lastFraming = head.framing
        h.combine(head.method); h.combine(head.target); h.combine(head.path); h.combine(head.query)
        h.combine(head.version == .http1_1); h.combine(head.keepAlive); h.combine(head.expectsContinue)
        h.combine(head.contentEncoding == .gzip)
        for field in head.headers { h.combine(field.name); h.combine(field.value) }
    case .end(let body):
        precondition(body.count <= limits.maxBodyBytes, "body over the limit: \(body.count)")
        if case .contentLength(let n)? = lastFraming {
            precondition(body.count == n, "body length \(body.count) differs from Content-Length \(n)")
        } else if case BodyFraming.none? = lastFraming {
            precondition(body.isEmpty, "a request without framing has a body")
        }
        lastFraming = nil
        h.combine(-3)
        h.combine(body)
    }
    return h.finalize()
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
                outcome.events.append(digest(event, limits: limits, lastFraming: &framing))
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

    // Random pieces, a third of them single bytes (a CR and its LF, a chunk size and its line
    // end, land in different reads).
    var pieces: [Int] = []
    var left = stream.count
    while left > 0 {
        let roll = rng.next()
        let take = min(left, roll % 3 == 0 ? 1 : Int(roll >> 8 % 24) + 1)
        pieces.append(take)
        left -= take
    }
    let split = run(stream, pieces: pieces, limits: limits)
    if !split.agrees(with: whole) {
        report("whole: \(whole)\nsplit: \(split)\npieces: \(pieces)")
        preconditionFailure("split parse differs from whole parse")
    }
    // Byte at a time too for short streams (for long ones it repeats the split run's work).
    if stream.count <= 96 {
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
