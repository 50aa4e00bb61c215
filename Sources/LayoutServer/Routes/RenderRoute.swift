import HTTPServer
import LayoutRender

/// `POST /render`: a picture of one layout. The options come from the query and `Accept`
/// (refused at once when bad); the picture is drawn on the compute queue, behind the same
/// pending-work budget as `/compute` (never inline: even a small tree's PNG takes milliseconds).
struct RenderRoute: RouteHandler {
    let computer: RenderComputer
    let queue: ComputeQueue

    func handle(_ request: HTTPRequest, responder: Responder) {
        guard JSONBody.accepts(request, responder) else { return }
        let options: RenderOptions
        do {
            options = try RenderQuery.options(query: request.query, accept: request.headers["Accept"])
        } catch {
            responder(ServiceError(status: error.status, code: error.code, message: error.message,
                                   parameter: error.parameter).response())
            return
        }
        queue.respond(to: request.body, through: responder) { [computer] _ in
            let answer = computer.answer(body: request.body, options: options)
            guard let mediaType = answer.mediaType else {
                return (HTTPResponse(status: answer.status, headers: JSONBody.headers, body: answer.body), nil)
            }
            var headers: HTTPHeaders = ["Content-Type": mediaType]
            if let cache = answer.cache { headers.add(name: "X-Cache", value: cache.rawValue) }
            return (HTTPResponse(status: answer.status, headers: headers, body: answer.body), answer.cache)
        }
    }
}
