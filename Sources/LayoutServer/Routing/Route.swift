import HTTPServer

/// One entry of the route table: a path, the methods it answers, and its handler.
struct Route: Sendable {
    let label: RouteLabel
    let methods: RouteMethods
    let handler: any RouteHandler

    init(_ label: RouteLabel, _ methods: RouteMethods, _ handler: any RouteHandler) {
        self.label = label
        self.methods = methods
        self.handler = handler
    }
}

/// Answers the requests of one route.
protocol RouteHandler: Sendable {
    /// Answers `request` through `responder` exactly once, now or later, from any thread. Runs
    /// where `HTTPHandler.handle` runs: answer at once or hand long work to another queue.
    func handle(_ request: HTTPRequest, responder: Responder)
}

/// The methods a route answers, each spelled here once.
enum RouteMethods: Sendable {
    /// POST only: a body to compute.
    case post
    /// GET, and HEAD answered like it (the server drops the body).
    case get

    /// For `Allow` and the 405 message.
    var names: [String] {
        switch self {
        case .post: return ["POST"]
        case .get: return ["GET", "HEAD"]
        }
    }

    /// `names.contains(method)` without building the array on every request.
    func accepts(_ method: String) -> Bool {
        switch self {
        case .post: return method == "POST"
        case .get: return method == "GET" || method == "HEAD"
        }
    }
}

/// The routes, looked up by exact path.
struct RouteTable: Sendable {
    private let routes: [Route]

    init(_ routes: [Route]) {
        precondition(Set(routes.map(\.label)).count == routes.count, "a path is routed twice")
        self.routes = routes
    }

    /// The route for `path`, or nil for a path no entry answers.
    func route(for path: String) -> Route? {
        guard let label = RouteLabel(path: path) else { return nil }
        for route in routes where route.label == label { return route }
        return nil
    }
}
