// libFuzzer harness for HTTPServer.Connection: the whole per-connection state machine (intake
// under backpressure, pipelining, 100-continue, gzip bodies, answers in order, refusals,
// lingering close, half and full closes) over a real socketpair, driven by a scripted I/O
// backend on one thread.
//
// Input: bytes 0...2 pick the configuration, bytes 3...6 seed the script (read sizes and what
// happens between reads), byte 7 picks how the stream is made: raw (the rest of the input is
// the byte stream) or generated (the rest drives a generator of pipelined requests with bodies,
// chunked framing, gzip, Expect, Connection: close, HEAD, HTTP/1.0 and the odd stray byte).
// The stream is written to the client end in pieces split at random points; between pieces
// the script reads (or does not read) the answers, delivers deferred handler answers in any
// order, fires the timer, or closes the client early.
//
// Checks, besides "no trap, no sanitizer report":
// - the handler sees a prefix of the requests a whole-stream parse finds (method, target,
//   de-chunked and inflated body), in order, each once;
// - the client reads answers in request order (a prefix of them), each answering its own
//   request, then at most one error answer and nothing after it;
// - with no early close and no timeout, every request is answered (and a stream the parser
//   refuses gets its error answer);
// - the connection closes exactly once by the end, its share of the server-wide buffer
//   budget returns to zero, and it is freed (no reference cycle).
import Dispatch
import FuzzSupport
import TestSupport
@testable import HTTPServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The I/O backend, run by the harness: `execute` queues work the script drains, interest and
/// the deadline are recorded, `close` closes the descriptor.
// @unchecked: the harness and the connection run on the one fuzzing thread.
final class ScriptedIO: ConnectionIO, @unchecked Sendable {
    let fd: Int32
    var readInterest = true
    var writeInterest = false
    var deadline: DispatchTime?
    var work: [@Sendable () -> Void] = []
    var closeCount = 0

    init(fd: Int32) { self.fd = fd }
    func activate(_ connection: Connection) -> Bool { true }
    var inContext: Bool { true }
    func execute(_ work: @escaping @Sendable () -> Void) { self.work.append(work) }
    func setReadInterest(_ on: Bool) { readInterest = on }
    func setWriteInterest(_ on: Bool) { writeInterest = on }
    func readStoppedEarly() {}
    func schedule(deadline: DispatchTime) { self.deadline = deadline }
    func close() {
        closeCount += 1
        if closeCount == 1 { _ = Glibc.close(fd) }
    }

    /// Runs queued work (which may queue more); false when there was none.
    func drain() -> Bool {
        var ran = false
        var rounds = 0
        while !work.isEmpty && rounds < 1000 {
            let batch = work
            work.removeAll()
            for item in batch { item() }
            ran = true
            rounds += 1
        }
        return ran
    }
}

/// What the handler saw of one request, and what the whole-stream parse expects.
struct Seen: Equatable {
    var method: String
    var target: String
    var body: [UInt8]
}

/// Answers each request with its sequence number and a digest of what it received, at once
/// or later (the script delivers deferred answers in any order).
// @unchecked: used on the one fuzzing thread only.
final class ScriptedHandler: HTTPHandler, @unchecked Sendable {
    var deferAnswers: Bool
    var seen: [Seen] = []
    var deferred: [(HTTPResponse, @Sendable (HTTPResponse) -> Void)] = []
    init(deferAnswers: Bool) { self.deferAnswers = deferAnswers }

    func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let sequence = seen.count
        seen.append(Seen(method: request.method, target: request.target, body: request.body))
        let response = HTTPResponse(status: 200, headers: ["X-Seq": String(sequence)],
                                    body: answerBody(sequence: sequence, target: request.target, body: request.body))
        if deferAnswers { deferred.append((response, respond)) } else { respond(response) }
    }
}

/// The body of the answer to request `sequence`: "/big" targets get a large one, so the
/// output backs up behind a small socket buffer.
func answerBody(sequence: Int, target: String, body: [UInt8]) -> [UInt8] {
    let fnv = body.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    var text = Array("\(sequence) \(body.count) \(fnv)".utf8)
    if target.hasPrefix("/big") { text += [UInt8](repeating: UInt8(ascii: "x"), count: 24 * 1024) }
    return text
}

