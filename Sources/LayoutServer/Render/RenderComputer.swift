import LayoutEngine
import LayoutRender
import LayoutText
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
    /// Measures and shapes text leaves (the service's fonts).
    var textLayouter: TextLayouter = .bundled
    /// Keys the structural hash in the picture cache's key, as `LayoutComputer.hashKey` does.
    var hashKey: StructuralHashKey = .processRandom

    func answer(body: [UInt8], options: RenderOptions) -> Answer {
        let request: LayoutRequest
        do {
            request = try LayoutWire.decodeRequest(bytes: body, limits: limits)
        } catch {
            return Answer(ServiceError(error))
        }
        return answer(request, options: options)
    }

    func answer(_ request: consuming LayoutRequest, options: RenderOptions) -> Answer {
        // Text leaves measured as `/compute` measures them (their tags enter the hash).
        let text = request.textLeaves.isEmpty ? nil : RequestText(installingOn: &request, layouter: textLayouter, key: hashKey)
        let key = RenderCache.Key(
            structure: request.tree.structuralHash(root: request.root, available: request.available,
                                                   direction: request.direction, key: hashKey),
            ids: EntityTag.idsHash(request.ids), paint: request.paint.hashValue, options: options)
        if let picture = cache.lookup(key) {
            return Answer(status: 200, body: picture, mediaType: options.format.mediaType, cache: .hit)
        }
        request.computeLayout()
        // Infinite or NaN frames have no picture: the same 422 `/compute` answers.
        if let overflow = LayoutComputer.overflowError(request.tree.preorderFrames(root: request.root), request) {
            return Answer(overflow)
        }
        let picture: [UInt8]
        do {
            let root = request.tree.frame(of: request.root)
            try LayoutRenderer.check(width: root.width, height: root.height, options: options, limits: renderLimits)
            let lines = text?.glyphLines(of: request.tree) ?? [:]
            picture = try LayoutRenderer.render(Picture(of: request, mode: options.mode, text: lines), options: options,
                                                limits: renderLimits)
        } catch {
            switch error {
            case .tooLarge:
                return Answer(ServiceError(status: 413, code: "picture-too-large", message: error.description, pointer: ""))
            case .rasterizer, .layoutOverflow:
                return Answer(ServiceError(status: 500, code: "render-failed", message: error.description))
            }
        }
        cache.insert(picture, for: key)
        return Answer(status: 200, body: picture, mediaType: options.format.mediaType, cache: .miss)
    }
}

extension RenderComputer.Answer {
    /// An error answer: its status and JSON body.
    init(_ error: ServiceError) {
        self.init(status: error.status, body: error.jsonBytes, mediaType: nil, cache: nil)
    }
}
