/// An answer the HTTP layer gives by itself, before any handler sees the request: a malformed
/// or oversized request, a body that did not arrive in time. The connection closes after it.
public struct HTTPRefusal: Sendable, Equatable {
    /// 400, 408, 413, 414, 415, 417, 431, 501 or 505.
    public var status: Int
    /// What was wrong, in a sentence ("The request head did not arrive in time.").
    public var message: String

    public init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    /// The status's reason phrase, as in the status line ("Bad Request").
    public var reason: String { ResponseSerializer.reasonPhrase(status) }
}

/// How the HTTP layer writes the body of its refusals. The HTTP layer knows nothing of the
/// service it serves; the service supplies its own error format here (see
/// `HTTPServerConfiguration.errorBody`).
public struct HTTPErrorBodyFormat: Sendable {
    /// The `Content-Type` of the body.
    public var contentType: String
    /// The body's bytes for one refusal.
    public var render: @Sendable (HTTPRefusal) -> [UInt8]

    public init(contentType: String, render: @escaping @Sendable (HTTPRefusal) -> [UInt8]) {
        self.contentType = contentType
        self.render = render
    }

    /// The default: one line of text, "400 Bad Request: <message>".
    public static let plainText = HTTPErrorBodyFormat(contentType: "text/plain; charset=utf-8") { refusal in
        Array("\(refusal.status) \(refusal.reason): \(refusal.message)\n".utf8)
    }
}
