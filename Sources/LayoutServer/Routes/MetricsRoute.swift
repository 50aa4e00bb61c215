import HTTPServer

/// `GET /metrics`: the Prometheus text of the service's counters and gauges.
struct MetricsRoute: RouteHandler {
    /// Reads everything the page shows, now.
    let inputs: @Sendable () -> PrometheusRenderer.Inputs

    func handle(_ request: HTTPRequest, responder: Responder) {
        let text = PrometheusRenderer.render(inputs())
        responder(HTTPResponse(status: 200, headers: ["Content-Type": PrometheusRenderer.contentType],
                               body: Array(text.utf8)))
    }
}
