import HTTPServer
@testable import LayoutServer
import Testing

/// The HTTP layer's own refusals (malformed or oversized requests, timeouts) reach clients of
/// the service in the service's error envelope, byte for byte as the service has always sent it.
@Suite struct RefusalEnvelopeTests {
    @Test func theEnvelopeEscapesQuotesAndBackslashesAndBlanksControlCharacters() {
        let format = HTTPErrorBodyFormat.layoutServiceJSON
        #expect(format.contentType == "application/json")
        let body = format.render(HTTPRefusal(status: 400, message: "a \"quoted\" \\ name\twith\ra tab"))
        #expect(String(decoding: body, as: UTF8.self)
            == #"{"error":{"status":400,"code":"bad-request","message":"a \"quoted\" \\ name with a tab"}}"#)
    }

    @Test func everyRefusalStatusHasItsStableCode() {
        let expected = [
            400: "bad-request", 408: "request-timeout", 413: "payload-too-large", 414: "uri-too-long",
            415: "unsupported-media-type", 417: "expectation-failed", 431: "request-header-fields-too-large",
            501: "not-implemented", 503: "service-unavailable", 505: "http-version-not-supported", 500: "internal-error",
        ]
        for (status, code) in expected {
            #expect(ServiceError.refusalCode(status) == code, "\(status)")
        }
    }

    @Test func aRunningServiceAnswersAnOversizedBodyInTheEnvelope() throws {
        try LiveServer.with({ $0.http.maxBodyBytes = 100 }) { server in
            let response = try server.post("/compute", json: String(repeating: " ", count: 150) + "{}")
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.text
                == #"{"error":{"status":413,"code":"payload-too-large","message":"The body is larger than 100 bytes."}}"#)
        }
    }
}
