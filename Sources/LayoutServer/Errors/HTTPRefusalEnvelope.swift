import HTTPServer

extension HTTPErrorBodyFormat {
    /// The HTTP layer's own refusals (malformed or oversized requests, timeouts) in the
    /// service's error body, written by `ServiceError` like every other error, so clients parse
    /// one shape for every error.
    static let layoutServiceJSON = HTTPErrorBodyFormat(contentType: JSONBody.contentType) { refusal in
        ServiceError(refusal: refusal).jsonBytes
    }
}

extension ServiceError {
    /// A refusal of the HTTP layer as the service answers it: its status, the stable code of
    /// that status, and its message with control characters blanked (as these bodies have
    /// always been sent; the messages the HTTP layer writes hold none today).
    init(refusal: HTTPRefusal) {
        var message = ""
        for scalar in refusal.message.unicodeScalars {
            message.unicodeScalars.append(scalar.value < 0x20 ? " " : scalar)
        }
        self.init(status: refusal.status, code: Self.refusalCode(refusal.status), message: message)
    }

    /// The stable error code of an HTTP-layer refusal, kebab-case like the service's own codes.
    static func refusalCode(_ status: Int) -> String {
        switch status {
        case 400: return "bad-request"
        case 408: return "request-timeout"
        case 413: return "payload-too-large"
        case 414: return "uri-too-long"
        case 415: return "unsupported-media-type"
        case 417: return "expectation-failed"
        case 431: return "request-header-fields-too-large"
        case 501: return "not-implemented"
        case 503: return "service-unavailable"
        case 505: return "http-version-not-supported"
        default: return "internal-error"
        }
    }
}
