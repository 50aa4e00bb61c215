/// What the serializer needs to know about the request a response answers.
struct ResponseContext {
    var isHead: Bool
    var version: HTTPVersion
    var acceptsGzip: Bool
}

/// The handler's header lines of the last response a connection sent, as wire bytes. A
/// handler that answers from a cache hands the same header list (the same array storage) again
/// and again; its lines are then copied, not rebuilt field by field. Holding the list keeps
/// its storage alive and unchanged (copy on write), so equal storage means equal fields.
struct HeaderLinesMemo {
    fileprivate var fields: [HTTPHeaders.Element] = []
    fileprivate var lines: [UInt8] = []
    fileprivate var hasDate = false
    fileprivate var compressed = false
    /// The connection's copy of the Date line (also per connection, so no lock per response).
    fileprivate var date = HTTPDate.Memo()

    init() {}

    fileprivate func matches(_ other: [HTTPHeaders.Element], compressed: Bool) -> Bool {
        guard !other.isEmpty, other.count == fields.count, compressed == self.compressed else { return false }
        return other.withUnsafeBufferPointer { a in fields.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}

/// Turns responses into wire bytes: head and body in one buffer so they leave in one write,
/// or a large body apart from its head, the two then written by one `sendmsg`.
enum ResponseSerializer {
    static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private static let statusLines: [[UInt8]] = (0..<600).map { status in
        Array("HTTP/1.1 \(status) \(reasonPhrase(status))\r\n".utf8)
    }

    /// Appends the complete response to `out`. `close` adds `Connection: close`.
    static func serialize(_ response: HTTPResponse, context: ResponseContext, close: Bool,
                          configuration: HTTPServerConfiguration, into out: inout [UInt8]) {
        var memo = HeaderLinesMemo()
        serialize(response, context: context, close: close, configuration: configuration, memo: &memo, into: &out)
    }

    /// As above, reusing (and updating) `memo`, the connection's last header lines. A body of
    /// `separateBodyBytes` or more is not appended but returned, to be written after `out`
    /// from its own array (the handler's, or the compressed one): a large answer is not copied
    /// on its way to the socket.
    @discardableResult
    static func serialize(_ response: HTTPResponse, context: ResponseContext, close: Bool,
                          configuration: HTTPServerConfiguration, memo: inout HeaderLinesMemo,
                          into out: inout [UInt8], separateBodyBytes: Int = .max) -> [UInt8]? {
        let status = (100...599).contains(response.status) ? response.status : 500
        let bodyAllowed = status >= 200 && status != 204 && status != 304
        // The handler's body is read in place; only a compressed one is a new array.
        var gzipped: [UInt8]?
        let compression = configuration.responseCompression
        if compression.enabled, context.acceptsGzip, bodyAllowed, response.body.count >= compression.minimumBytes,
           !response.headers.contains("Content-Encoding") {
            gzipped = Gzip.compress(response.body, level: compression.level)
        }
        let compressed = gzipped != nil
        let bodyCount = bodyAllowed ? gzipped?.count ?? response.body.count : 0

        let writesBody = !context.isHead && bodyAllowed
        let separate = writesBody && bodyCount >= separateBodyBytes
        // Room for the head too: a head past the reserve would double a large answer's buffer.
        out.reserveCapacity(out.count + 1024 + (writesBody && !separate ? bodyCount : 0))
        statusLines.withUnsafeBufferPointer { lines in
            lines[status].withUnsafeBufferPointer { out.append(contentsOf: $0) }
        }
        var hasDate = false
        var hasVary = false
        if memo.matches(response.headers.fields, compressed: compressed) {
            hasDate = memo.hasDate
            memo.lines.withUnsafeBufferPointer { out.append(contentsOf: $0) }
        } else {
            let linesStart = out.count
            appendHandlerFields(response.headers, compressed: compressed, hasDate: &hasDate, hasVary: &hasVary, to: &out)
            // A list with Vary is rare; its lines depend on more than the list, so not kept.
            if !hasVary {
                memo.fields = response.headers.fields
                memo.lines.removeAll(keepingCapacity: memo.lines.capacity <= 4096)
                memo.lines.append(contentsOf: out[linesStart...])
                memo.hasDate = hasDate
                memo.compressed = compressed
            }
        }
        if !hasDate { HTTPDate.appendField(to: &out, memo: &memo.date) }
        if let server = configuration.serverName { appendField("Server", server, to: &out) }
        if compressed {
            out.append(contentsOf: "Content-Encoding: gzip\r\n".utf8)
            if !hasVary { out.append(contentsOf: "Vary: Accept-Encoding\r\n".utf8) }
        }
        if bodyAllowed {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(bodyCount, to: &out)
            out.append(contentsOf: "\r\n".utf8)
        }
        if close {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if context.version == .http1_0 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        if separate { return gzipped ?? response.body }
        if writesBody {
            if let gzipped {
                out.append(contentsOf: gzipped)
            } else {
                response.body.withUnsafeBufferPointer { out.append(contentsOf: $0) }
            }
        }
        return nil
    }

    /// The handler's fields, minus those the server owns (framing), sanitised.
    private static func appendHandlerFields(_ headers: HTTPHeaders, compressed: Bool, hasDate: inout Bool,
                                            hasVary: inout Bool, to out: inout [UInt8]) {
        // Fields are read in place: no copy (retain and release) of each name and value.
        headers.fields.withUnsafeBufferPointer { fields in
            for index in fields.indices {
                switch kind(of: fields[index].name) {
                case .framing:
                    continue
                case .date:
                    hasDate = true
                case .vary where compressed:
                    hasVary = true
                    appendField(fields[index].name, fields[index].value + ", Accept-Encoding", to: &out)
                    continue
                case .vary, .other:
                    break
                }
                appendField(fields[index].name, fields[index].value, to: &out)
            }
        }
    }

    /// The header fields the serializer treats specially.
    private enum FieldKind { case other, framing, date, vary }

    /// Which kind `name` is, by length first: most names need no comparison at all.
    @inline(__always)
    private static func kind(of name: String) -> FieldKind {
        switch name.utf8.count {
        case 4:
            if HTTPHeaders.equalsIgnoringCase(name, "Date") { return .date }
            return HTTPHeaders.equalsIgnoringCase(name, "Vary") ? .vary : .other
        case 10:
            return HTTPHeaders.equalsIgnoringCase(name, "Connection") ? .framing : .other
        case 14:
            return HTTPHeaders.equalsIgnoringCase(name, "Content-Length") ? .framing : .other
        case 17:
            return HTTPHeaders.equalsIgnoringCase(name, "Transfer-Encoding") ? .framing : .other
        default:
            return .other
        }
    }

    /// Header names and values from handlers must not split the response: CR, LF and other
    /// control characters become spaces.
    private static func appendField(_ name: String, _ value: String, to out: inout [UInt8]) {
        appendSanitized(name, to: &out)
        out.append(contentsOf: ": ".utf8)
        appendSanitized(value, to: &out)
        out.append(contentsOf: "\r\n".utf8)
    }

    private static func appendSanitized(_ text: String, to out: inout [UInt8]) {
        let clean: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 && byte != ASCII.tab { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if clean == true { return }
        if text.utf8.contains(where: { $0 < 0x20 && $0 != ASCII.tab }) {
            out.append(contentsOf: text.utf8.map { $0 < 0x20 && $0 != ASCII.tab ? ASCII.space : $0 })
        } else {
            out.append(contentsOf: text.utf8)
        }
    }

    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 10 { out.append(UInt8(0x30 + value)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[19 - count] = UInt8(0x30 + rest % 10)
                rest /= 10
                count += 1
            }
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// The response to a refused request, its body in the configured format; the connection
    /// closes after it.
    static func errorResponse(status: Int, message: String, format: HTTPErrorBodyFormat) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": format.contentType],
                     body: format.render(HTTPRefusal(status: status, message: message)))
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 417: return "Expectation Failed"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}
