#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the parser found in the bytes fed so far.
public enum RequestParserEvent: Sendable {
    /// A complete, validated head. Its body (possibly empty) follows as `.end`.
    case head(RequestHead)
    /// The end of the request whose head came last, with its whole de-chunked body.
    case end(body: [UInt8])
}

/// An incremental HTTP/1.1 request parser (RFC 9112): a pure state machine over bytes, with
/// no I/O, so it can be fed any split of the input. Strict: CRLF only (bare LF and bare CR are
/// errors), no obs-fold, no whitespace before colons, unambiguous framing only. After an error
/// every further call throws the same error; the connection must answer it and close.
public struct RequestParser {
    /// Size limits enforced while parsing.
    public struct Limits: Sendable {
        public var maxRequestLineBytes: Int
        public var maxHeaderBytes: Int
        public var maxHeaderCount: Int
        public var maxBodyBytes: Int
        /// Longest chunk-size line including extensions.
        public var maxChunkLineBytes: Int
        /// Capacity the input buffer may keep once everything in it was taken; a larger one is
        /// freed (see `HTTPServerConfiguration.retainedBufferBytes`).
        public var retainedBufferBytes: Int

        public init(maxRequestLineBytes: Int = 8192, maxHeaderBytes: Int = 16384, maxHeaderCount: Int = 100,
                    maxBodyBytes: Int = 8 << 20, maxChunkLineBytes: Int = 4096, retainedBufferBytes: Int = 4 * 1024) {
            self.maxRequestLineBytes = maxRequestLineBytes
            self.maxHeaderBytes = maxHeaderBytes
            self.maxHeaderCount = maxHeaderCount
            self.maxBodyBytes = maxBodyBytes
            self.maxChunkLineBytes = maxChunkLineBytes
            self.retainedBufferBytes = retainedBufferBytes
        }
    }

    /// Where the parser is between calls; drives the connection's timeouts.
    public enum Phase: Equatable, Sendable {
        /// Between requests, nothing buffered.
        case idle
        /// Some bytes of a head are buffered.
        case head
        /// The head is done, the body is incomplete.
        case body
        case failed
    }

    private enum State {
        case head
        case body(length: Int)
        case chunked
        case failed(HTTPParseError)
    }

    public let limits: Limits
    private var state = State.head
    private var buffer: [UInt8] = []
    /// Start of the unconsumed bytes.
    private var readIndex = 0
    /// Where the search for the next LF resumes.
    private var scanIndex = 0
    /// Start of the current head (for the head size limit).
    private var headStart = 0
    private var leadingEmptyLines = 0
    private var builder = HeadBuilder()
    private var chunkedDecoder = ChunkedDecoder()
    private var chunkedBody: [UInt8] = []
    /// The received part of a sized body (`State.body`), in its own array of the declared
    /// length's capacity: bytes go in once, as they arrive, and the array is the event's body.
    /// Gathered in `buffer`, a large body was copied again at each doubling of the buffer and
    /// once more out of it. The capacity is reserved, not touched: the kernel backs its pages as
    /// bytes are written (and the input bound counts those), and the length is at most
    /// `maxBodyBytes`, checked with the head.
    private var sizedBody: [UInt8] = []

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    public var phase: Phase {
        switch state {
        case .head: return readIndex < buffer.count || builder.sawRequestLine ? .head : .idle
        case .body, .chunked: return .body
        case .failed: return .failed
        }
    }

    /// Bytes the parser holds for requests not yet taken as events: received bytes not yet
    /// consumed, plus the de-chunked part of a chunked body being received (its chunks are
    /// consumed from the input as they are decoded, but their data stays held here until the
    /// body's end), so a chunked upload counts against the input bound like a sized one.
    public var bufferedByteCount: Int { buffer.count - readIndex + chunkedBody.count + sizedBody.count }

    /// The input buffer's allocated capacity (what an idle connection keeps).
    var bufferCapacity: Int { buffer.capacity }

