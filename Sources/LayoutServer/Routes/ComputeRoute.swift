import HTTPServer

/// `POST /compute`: one layout. An exact repeat of a body answered before comes from the answer
/// cache (no decode, hash or encode); anything else is computed through the frame cache, small
/// bodies inline and larger ones on the compute queue.
struct ComputeRoute: RouteHandler {
    let answers: AnswerCache
    let computer: LayoutComputer
    let queue: ComputeQueue
    /// Largest body computed where the request arrived (-1: none).
    let inlineLimit: Int

    func handle(_ request: HTTPRequest, responder: Responder) {
        guard JSONBody.accepts(request, responder) else { return }
        let answerKey = answers.isEnabled ? answers.key(for: request.body) : nil
        if let answerKey, let entry = answers.lookup(request.body, key: answerKey) {
            let served = entry as? ServedAnswer ?? ServedAnswer(body: entry.body, entityTag: entry.entityTag)
            // A client told to resend its whole tree (412 from /compute/patch) must then be able to patch it.
            if let bases = computer.bases, let key = served.baseKey { bases.storeDocument(.body(request.body), key: key) }
            if let ifNoneMatch = request.headers["If-None-Match"],
               EntityTag.matches(ifNoneMatch: ifNoneMatch, quoted: served.entityTag) {
                responder(HTTPResponse(status: 304, headers: served.notModifiedHeaders), cache: .notModified)
            } else {
                responder(HTTPResponse(status: 200, headers: served.okHeaders, body: served.body), cache: .hit)
            }
            return
        }
        let answer: @Sendable (_ objects: Int?) -> (HTTPResponse, cache: LayoutComputer.CacheOutcome?) = { [answers, computer] objects in
            let answer = computer.answer(body: request.body, ifNoneMatch: request.headers["If-None-Match"], objectCount: objects)
            if let answerKey, answer.status == 200, let tag = answer.entityTag {
                answers.insert(request.body, key: answerKey, entry: ServedAnswer(body: answer.body, entityTag: tag))
            }
            return (answer.response(), answer.cache)
        }
        // Small bodies are small trees: cheaper to lay out here, outside the budgets, than to
        // hop threads. On a concurrent connection queue this holds only this connection.
        if request.body.count <= inlineLimit {
            let (response, cache) = answer(nil)
            responder(response, cache: cache)
        } else {
            queue.respond(to: request.body, through: responder) { answer($0) }
        }
    }
}

extension LayoutComputer.Answer {
    /// The HTTP response of this answer: a JSON body (none on a 304), its ETag, and which cache
    /// answered (`X-Cache`, `X-Cache-Level`).
    func response() -> HTTPResponse {
        var headers: HTTPHeaders = status == 304 ? [:] : JSONBody.headers
        if let entityTag { headers.add(name: "ETag", value: entityTag) }
        if let cache, cache != .notModified { headers.add(name: "X-Cache", value: cache.rawValue) }
        if let level { headers.add(name: "X-Cache-Level", value: level.rawValue) }
        return HTTPResponse(status: status, headers: headers, body: body)
    }
}

/// An answer cache entry as the compute route stores it: the answer's bytes and tags, and the
/// response headers the route builds from them once, at insertion, so a hit builds none.
final class ServedAnswer: AnswerCache.Entry, @unchecked Sendable {
    // @unchecked: immutable (lets of Sendable types), like its superclass.
    /// Content-Type, ETag, `X-Cache: hit` and `X-Cache-Level: answer`: the headers of a 200
    /// from the cache.
    let okHeaders: HTTPHeaders
    /// ETag alone: the headers of a 304 from the cache.
    let notModifiedHeaders: HTTPHeaders
    /// The ETag as the key of a base for `/compute/patch`, read once here rather than per hit.
    let baseKey: BaseKey?

    override init(body: [UInt8], entityTag: String) {
        var ok = JSONBody.headers
        ok.add(name: "ETag", value: entityTag)
        ok.add(name: "X-Cache", value: LayoutComputer.CacheOutcome.hit.rawValue)
        ok.add(name: "X-Cache-Level", value: LayoutComputer.CacheLevel.answer.rawValue)
        okHeaders = ok
        notModifiedHeaders = ["ETag": entityTag]
        baseKey = BaseKey(entityTag: entityTag)
        super.init(body: body, entityTag: entityTag)
    }
}
