import Dispatch
import HTTPServer

/// What the service knows of a request besides the request itself, from routing to answer.
struct RequestContext: Sendable {
    /// The route matched (`other` when none).
    let route: RouteLabel
    /// When the service received the request (`DispatchTime` nanoseconds).
    let started: UInt64
}

/// Code wrapped around every route handler, as Hummingbird's middleware is: it sees each request
/// before its handler and each answer before the client does. Two calls rather than one taking
/// a `next` closure, so that an answer given at once (the answer cache's, benchmarked against
/// nginx) allocates no closure per request.
protocol ServiceMiddleware: Sendable {
    /// Sees `request` before its handler; an answer returned here is given instead and the
    /// handler does not run.
    func received(_ request: HTTPRequest, context: RequestContext) -> HTTPResponse?
    /// Sees every answer (a handler's, a refusal's) before it goes out, with how the caches
    /// served it and how long it took.
    func answered(_ request: HTTPRequest, context: RequestContext, response: HTTPResponse,
                  cache: LayoutComputer.CacheOutcome?, seconds: Double)
}

extension ServiceMiddleware {
    func received(_ request: HTTPRequest, context: RequestContext) -> HTTPResponse? { nil }
}

/// The way back from a handler: through the middleware, then to the connection. A value, so
/// answering at once allocates nothing; a handler that answers later takes it along.
struct Responder: Sendable {
    let request: HTTPRequest
    let context: RequestContext
    let middleware: [any ServiceMiddleware]
    let respond: @Sendable (HTTPResponse) -> Void

    /// Gives `response` (call exactly once).
    func callAsFunction(_ response: HTTPResponse, cache: LayoutComputer.CacheOutcome? = nil) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - context.started) / 1e9
        // By index: each layer is called where it stands, not copied (and retained) out first.
        for index in middleware.indices {
            middleware[index].answered(request, context: context, response: response, cache: cache, seconds: seconds)
        }
        respond(response)
    }
}
