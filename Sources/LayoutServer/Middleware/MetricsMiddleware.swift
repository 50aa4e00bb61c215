import HTTPServer

/// Counts every answer by route and status, with its latency, for `/metrics`.
struct MetricsMiddleware: ServiceMiddleware {
    let metrics: ServiceMetrics

    func answered(_ request: HTTPRequest, context: RequestContext, response: HTTPResponse,
                  cache: LayoutComputer.CacheOutcome?, seconds: Double) {
        metrics.record(route: context.route, status: response.status, seconds: seconds)
    }
}
