import HTTPServer

/// `POST /compute/patch`: an earlier `/compute` request with a JSON Patch applied, laid out on
/// the compute queue (see `PatchComputer`).
struct PatchRoute: RouteHandler {
    let computer: PatchComputer
    let queue: ComputeQueue

    func handle(_ request: HTTPRequest, responder: Responder) {
        guard JSONBody.accepts(request, responder) else { return }
        let bytes = request.body.count
        queue.run(request.body, orRefuse: responder) { [computer, queue] in
            let (answer, mode) = computer.answer(body: request.body, ifNoneMatch: request.headers["If-None-Match"])
            queue.admission.release(bytes: bytes)
            var headers: HTTPHeaders = answer.status == 304 ? [:] : JSONBody.headers
            if let tag = answer.entityTag { headers.add(name: "ETag", value: tag) }
            if let mode { headers.add(name: "X-Patch", value: mode.rawValue) }
            responder(HTTPResponse(status: answer.status, headers: headers, body: answer.body), cache: answer.cache)
        }
    }
}