// MARK: the stream

func generateStream(_ r: inout ByteReader) -> [UInt8] {
    var out: [UInt8] = []
    func add(_ s: String) { out += Array(s.utf8) }
    let methods = ["GET", "POST", "HEAD", "PUT", "OPTIONS", "DELETE", "get"]
    let targets = ["/", "/big", "/a?b=c", "/x%20y", "*", "http://h/p", "/big?q"]
    let count = 1 + r.below(6)
    for _ in 0..<count {
        let method = methods[r.below(methods.count)]
        add("\(method) \(targets[r.below(targets.count)]) \(r.below(8) == 0 ? "HTTP/1.0" : "HTTP/1.1")\r\n")
        if r.below(8) != 0 { add("Host: h\r\n") }
        let flags = r.byte()
        if flags & 1 != 0 { add("Connection: close\r\n") }
        if flags & 2 != 0 { add("Expect: 100-continue\r\n") }
        if flags & 4 != 0 { add("Accept-Encoding: gzip\r\n") }
        if flags & 8 != 0 { add("Connection: keep-alive\r\n") }
        var body = (0..<(r.below(4) == 0 ? 0 : r.below(80))).map { _ in r.byte() }
        if flags & 16 != 0, !body.isEmpty, let gz = Gzip.compress(body, level: 1) {
            add("Content-Encoding: gzip\r\n")
            body = gz
        }
        switch r.below(4) {
        case 0 where body.isEmpty:
            add("\r\n")
        case 1, 2:
            add("Transfer-Encoding: chunked\r\n\r\n")
            var rest = body[...]
            while !rest.isEmpty {
                let size = min(rest.count, 1 + r.below(24))
                add(String(size, radix: 16) + (r.below(8) == 0 ? ";ext=1" : "") + "\r\n")
                out += rest.prefix(size)
                add("\r\n")
                rest = rest.dropFirst(size)
            }
            add("0\r\n" + (r.below(8) == 0 ? "Trailer: x\r\n" : "") + "\r\n")
        default:
            add("Content-Length: \(body.count)\r\n\r\n")
            out += body
        }
        // Now and then a stray byte or a cut.
        switch r.below(24) {
        case 0 where !out.isEmpty: out.insert(r.byte(), at: Int(r.uint16()) % out.count)
        case 1 where !out.isEmpty: out.remove(at: Int(r.uint16()) % out.count)
        default: break
        }
    }
    return out
}

/// The requests a whole-stream parse takes (stopping at the first error, at a corrupt gzip
/// body, or after a request that closes the connection), and whether it ended in an error.
func expectedRequests(_ stream: [UInt8], _ configuration: HTTPServerConfiguration) -> (requests: [Seen], error: Bool) {
    var parser = RequestParser(limits: configuration.parserLimits)
    parser.append(contentsOf: stream)
    var requests: [Seen] = []
    var head: RequestHead?
    while true {
        let event: RequestParserEvent?
        do { event = try parser.next() } catch { return (requests, true) }
        guard let event else { return (requests, false) }
        switch event {
        case .head(let h):
            head = h
        case .end(var body):
            guard let h = head else { preconditionFailure("body without a head") }
            if h.contentEncoding == .gzip && !body.isEmpty {
                guard let inflated = try? Gzip.decompress(body, limit: configuration.maxInflatedBodyBytes) else {
                    return (requests, true)
                }
                body = inflated
            }
            requests.append(Seen(method: h.method, target: h.target, body: body))
            if !h.keepAlive { return (requests, false) }
        }
    }
}

// MARK: the answers

