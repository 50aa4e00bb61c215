import HTTPServer
import LayoutEngine
import LayoutRender
import LayoutWire

/// Turns a `/render` request body into a picture, through the render cache: decode, key the
/// picture by what it shows, and only on a miss lay the tree out and draw it.
struct RenderComputer: Sendable {
    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
        /// The picture's media type for 200, nil for an error (a JSON body).
        var mediaType: String?
        var cache: LayoutComputer.CacheOutcome?
    }

    let cache: RenderCache
    let limits: WireLimits
    let renderLimits: RenderLimits

    func answer(body: [UInt8], options: RenderOptions) -> Answer {
        let request: LayoutRequest
        do {
            request = try LayoutWire.decodeRequest(bytes: body, limits: limits)
        } catch {
            return Answer(status: error.status, body: error.jsonBytes())
        }
        return answer(request, options: options)
    }

    func answer(_ request: consuming LayoutRequest, options: RenderOptions) -> Answer {
        let key = RenderCache.Key(
            structure: request.tree.structuralHash(root: request.root, available: request.available,
                                                   direction: request.direction),
            ids: EntityTag.idsHash(request.ids), paint: request.paint.hashValue, options: options)
        if let picture = cache.lookup(key) {
            return Answer(status: 200, body: picture, mediaType: options.format.mediaType, cache: .hit)
        }
        request.computeLayout()
        // Infinite or NaN frames have no picture: the same 422 `/compute` answers.
        if let overflow = LayoutComputer.overflowError(FrameEncoder.preorderFrames(of: request.tree, root: request.root), request) {
            return Answer(status: overflow.status, body: overflow.jsonBytes())
        }
        let picture: [UInt8]
        do {
            let root = request.tree.frame(of: request.root)
            try LayoutRenderer.check(width: root.width, height: root.height, options: options, limits: renderLimits)
            picture = try LayoutRenderer.render(Picture(of: request, mode: options.mode), options: options, limits: renderLimits)
        } catch {
            let refusal: WireError
            switch error {
            case .tooLarge:
                refusal = WireError(status: 413, code: "picture-too-large", message: error.description, pointer: "")
            case .rasterizer, .layoutOverflow:
                refusal = WireError(status: 500, code: "render-failed", message: error.description)
            }
            return Answer(status: refusal.status, body: refusal.jsonBytes())
        }
        cache.insert(picture, for: key)
        return Answer(status: 200, body: picture, mediaType: options.format.mediaType, cache: .miss)
    }
}

extension RenderComputer.Answer {
    init(status: Int, body: [UInt8]) {
        self.init(status: status, body: body, mediaType: nil, cache: nil)
    }
}

extension RenderComputer {
    /// Answers `POST /render`: options from the query and `Accept` (a refusal at once), then
    /// the picture on the compute queue through `run` (the pending-work budget, as `/compute`),
    /// giving the budget back through `release` before answering.
    func handle(_ request: HTTPRequest, run: (_ bytes: Int, _ job: @escaping @Sendable () -> Void) -> Void,
                release: @escaping @Sendable (Int) -> Void,
                finish: @escaping @Sendable (HTTPResponse, LayoutComputer.CacheOutcome?) -> Void) {
        let options: RenderOptions
        do {
            options = try RenderQuery.options(query: request.query, accept: request.headers["Accept"])
        } catch {
            var refusal = WireError(status: error.status, code: error.code, message: error.message)
            refusal.parameter = error.parameter
            finish(ServiceError.response(refusal), nil)
            return
        }
        // Always on the compute queue: even a small tree's PNG takes milliseconds.
        let bytes = request.body.count
        run(bytes) { [self] in
            let answer = answer(body: request.body, options: options)
            release(bytes)
            if let mediaType = answer.mediaType {
                var headers: HTTPHeaders = ["Content-Type": mediaType]
                if let cache = answer.cache { headers.add(name: "X-Cache", value: cache.rawValue) }
                finish(HTTPResponse(status: answer.status, headers: headers, body: answer.body), answer.cache)
            } else {
                finish(HTTPResponse(status: answer.status, headers: LayoutService.jsonHeaders, body: answer.body), nil)
            }
        }
    }
}
