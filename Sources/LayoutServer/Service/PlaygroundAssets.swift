import HTTPServer

/// The playground page (`GET /`) and its assets (`GET /playground/<file>`): the files of
/// Sources/LayoutServer/Playground, compiled in by the EmbedPlayground plugin. Each answer
/// carries its type, a strong ETag of its bytes and `Cache-Control: no-cache`, so a browser
/// revalidates and gets `304` until the binary serves other bytes.
struct PlaygroundAssets: Sendable {
    struct Asset: Sendable {
        let body: [UInt8]
        let entityTag: String
        let okHeaders: HTTPHeaders
        let notModifiedHeaders: HTTPHeaders
    }

    /// The answers by request path.
    let assets: [String: Asset]

    static let embedded = PlaygroundAssets(files: PlaygroundFiles.files)

    /// Where the page's assets are served.
    static let assetPrefix = "/playground/"

    init(files: [String: String]) {
        var assets: [String: Asset] = [:]
        for (name, text) in files {
            let path = name == "index.html" ? "/" : Self.assetPrefix + name
            assets[path] = Self.asset(body: Array(text.utf8), contentType: Self.contentType(ofFileNamed: name))
        }
        self.assets = assets
    }

    /// Whether `path` is the page's or under its asset prefix (an unknown asset is a 404 of
    /// this route).
    static func isPlaygroundPath(_ path: String) -> Bool {
        path == "/" || path.hasPrefix(assetPrefix)
    }

    /// The answer to a GET or HEAD of `path`, or nil when there is no such file.
    func response(path: String, ifNoneMatch: String?) -> HTTPResponse? {
        guard let asset = assets[path] else { return nil }
        if let ifNoneMatch, EntityTag.matches(ifNoneMatch: ifNoneMatch, quoted: asset.entityTag) {
            return HTTPResponse(status: 304, headers: asset.notModifiedHeaders)
        }
        return HTTPResponse(status: 200, headers: asset.okHeaders, body: asset.body)
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

    private static func asset(body: [UInt8], contentType: String) -> Asset {
        // FNV-1a over the bytes: the tag changes whenever the served file does.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in body { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        let entityTag = "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
        let common: HTTPHeaders = [
            "ETag": entityTag,
            "Cache-Control": "no-cache",
        ]
        var ok = common
        ok.add(name: "Content-Type", value: contentType)
        ok.add(name: "X-Content-Type-Options", value: "nosniff")
        // The page talks to its own server only: no other origin for scripts, styles or fetches.
        ok.add(name: "Content-Security-Policy", value: "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
        return Asset(body: body, entityTag: entityTag, okHeaders: ok, notModifiedHeaders: common)
    }
}
