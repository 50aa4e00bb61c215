import HTTPServer

/// `POST /compute/patch`: an earlier `/compute` request with a JSON Patch applied, laid out on
/// the compute queue (see `PatchComputer`).
struct PatchRoute: RouteHandler {
    let computer: PatchComputer
    let queue: ComputeQueue

    func handle(_ request: HTTPRequest, responder: Responder) {
        guard JSONBody.accepts(request, responder) else { return }
        queue.respond(to: request.body, through: responder) { [computer] _ in
            let (answer, mode) = computer.answer(body: request.body, ifNoneMatch: request.headers["If-None-Match"])
            var response = answer.response()
            if let mode { response.headers.add(name: "X-Patch", value: mode.rawValue) }
            return (response, answer.cache)
        }
    }
}
