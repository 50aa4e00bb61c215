import HTTPServer

/// `GET /`, the playground page, and `GET /playground/<file>`, its scripts and style: the files
/// of Sources/LayoutServer/Playground, compiled in by the EmbedPlayground plugin. Each answer
/// carries its type, a strong ETag of its bytes and `Cache-Control: no-cache`, so a browser
/// revalidates and gets `304` until the binary serves other bytes.
struct PlaygroundRoute: RouteHandler {
    struct File: Sendable {
        let body: [UInt8]
        let entityTag: String
        let okHeaders: HTTPHeaders
        let notModifiedHeaders: HTTPHeaders
    }

    /// The answers by request path.
    let files: [String: File]

    /// The page as this binary was built with it.
    static let embedded = PlaygroundRoute(files: PlaygroundFiles.files)

    /// `index.html` is served at `/`, every other file under `/playground/`.
    init(files: [String: String]) {
        var served: [String: File] = [:]
        for (name, text) in files {
            let path = name == "index.html" ? RouteLabel.playground.rawValue : RouteLabel.playgroundFiles.rawValue + name
            served[path] = Self.file(body: Array(text.utf8), contentType: Self.contentType(ofFileNamed: name))
        }
        self.files = served
    }

    func handle(_ request: HTTPRequest, responder: Responder) {
        guard let file = files[request.path] else {
            return responder(ServiceError.notFound(path: request.path).response())
        }
        if let ifNoneMatch = request.headers["If-None-Match"],
           EntityTag.matches(ifNoneMatch: ifNoneMatch, quoted: file.entityTag) {
            return responder(HTTPResponse(status: 304, headers: file.notModifiedHeaders))
        }
        responder(HTTPResponse(status: 200, headers: file.okHeaders, body: file.body))
    }

    static func contentType(ofFileNamed name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "json": return "application/json"
        default: return "text/plain; charset=utf-8"
        }
    }

    private static func file(body: [UInt8], contentType: String) -> File {
        // FNV-1a over the bytes: the tag changes whenever the served file does.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in body { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        let entityTag = "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
        let common: HTTPHeaders = ["ETag": entityTag, "Cache-Control": "no-cache"]
        var ok = common
        ok.add(name: "Content-Type", value: contentType)
        ok.add(name: "X-Content-Type-Options", value: "nosniff")
        // The page talks to its own server only: no other origin for scripts, styles or fetches.
        ok.add(name: "Content-Security-Policy",
               value: "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
        return File(body: body, entityTag: entityTag, okHeaders: ok, notModifiedHeaders: common)
    }
}