/// Reads the answers off the client's bytes: returns the ordinary answers' sequence numbers
/// and bodies, and whether an error answer came (after which nothing may follow).
/// `mayBeCut`: the client or a timeout ended the connection early, so the last answer may be
/// incomplete.
func checkAnswers(_ bytes: [UInt8], expected: [Seen], handled: [Seen], mayBeCut: Bool) -> (answered: Int, error: Bool) {
    var index = 0
    var answered = 0
    func fail(_ why: String) -> Never {
        report("answers: \(String(decoding: bytes.prefix(2000), as: UTF8.self))\n\(why)")
        preconditionFailure(why)
    }
    while index < bytes.count {
        guard let end = find(bytes, [13, 10, 13, 10], from: index) else {
            if mayBeCut { return (answered, false) }
            fail("an incomplete answer head at \(index)")
        }
        let head = String(decoding: bytes[index..<end], as: UTF8.self)
        index = end + 4
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? -1
        if status == 100 { continue }
        var length = 0
        var sequence: Int?
        var gzipped = false
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { fail("a malformed answer field: \(line)") }
            let value = parts[1].drop { $0 == " " }
            if parts[0].lowercased() == "content-length" { length = Int(value) ?? -1 }
            if parts[0] == "X-Seq" { sequence = Int(value) }
            if parts[0].lowercased() == "content-encoding" { gzipped = value == "gzip" }
        }
        if status >= 400 {
            // The error answer ends the connection: at most its body follows (none for HEAD).
            if bytes.count - index > length { fail("bytes after the error answer") }
            return (answered, true)
        }
        guard status == 200, let sequence else { fail("unexpected answer status \(status)") }
        guard sequence == answered else { fail("answer \(sequence) arrived in place of \(answered)") }
        guard sequence < handled.count, sequence < expected.count else { fail("an answer to a request never handled") }
        if expected[sequence].method == "HEAD" { length = 0 }
        guard length >= 0 else { fail("answer \(sequence) has no length") }
        if index + length > bytes.count {
            if mayBeCut { return (answered, false) }
            fail("answer \(sequence) is cut short")
        }
        let want = expected[sequence].method == "HEAD" ? [] : answerBody(sequence: sequence, target: expected[sequence].target,
                                                                         body: expected[sequence].body)
        let matches: Bool
        if gzipped && length > 0 {
            let got = Array(bytes[index..<(index + length)])
            guard let inflated = try? Gzip.decompress(got, limit: 1 << 20) else { fail("answer \(sequence) is not gzip: \(got.map { String($0, radix: 16) })") }
            matches = bytesEqual(inflated, 0..<inflated.count, want)
        } else {
            matches = bytesEqual(bytes, index..<(index + length), want)
        }
        guard matches else { fail("answer \(sequence) answers another request") }
        index += length
        answered += 1
    }
    return (answered, false)
}

/// The first `needle` in `bytes` at or after `start`, with libc's `memchr` and `memcmp`:
/// a Swift loop over the answers' bytes is instrumented for coverage, one comparison
/// callback per byte, and the answers run to 24 KiB (that loop and the byte-wise `==` on the
/// bodies were a sixth of the harness's time).
func find(_ bytes: [UInt8], _ needle: [UInt8], from start: Int) -> Int? {
    guard start < bytes.count else { return nil }
    return bytes.withUnsafeBytes { haystack in
        needle.withUnsafeBytes { n in
            // memchr for the first byte, memcmp for the rest (Glibc's module has no memmem).
            let base = haystack.baseAddress!
            var i = start
            while i + n.count <= haystack.count {
                guard let hit = memchr(base + i, Int32(n[0]), haystack.count - n.count + 1 - i) else { return nil }
                i = UnsafeRawPointer(hit) - base
                if memcmp(base + i, n.baseAddress!, n.count) == 0 { return i }
                i += 1
            }
            return nil
        }
    }
}

/// `bytes[range] == want`, with `memcmp`.
func bytesEqual(_ bytes: [UInt8], _ range: Range<Int>, _ want: [UInt8]) -> Bool {
    guard range.count == want.count else { return false }
    guard !want.isEmpty else { return true }
    return bytes.withUnsafeBytes { a in want.withUnsafeBytes { b in memcmp(a.baseAddress! + range.lowerBound, b.baseAddress!, b.count) == 0 } }
}

// MARK: the script

