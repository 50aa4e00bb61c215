import HTTPServer

/// `POST /compute/batch`: an array of layouts, on the compute queue.
struct BatchRoute: RouteHandler {
    let batch: BatchComputer
    let queue: ComputeQueue

    func handle(_ request: HTTPRequest, responder: Responder) {
        guard JSONBody.accepts(request, responder) else { return }
        queue.respond(to: request.body, through: responder) { [batch] _ in
            let (status, body) = batch.answer(body: request.body)
            return (HTTPResponse(status: status, headers: JSONBody.headers, body: body), nil)
        }
    }
}
