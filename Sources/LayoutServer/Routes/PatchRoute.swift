import HTTPServer

/// `POST /compute/patch`: an earlier `/compute` request with a JSON Patch applied (see
/// `PatchComputer`). A small patch applied in place to a small kept tree is answered where the
/// request arrived: it costs less than the two thread hops to the compute queue and back.
/// Anything larger, and every rebuild, is laid out on the compute queue.
struct PatchRoute: RouteHandler {
    let computer: PatchComputer
    let queue: ComputeQueue
    /// Largest body patched where it arrived (`inlineComputeMaxBytes`).
    let inlineMaxBytes: Int
    /// Most nodes of a kept tree patched where the request arrived (0: none).
    let inlineMaxNodes: Int

    func handle(_ request: HTTPRequest, responder: Responder) {
        guard JSONBody.accepts(request, responder) else { return }
        let ifNoneMatch = request.headers["If-None-Match"]
        let outcome = request.body.count <= inlineMaxBytes
            ? computer.start(body: request.body, ifNoneMatch: ifNoneMatch, inPlaceUpToNodes: inlineMaxNodes)
            : .queue { [computer] in computer.answer(body: request.body, ifNoneMatch: ifNoneMatch) }
        switch outcome {
        case .answered(let answer, let mode):
            responder(Self.response(answer, mode), cache: answer.cache)
        case .queue(let rest):
            queue.respond(to: request.body, through: responder) { _ in
                let (answer, mode) = rest()
                return (Self.response(answer, mode), answer.cache)
            }
        }
    }

    /// The answer's response, with how the patch was applied in `X-Patch`.
    private static func response(_ answer: LayoutComputer.Answer, _ mode: PatchComputer.Mode?) -> HTTPResponse {
        var response = answer.response()
        if let mode { response.headers.add(name: "X-Patch", value: mode.rawValue) }
        return response
    }
}