func configuration(_ a: UInt8, _ b: UInt8) -> HTTPServerConfiguration {
    var c = HTTPServerConfiguration()
    c.maxPipelinedRequests = [1, 2, 3, 16][Int(a & 3)]
    c.maxBufferedResponseBytes = [512, 4096, 64 * 1024, 1 << 20][Int(a >> 2 & 3)]
    if a & 16 != 0 {
        c.maxRequestLineBytes = 64
        c.maxHeaderBytes = 256
        c.maxHeaderCount = 8
        c.maxBodyBytes = 96
        c.maxInflatedBodyBytes = 64
    }
    if b & 1 != 0 {
        c.headerTimeout = .zero
        c.bodyTimeout = .zero
        c.idleTimeout = .zero
        c.writeTimeout = .zero
        c.lingerTimeout = .zero
    }
    if b & 2 != 0 {
        // A JSON error body, as the service configures it.
        c.errorBody = HTTPErrorBodyFormat(contentType: "application/json") { refusal in
            Array("{\"status\":\(refusal.status),\"message\":\"\(refusal.message)\"}".utf8)
        }
    }
    c.responseCompression.enabled = b & 4 != 0
    c.responseCompression.minimumBytes = 64
    return c
}

/// One read buffer for the whole run: a 64 KiB allocation per read cost ASan a shadow
/// poisoning, a fill and a quarantine slot each time.
// nonisolated(unsafe): libFuzzer calls the harness on one thread only.
nonisolated(unsafe) let readBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 * 1024)

/// The client end of the socketpair, read without blocking.
func readAvailable(_ fd: Int32, into out: inout [UInt8]) -> Bool {
    var any = false
    while true {
        let n = read(fd, readBuffer.baseAddress, readBuffer.count)
        guard n > 0 else { break }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: readBuffer[0..<n]))
        any = true
    }
    return any
}

/// FUZZ_DUMP=1 prints what each input did.
let dumping = getenv("FUZZ_DUMP") != nil

