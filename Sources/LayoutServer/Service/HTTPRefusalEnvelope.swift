import HTTPServer

extension HTTPErrorBodyFormat {
    /// The service's error envelope for the HTTP layer's own refusals (malformed or oversized
    /// requests, timeouts), `{"error":{"status":…,"code":"…","message":"…"}}`, so clients
    /// parse one shape for every error.
    static let layoutServiceJSON = HTTPErrorBodyFormat(contentType: "application/json") { refusal in
        var escaped = ""
        for scalar in refusal.message.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20: escaped += " "
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        let code = refusalCode(refusal.status)
        return Array("{\"error\":{\"status\":\(refusal.status),\"code\":\"\(code)\",\"message\":\"\(escaped)\"}}".utf8)
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
