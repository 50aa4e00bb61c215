import HTTPServer
import SyncSupport

/// `GET /readyz`: 200 while this replica takes traffic, 503 once it drains (after SIGTERM), so
/// a load balancer or Kubernetes stops sending it requests. `/healthz` says the process is
/// alive; neither depends on Redis, whose failures the service absorbs.
struct ReadinessRoute: RouteHandler {
    let draining: Locked<Bool>

    private static let ready = HTTPResponse(status: 200, headers: ["Content-Type": JSONBody.contentType],
                                            body: Array(#"{"status":"ready"}"#.utf8))
    private static let drainingResponse = HTTPResponse(status: 503, headers: ["Content-Type": JSONBody.contentType],
                                                       body: Array(#"{"status":"draining"}"#.utf8))

    func handle(_ request: HTTPRequest, responder: Responder) {
        responder(draining.withLock { $0 } ? Self.drainingResponse : Self.ready)
    }
}
