import HTTPServer

/// `POST /compute/batch`: an array of layouts, on the compute queue.
struct BatchRoute: RouteHandler {
    let batch: BatchComputer
    let queue: ComputeQueue

    func handle(_ request: HTTPRequest, responder: Responder) {
        guard JSONBody.accepts(request, responder) else { return }
        let bytes = request.body.count
        queue.run(request.body, orRefuse: responder) { [batch, queue] in
            let (status, body) = batch.answer(body: request.body)
            queue.admission.release(bytes: bytes)
            responder(HTTPResponse(status: status, headers: JSONBody.headers, body: body))
        }
    }
}
