import HTTPServer

/// A route whose answer never changes: `/healthz`, `/openapi.yaml`.
struct StaticRoute: RouteHandler {
    let response: HTTPResponse

    init(contentType: String, body: [UInt8]) {
        response = HTTPResponse(status: 200, headers: ["Content-Type": contentType], body: body)
    }

    func handle(_ request: HTTPRequest, responder: Responder) {
        responder(response)
    }

    /// `GET /healthz`: the process is up and answering.
    static let health = StaticRoute(contentType: JSONBody.contentType, body: Array(#"{"status":"ok"}"#.utf8))
    /// `GET /openapi.yaml`: the service's description, compiled in.
    static let openAPI = StaticRoute(contentType: "application/yaml; charset=utf-8",
                                     body: Array(OpenAPIDocument.text.utf8))
}