    /// Appends received bytes; call `next()` to take events.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        if case .body(let length) = state, sizedBody.count < length {
            let taken = min(length - sizedBody.count, rest.count)
            sizedBody.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<taken]))
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
            if rest.isEmpty { return }
        }
        compact()
        buffer.append(contentsOf: rest)
    }

    public mutating func append<S: Sequence<UInt8>>(contentsOf bytes: S) {
        Array(bytes).withUnsafeBytes { append($0) }
    }

    /// Convenience for tests and fuzzing: appends and returns every event now available.
    public mutating func feed<S: Sequence<UInt8>>(_ bytes: S) throws(HTTPParseError) -> [RequestParserEvent] {
        append(contentsOf: bytes)
        var events: [RequestParserEvent] = []
        while let event = try next() { events.append(event) }
        return events
    }

    /// The next event, or nil when more bytes are needed.
    public mutating func next() throws(HTTPParseError) -> RequestParserEvent? {
        do throws(HTTPParseError) {
            switch state {
            case .failed(let error):
                throw error
            case .head:
                return try parseHead()
            case .body(let length):
                guard sizedBody.count == length else { return nil }
                let body = sizedBody
                sizedBody = []
                startHead()
                return .end(body: body)
            case .chunked:
                let done = try buffer.withUnsafeBufferPointer { bytes throws(HTTPParseError) in
                    try chunkedDecoder.decode(bytes, from: &readIndex, into: &chunkedBody, limits: limits)
                }
                guard done else { return nil }
                let body = chunkedBody
                chunkedBody = []
                startHead()
                compact()
                return .end(body: body)
            }
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func startHead() {
        state = .head
        builder = HeadBuilder()
        headStart = readIndex
        scanIndex = readIndex
        leadingEmptyLines = 0
    }

    /// Drops consumed bytes so the buffer only holds the current message's unconsumed part.
    private mutating func compact() {
        guard readIndex > 0 else { return }
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= limits.retainedBufferBytes)
        } else if readIndex >= 4096 && readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
        } else {
            return
        }
        scanIndex -= readIndex
        headStart -= readIndex
        readIndex = 0
    }

    private mutating func parseHead() throws(HTTPParseError) -> RequestParserEvent? {
        while true {
            let found: Int? = buffer.withUnsafeBufferPointer { bytes in
                guard scanIndex < bytes.count, let base = bytes.baseAddress,
                      let hit = memchr(base + scanIndex, Int32(ASCII.lf), bytes.count - scanIndex) else { return nil }
                return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
            guard let lf = found else {
                scanIndex = buffer.count
                // A trailing CR may be the first half of the line's CRLF: not counted, so a
                // line at the limit passes however the bytes were split (found by fuzzing).
                let pendingCR = buffer.last == ASCII.cr ? 1 : 0
                try checkHeadLimits(lineLength: buffer.count - readIndex - pendingCR, headLength: buffer.count - headStart)
                return nil
            }
            let lineStart = readIndex
            guard lf > lineStart, buffer[lf - 1] == ASCII.cr else {
                throw HTTPParseError(.bareLF, "Lines must end with CRLF; a bare LF was received.")
            }
            let lineEnd = lf - 1
            readIndex = lf + 1
            scanIndex = readIndex
            try checkHeadLimits(lineLength: lineEnd - lineStart, headLength: readIndex - headStart)
            if lineEnd == lineStart {
                if builder.sawRequestLine {
                    let head = try builder.finish(maxBodyBytes: limits.maxBodyBytes)
                    builder = HeadBuilder()
                    switch head.framing {
                    case .none: state = .body(length: 0)
                    case .contentLength(let length):
                        state = .body(length: length)
                        takeBodyStart(length: length)
                    case .chunked:
                        state = .chunked
                        chunkedDecoder = ChunkedDecoder()
                        chunkedBody = []
                    }
                    return .head(head)
                }
                // RFC 9112 §2.2: ignore a few empty lines before a request line.
                leadingEmptyLines += 1
                guard leadingEmptyLines <= 4 else {
                    throw HTTPParseError(.invalidRequestLine, "Too many empty lines before the request line.")
                }
                continue
            }
            try buffer.withUnsafeBufferPointer { bytes throws(HTTPParseError) in
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
                if memchr(line.baseAddress!, Int32(ASCII.cr), line.count) != nil {
                    throw HTTPParseError(.bareCR, "A bare CR was received inside a line.")
                }
                if builder.sawRequestLine {
                    try builder.headerLine(line, maxCount: limits.maxHeaderCount)
                } else {
                    try builder.requestLine(line)
                }
            }
        }
    }

    /// Moves the body bytes that came with the head from `buffer` into `sizedBody`, made with
    /// room for all `length`.
    private mutating func takeBodyStart(length: Int) {
        guard length > 0 else { return }
        let taken = min(length, buffer.count - readIndex)
        if taken == length {
            sizedBody = Array(buffer[readIndex..<(readIndex + taken)]) // all here: one exact copy
        } else {
            sizedBody.reserveCapacity(length)
            sizedBody.append(contentsOf: buffer[readIndex..<(readIndex + taken)])
        }
        readIndex += taken
        scanIndex = readIndex
        // An idle keep-alive connection must not hold a large head's buffer.
        compact()
    }

    private func checkHeadLimits(lineLength: Int, headLength: Int) throws(HTTPParseError) {
        if !builder.sawRequestLine && lineLength > limits.maxRequestLineBytes {
            throw HTTPParseError(.requestLineTooLong, "The request line is longer than \(limits.maxRequestLineBytes) bytes.")
        }
        if headLength > limits.maxHeaderBytes {
            throw HTTPParseError(.headersTooLarge, "The request head is larger than \(limits.maxHeaderBytes) bytes.")
        }
    }
}
