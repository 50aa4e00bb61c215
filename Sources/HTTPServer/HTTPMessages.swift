/// An HTTP protocol version (only 1.0 and 1.1 are accepted by the server).
public struct HTTPVersion: Sendable, Equatable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public init(major: Int, minor: Int) { self.major = major; self.minor = minor }
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public var description: String { "HTTP/\(major).\(minor)" }
}

/// A complete request as handed to an `HTTPHandler`.
public struct HTTPRequest: Sendable {
    /// The method token, case-sensitive as sent ("GET", "POST", ...).
    public var method: String
    /// The request target as sent (origin-form, absolute-form or "*").
    public var target: String
    /// The path part of the target, still percent-encoded; for absolute-form targets
    /// the path after the authority ("/" when empty).
    public var path: String
    /// The query after "?", without the "?"; nil when there is none.
    public var query: String?
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    /// The body, already de-chunked and (for `Content-Encoding: gzip`) inflated.
    public var body: [UInt8]
    /// The peer address ("127.0.0.1", "::1"), when known.
    public var remoteAddress: String?

    public init(method: String, target: String, path: String, query: String? = nil,
                version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:], body: [UInt8] = [],
                remoteAddress: String? = nil) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }
}

/// A response produced by a handler. The server owns the framing: it sets Content-Length,
/// Date, Connection (and Content-Encoding/Vary when it compresses), and drops any
/// Content-Length, Transfer-Encoding or Connection fields given here. A response that already
/// carries Content-Encoding is sent as is (so a handler may cache pre-compressed bodies).
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Answers requests. `respond` must be called exactly once, from any thread, now or later.
/// Responses to pipelined requests are written in request order. HEAD requests reach the
/// handler as "HEAD": answer them like GET, the server drops the body.
///
/// Where `handle` runs depends on `HTTPServerConfiguration.ioBackend`:
/// - `.eventLoop` (default on Linux): on the thread of the event loop that owns the
///   connection, which serves many other connections too. A handler must NOT block or do long
///   work there: answer at once (`respond` before returning is cheapest), or send the work to
///   another queue and call `respond` from it (the answer hops back to the loop).
/// - `.dispatchSources`: on the connection's serial queue (a thread-pool thread), so a handler
///   that blocks holds only its own connection.
public protocol HTTPHandler: Sendable {
    func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void)
}

/// An `HTTPHandler` made from a closure.
public struct HTTPClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void
    public init(_ body: @escaping @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void) {
        self.body = body
    }
    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        body(request, respond)
    }
}
