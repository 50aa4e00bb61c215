import HTTPServer
import LayoutText

/// A route whose answer never changes: `/healthz`, `/openapi.yaml`, `/fonts`.
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
    /// `GET /fonts`: the families and faces text leaves can use (fixed at start-up).
    static func fonts(_ fonts: FontLibrary) -> StaticRoute {
        StaticRoute(contentType: JSONBody.contentType, body: FontCatalog.json(fonts))
    }
}
