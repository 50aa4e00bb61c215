#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the body of a request is delimited (RFC 9112 §6.3).
public enum BodyFraming: Sendable, Equatable {
    case none
    case contentLength(Int)
    case chunked
}

/// Content codings the server can undo on request bodies.
public enum ContentCoding: Sendable, Equatable {
    case identity
    case gzip
}

/// A parsed and validated request head: request line, fields, and what they mean for framing.
public struct RequestHead: Sendable {
    public var method: String
    public var target: String
    public var path: String
    public var query: String?
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var framing: BodyFraming
    /// Whether the connection stays open after this request (version default + Connection).
    public var keepAlive: Bool
    /// `Expect: 100-continue` on an HTTP/1.1 request.
    public var expectsContinue: Bool
    public var contentEncoding: ContentCoding
}

/// Accumulates one head line by line and validates it; separate from the byte buffer so the
/// parser can hand it slices.
struct HeadBuilder {
    private var method = ""
    private var target = ""
    private var path = ""
    private var query: String?
    private var version = HTTPVersion.http1_1
    private(set) var sawRequestLine = false
    private var headers = HTTPHeaders()
    private var contentLength: Int?
    private var contentLengthCount = 0
    private var transferEncodings: [String] = []
    private var hostCount = 0
    private var connectionClose = false
    private var connectionKeepAlive = false
    private var expectations: [String] = []
    private var contentEncodings: [String] = []

    /// Allocates nothing: the parser makes a fresh builder after every head, and the field
    /// list's storage is reserved by the first field line instead.
    init() {}