/// Counts closes reported by the connection.
// @unchecked: used on the one fuzzing thread only.
final class CloseCounter: @unchecked Sendable { var count = 0 }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 8 else { return 0 }
    signal(SIGPIPE, SIG_IGN)
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let config = configuration(input[0], input[1])
    let smallSendBuffer = input[2] & 1 != 0
    var rng = SplitMix64(seed: UInt64(input[3]) | UInt64(input[4]) << 8 | UInt64(input[5]) << 16 | UInt64(input[6]) << 24)
    let stream: [UInt8]
    if input[7] & 1 == 0 {
        stream = Array(input[8...])
    } else {
        var reader = ByteReader(Array(input[8...]))
        stream = generateStream(&reader)
    }
    let (expected, parseFails) = expectedRequests(stream, config)

    var fds: [Int32] = [0, 0]
    #if canImport(Glibc)
    let kind = Int32(SOCK_STREAM.rawValue)
    #else
    let kind = SOCK_STREAM
    #endif
    guard socketpair(AF_UNIX, kind, 0, &fds) == 0 else { preconditionFailure("socketpair: \(errno)") }
    let (server, client) = (fds[0], fds[1])
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    if smallSendBuffer {
        var size: Int32 = 2048
        _ = setsockopt(server, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(client, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    let io = ScriptedIO(fd: server)
    let handler = ScriptedHandler(deferAnswers: input[2] & 2 != 0)
    let closes = CloseCounter()
    let budget = BufferBudget(outputBound: config.maxBufferedOutputBytesTotal, inputBound: config.maxBufferedInputBytesTotal)
    weak var weakConnection: Connection?
    var received: [UInt8] = []
    var clientOpen = true      // the client's descriptor is open
    var clientWriting = true   // its write side is open
    var earlyEvent = false     // an early close or a due timer: answers may stop short
    var timedOut = false       // a timer fired with zero timeouts: an answer may be cut

    do {
        let connection = Connection(fd: server, remoteAddress: nil, configuration: config, handler: handler,
                                    io: io, budget: budget, onClose: { _ in closes.count += 1 })
        weakConnection = connection
        connection.start()
        _ = io.drain()

        func step() {
            if io.readInterest { connection.readable() }
            _ = io.drain()
            if io.writeInterest { connection.writable() }
        }
        func deliver(all: Bool) {
            while !handler.deferred.isEmpty {
                let i = Int(rng.next() % UInt64(handler.deferred.count))
                let (response, respond) = handler.deferred.remove(at: i)
                respond(response)
                _ = io.drain()
                if !all && rng.next() % 2 == 0 { break }
            }
        }

        var offset = 0
        var blocked = 0
        // A connection that takes no more requests stops reading: the rest of the stream
        // then stays unsent.
        while offset < stream.count && clientWriting && blocked < 8 {
            let roll = rng.next()
            let length = min(stream.count - offset, roll % 2 == 0 ? Int(roll >> 8 % 8) + 1 : Int(roll >> 8 % 256) + 1)
            let written = stream[offset..<(offset + length)].withUnsafeBytes {
                send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written > 0 { offset += written; blocked = 0 } else { blocked += 1 }
            step()
            switch rng.next() % 32 {
            case 0...19: _ = readAvailable(client, into: &received)
            case 20...25: deliver(all: false)
            case 26, 27:
                connection.timerFired()
                if config.headerTimeout == .zero { earlyEvent = true; timedOut = true }
            case 28:
                // The client stops sending mid-stream (half close).
                shutdown(client, Int32(SHUT_WR))
                clientWriting = false
                earlyEvent = true
            case 29 where rng.next() % 4 == 0:
                // The client goes away altogether.
                _ = readAvailable(client, into: &received)
                _ = close(client)
                clientOpen = false
                clientWriting = false
                earlyEvent = true
            default:
                break // the client does not read this time
            }
            _ = io.drain()
            if written <= 0 {
                // The connection stopped reading and the socket is full: the client must read.
                _ = readAvailable(client, into: &received)
                deliver(all: false)
                step()
            }
        }

        // The end: the client half-closes and reads everything; deferred answers go out.
        if clientWriting { shutdown(client, Int32(SHUT_WR)) }
        var rounds = 0
        while !connection.state.isClosed && rounds < 200 {
            rounds += 1
            var progress = io.drain()
            if clientOpen { progress = readAvailable(client, into: &received) || progress }
            if !handler.deferred.isEmpty { deliver(all: true); progress = true }
            if io.readInterest && !connection.state.isClosed { connection.readable() }
            if io.writeInterest && !connection.state.isClosed { connection.writable() }
            if !progress && rounds > 4 {
                // Only a deadline is left (a linger or a timeout).
                connection.timerFired()
                if config.headerTimeout == .zero { earlyEvent = true; timedOut = true }
            }
        }
        if clientOpen { _ = readAvailable(client, into: &received) }
        if !connection.state.isClosed {
            report("state \(connection.state) readInterest \(io.readInterest) writeInterest \(io.writeInterest) "
                   + "pending \(connection.pending.count) handled \(handler.seen.count)/\(expected.count)")
            preconditionFailure("the connection did not close after the client left")
        }
    }
    _ = io.drain()
    handler.deferred.removeAll()
    if clientOpen { _ = close(client) }

    precondition(io.closeCount == 1 && closes.count == 1, "closed \(io.closeCount) times, reported \(closes.count)")
    precondition(weakConnection == nil, "the connection outlived its close (a reference cycle)")
    let totals = budget.statistics
    precondition(totals.outputBytes == 0 && totals.inputBytes == 0 && totals.pausedConnections == 0,
                 "the buffer budget kept a closed connection's share: \(totals)")

    // The handler saw a prefix of the requests, in order.
    guard handler.seen.count <= expected.count, Array(expected.prefix(handler.seen.count)) == handler.seen else {
        report("handled: \(handler.seen.map { "\($0.method) \($0.target) \($0.body.count)" })")
        report("expected: \(expected.map { "\($0.method) \($0.target) \($0.body.count)" })")
        preconditionFailure("the handler saw requests the whole-stream parse does not give")
    }
    let (answered, sawError) = checkAnswers(received, expected: expected, handled: handler.seen,
                                             mayBeCut: timedOut || !clientOpen)
    if dumping {
        report("stream \(stream.count) bytes, expected \(expected.count) requests (parse error \(parseFails)), handled "
               + "\(handler.seen.count), answered \(answered), error answer \(sawError), early \(earlyEvent), client open \(clientOpen)")
    }
    if !earlyEvent && clientOpen {
        precondition(handler.seen.count == expected.count, "handled \(handler.seen.count) of \(expected.count) requests")
        precondition(answered == expected.count, "answered \(answered) of \(expected.count) requests")
        precondition(sawError == parseFails, "error answer \(sawError), parse error \(parseFails)")
    }
    return 0
}

runFuzzer { data, size in fuzzOne(data, size) }
