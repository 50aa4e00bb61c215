import Foundation
import HTTPServer
import LayoutServer
import Logging
import LayoutWire

/// A `ServiceHost` on 127.0.0.1 and an ephemeral port, for the length of one test.
struct LiveServer {
    let host: ServiceHost
    let client: BlockingHTTPClient

    /// Starts a server with `configure` applied to a quiet default configuration, runs `body`,
    /// and shuts the server down whatever happens.
    static func with<R>(_ configure: (inout ServiceConfiguration) -> Void = { _ in },
                        _ body: (LiveServer) throws -> R) throws -> R {
        var configuration = ServiceConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.logLevel = .warning
        configure(&configuration)
        let host = ServiceHost(configuration: configuration,
                               logger: Logger(label: "test") { label in
                                   LogfmtLogHandler(label: label, level: .warning, sink: { _ in })
                               })
        try host.start()
        defer { host.shutdown(gracefully: false, timeout: .seconds(2)) }
        let server = LiveServer(host: host, client: BlockingHTTPClient(host: "127.0.0.1", port: host.port, timeoutSeconds: 10))
        return try body(server)
    }

    func post(_ path: String, json: String, headers: [(String, String)] = [("Content-Type", "application/json")])
        throws -> BlockingHTTPClient.Response {
        try client.send("POST", path, headers: headers, body: Array(json.utf8))
    }

    func get(_ path: String, method: String = "GET") throws -> BlockingHTTPClient.Response {
        try client.send(method, path)
    }
}

extension BlockingHTTPClient.Response {
    /// The body parsed as JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body)) }

    /// `error` of an error body.
    var error: [String: Any]? { (json as? [String: Any])?["error"] as? [String: Any] }
}

/// A frame node of an answer: `{"id","left","top","width","height","children"}`.
struct AnswerNode: Equatable {
    var id: String?
    var left, top, width, height: Double
    var children: [AnswerNode]

    init(id: String?, _ left: Double, _ top: Double, _ width: Double, _ height: Double, _ children: [AnswerNode] = []) {
        self.id = id
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.children = children
    }

    init?(_ object: Any?) {
        guard let object = object as? [String: Any],
              let left = object["left"] as? Double, let top = object["top"] as? Double,
              let width = object["width"] as? Double, let height = object["height"] as? Double else { return nil }
        self.id = object["id"] as? String
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        let children = (object["children"] as? [Any]) ?? []
        var decoded: [AnswerNode] = []
        for child in children {
            guard let node = AnswerNode(child) else { return nil }
            decoded.append(node)
        }
        self.children = decoded
    }

    /// Every id in pre-order.
    var ids: [String?] { [id] + children.flatMap(\.ids) }

    /// The answer's root node.
    static func root(of response: BlockingHTTPClient.Response) -> AnswerNode? {
        AnswerNode((response.json as? [String: Any])?["root"])
    }
}