    /// request-line = method SP request-target SP HTTP-version (single spaces, RFC 9112 §3).
    mutating func requestLine(_ line: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) {
        guard let firstSpace = line.firstIndex(of: ASCII.space), firstSpace > 0 else {
            throw HTTPParseError(.invalidRequestLine, "The request line is not 'METHOD target HTTP/x.y'.")
        }
        for i in 0..<firstSpace where !isTokenChar(line[i]) {
            throw HTTPParseError(.invalidMethod, "The method is not a token.")
        }
        let rest = UnsafeBufferPointer(rebasing: line[(firstSpace + 1)...])
        guard let secondSpace = rest.firstIndex(of: ASCII.space), secondSpace > 0 else {
            throw HTTPParseError(.invalidRequestLine, "The request line is not 'METHOD target HTTP/x.y'.")
        }
        let targetBytes = UnsafeBufferPointer(rebasing: rest[..<secondSpace])
        let versionBytes = UnsafeBufferPointer(rebasing: rest[(secondSpace + 1)...])
        version = try Self.parseVersion(versionBytes)
        for byte in targetBytes where byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "#") {
            throw HTTPParseError(.invalidTarget, "The request target contains a character that is not allowed.")
        }
        method = Self.commonMethod(UnsafeBufferPointer(rebasing: line[..<firstSpace]))
            ?? String(decoding: UnsafeBufferPointer(rebasing: line[..<firstSpace]), as: UTF8.self)
        target = String(decoding: targetBytes, as: UTF8.self)
        if targetBytes.first == UInt8(ascii: "/") {
            // Origin form, nearly every request: split on the bytes, no Substring index walk.
            if let questionMark = targetBytes.firstIndex(of: UInt8(ascii: "?")) {
                path = String(decoding: UnsafeBufferPointer(rebasing: targetBytes[..<questionMark]), as: UTF8.self)
                query = String(decoding: UnsafeBufferPointer(rebasing: targetBytes[(questionMark + 1)...]), as: UTF8.self)
            } else {
                path = target
                query = nil
            }
        } else {
            (path, query) = try Self.splitTarget(target, method: method)
        }
        sawRequestLine = true
    }

    /// The usual methods as string literals: no allocation, and no reference counting later.
    private static func commonMethod(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch bytes.count {
        case 3 where asciiEqualsCaseSensitive(bytes, "GET"): return "GET"
        case 4 where asciiEqualsCaseSensitive(bytes, "POST"): return "POST"
        case 4 where asciiEqualsCaseSensitive(bytes, "HEAD"): return "HEAD"
        default: return nil
        }
    }

    /// Field values that many clients send, as string literals: a literal needs no heap
    /// storage and no reference counting, while a value of 16 bytes or more built from the
    /// wire would take both (shorter ones are stored inline in the string anyway).
    private static func fieldValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch bytes.count {
        case 16 where asciiEqualsCaseSensitive(bytes, "application/json"): return "application/json"
        case 17 where asciiEqualsCaseSensitive(bytes, "gzip, deflate, br"): return "gzip, deflate, br"
        case 23 where asciiEqualsCaseSensitive(bytes, "gzip, deflate, br, zstd"): return "gzip, deflate, br, zstd"
        case 31 where asciiEqualsCaseSensitive(bytes, "application/json; charset=utf-8"):
            return "application/json; charset=utf-8"
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Field names as usually spelled, as literals: no UTF-8 validation or string building.
    /// Names keep their spelling as sent; any other spelling is built from the bytes.
    private static func fieldName(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch bytes.count {
        case 4 where asciiEqualsCaseSensitive(bytes, "Host"): return "Host"
        case 6 where asciiEqualsCaseSensitive(bytes, "Accept"): return "Accept"
        case 10 where asciiEqualsCaseSensitive(bytes, "User-Agent"): return "User-Agent"
        case 10 where asciiEqualsCaseSensitive(bytes, "Connection"): return "Connection"
        case 12 where asciiEqualsCaseSensitive(bytes, "Content-Type"): return "Content-Type"
        case 13 where asciiEqualsCaseSensitive(bytes, "If-None-Match"): return "If-None-Match"
        case 14 where asciiEqualsCaseSensitive(bytes, "Content-Length"): return "Content-Length"
        case 15 where asciiEqualsCaseSensitive(bytes, "Accept-Encoding"): return "Accept-Encoding"
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }

    @inline(__always)
    private static func asciiEqualsCaseSensitive(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount
            && memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0
    }

    private static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> HTTPVersion {
        // No arrays: this runs once per request.
        guard bytes.count == 8, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"),
              bytes[2] == UInt8(ascii: "T"), bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/"),
              bytes[6] == UInt8(ascii: "."),
              let major = digit(bytes[5]), let minor = digit(bytes[7]) else {
            throw HTTPParseError(.invalidRequestLine, "The HTTP version is malformed.")
        }
        guard major == 1, minor <= 1 else {
            throw HTTPParseError(.unsupportedVersion, "Only HTTP/1.0 and HTTP/1.1 are supported.")
        }
        return HTTPVersion(major: major, minor: minor)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    /// origin-form "/p?q", absolute-form "http://host/p?q" (path extracted), "*" for OPTIONS.
    private static func splitTarget(_ target: String, method: String) throws(HTTPParseError) -> (String, String?) {
        var pathAndQuery = Substring(target)
        if target == "*" {
            guard method == "OPTIONS" else { throw HTTPParseError(.invalidTarget, "'*' is only valid for OPTIONS.") }
            return ("*", nil)
        }
        if !target.hasPrefix("/") {
            let lower = target.prefix(8).lowercasedASCII()
            let schemeLength = lower.hasPrefix("http://") ? 7 : lower.hasPrefix("https://") ? 8 : 0
            guard schemeLength > 0 else {
                throw HTTPParseError(.invalidTarget, "The request target must be an absolute path or an absolute http(s) URI.")
            }
            let afterScheme = target.dropFirst(schemeLength)
            let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
            guard authorityEnd > afterScheme.startIndex else {
                throw HTTPParseError(.invalidTarget, "The absolute URI has no host.")
            }
            pathAndQuery = afterScheme[authorityEnd...]
        }
        let questionMark = pathAndQuery.firstIndex(of: "?")
        var path = String(pathAndQuery[..<(questionMark ?? pathAndQuery.endIndex)])
        if path.isEmpty { path = "/" }
        let query = questionMark.map { String(pathAndQuery[pathAndQuery.index(after: $0)...]) }
        return (path, query)
    }

    /// field-line = field-name ":" OWS field-value OWS (RFC 9112 §5).
    mutating func headerLine(_ line: UnsafeBufferPointer<UInt8>, maxCount: Int) throws(HTTPParseError) {
        if isOWS(line[0]) {
            throw HTTPParseError(.obsFold, "Folded header lines (obs-fold) are not accepted.")
        }
        guard let colon = line.firstIndex(of: ASCII.colon) else {
            throw HTTPParseError(.invalidHeaderName, "A header line has no colon.")
        }
        guard colon > 0 else { throw HTTPParseError(.invalidHeaderName, "A header name is empty.") }
        if isOWS(line[colon - 1]) {
            throw HTTPParseError(.whitespaceBeforeColon, "Whitespace between a header name and the colon is not allowed.")
        }
        for i in 0..<colon where !isTokenChar(line[i]) {
            throw HTTPParseError(.invalidHeaderName, "A header name contains a character that is not allowed.")
        }
        var start = colon + 1
        var end = line.count
        while start < end, isOWS(line[start]) { start += 1 }
        while end > start, isOWS(line[end - 1]) { end -= 1 }
        for i in start..<end where !isFieldValueChar(line[i]) {
            throw HTTPParseError(.invalidHeaderValue, "A header value contains a control character.")
        }
        guard headers.count < maxCount else {
            throw HTTPParseError(.headersTooLarge, "More than \(maxCount) header fields.")
        }
        let nameBytes = UnsafeBufferPointer(rebasing: line[..<colon])
        let valueBytes = UnsafeBufferPointer(rebasing: line[start..<end])
        let value = Self.fieldValue(valueBytes)
        if headers.fields.capacity == 0 { headers.fields.reserveCapacity(8) }
        headers.add(name: Self.fieldName(nameBytes), value: value)
        try interpret(nameBytes, valueBytes, value)
    }

    /// Records the fields that decide framing and connection handling.
    private mutating func interpret(_ name: UnsafeBufferPointer<UInt8>, _ valueBytes: UnsafeBufferPointer<UInt8>,
                                    _ value: String) throws(HTTPParseError) {
        switch name.count {
        case 4 where asciiEqualsIgnoringCase(name, "host"):
            hostCount += 1
            for byte in valueBytes where byte <= 0x20 || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "@") {
                throw HTTPParseError(.invalidHeaderValue, "The Host header is malformed.")
            }
        case 14 where asciiEqualsIgnoringCase(name, "content-length"):
            contentLengthCount += 1
            // Only 1*DIGIT; "42, 42" lists, signs, hex and spaces are all rejected.
            guard !valueBytes.isEmpty, valueBytes.count <= 18 else {
                throw HTTPParseError(.invalidContentLength, "Content-Length is empty or too long.")
            }
            var length = 0
            for byte in valueBytes {
                guard byte >= 0x30 && byte <= 0x39 else {
                    throw HTTPParseError(.invalidContentLength, "Content-Length must be decimal digits only.")
                }
                length = length * 10 + Int(byte - 0x30)
            }
            contentLength = length
        case 17 where asciiEqualsIgnoringCase(name, "transfer-encoding"):
            transferEncodings.append(value)
        case 10 where asciiEqualsIgnoringCase(name, "connection"):
            for token in listElements(value) {
                let lower = token.lowercasedASCII()
                if lower == "close" { connectionClose = true }
                if lower == "keep-alive" { connectionKeepAlive = true }
            }
        case 6 where asciiEqualsIgnoringCase(name, "expect"):
            expectations.append(value)
        case 16 where asciiEqualsIgnoringCase(name, "content-encoding"):
            contentEncodings.append(value)
        default:
            break
        }
    }

    /// Validates the whole head and decides framing (RFC 9112 §6.3, strictest reading).
    /// Moves the fields and strings out into the head (the builder is spent afterwards), so
    /// they are not retained for the head and released again with the builder.
    mutating func finish(maxBodyBytes: Int) throws(HTTPParseError) -> RequestHead {
        let isHTTP11 = version == .http1_1
        if isHTTP11 && hostCount == 0 { throw HTTPParseError(.missingHost, "HTTP/1.1 requests need a Host header.") }
        if hostCount > 1 { throw HTTPParseError(.duplicateHost, "More than one Host header.") }
        var framing = BodyFraming.none
        if !transferEncodings.isEmpty {
            if !isHTTP11 {
                throw HTTPParseError(.transferEncodingInHTTP10, "Transfer-Encoding is not allowed in HTTP/1.0.")
            }
            if contentLengthCount > 0 {
                throw HTTPParseError(.contentLengthWithTransferEncoding, "Content-Length and Transfer-Encoding together are ambiguous.")
            }
            framing = try Self.transferFraming(transferEncodings)
        } else if contentLengthCount > 1 {
            // RFC 9112 §6.3 allows folding identical duplicates; we reject them to rule out
            // any disagreement with an intermediary.
            throw HTTPParseError(.duplicateContentLength, "More than one Content-Length.")
        } else if let length = contentLength {
            if length > maxBodyBytes {
                throw HTTPParseError(.bodyTooLarge, "The body is larger than \(maxBodyBytes) bytes.")
            }
            if length > 0 { framing = .contentLength(length) }
        }
        var expectsContinue = false
        if isHTTP11 {
            for expectation in expectations {
                guard expectation.lowercasedASCII() == "100-continue" else {
                    throw HTTPParseError(.expectationFailed, "Only 'Expect: 100-continue' is supported.")
                }
                expectsContinue = true
            }
        }
        var coding = ContentCoding.identity
        let codings = contentEncodings.flatMap(listElements).map { $0.lowercasedASCII() }.filter { $0 != "identity" }
        if codings == ["gzip"] || codings == ["x-gzip"] {
            coding = .gzip
        } else if !codings.isEmpty {
            throw HTTPParseError(.unsupportedContentEncoding, "Only gzip request bodies are supported.")
        }
        return RequestHead(
            method: takeValue(&method), target: takeValue(&target), path: takeValue(&path), query: query.take(),
            version: version, headers: takeValue(&headers), framing: framing,
            keepAlive: isHTTP11 ? !connectionClose : (connectionKeepAlive && !connectionClose),
            expectsContinue: expectsContinue && framing != .none, contentEncoding: coding)
    }

    /// Transfer-Encoding must be exactly "chunked"; other codings are not implemented (501).
    private static func transferFraming(_ values: [String]) throws(HTTPParseError) -> BodyFraming {
        var elements: [String] = []
        for value in values {
            for element in value.split(separator: ",", omittingEmptySubsequences: false) {
                let trimmed = element.trimmingOWS()
                if trimmed.isEmpty { continue }
                guard trimmed.isToken else {
                    throw HTTPParseError(.invalidTransferEncoding, "Transfer-Encoding is malformed.")
                }
                elements.append(trimmed.lowercasedASCII())
            }
        }
        guard !elements.isEmpty else { throw HTTPParseError(.invalidTransferEncoding, "Transfer-Encoding is empty.") }
        if elements.contains(where: { $0 != "chunked" }) {
            throw HTTPParseError(.unsupportedTransferEncoding, "Only the chunked transfer coding is supported.")
        }
        guard elements.count == 1 else {
            throw HTTPParseError(.invalidTransferEncoding, "chunked is applied more than once.")
        }
        return .chunked
    }
}


/// The value, leaving an empty one behind: a move without a retain.
@inline(__always)
func takeValue<T: EmptyInitializable>(_ value: inout T) -> T {
    let taken = value
    value = T()
    return taken
}

/// Types `takeValue` can leave empty.
protocol EmptyInitializable { init() }
extension String: EmptyInitializable {}
extension HTTPHeaders: EmptyInitializable {}
