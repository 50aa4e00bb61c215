import HTTPServer
import Logging

/// A running layout service: the `LayoutService` handler behind an `HTTPServer` configured
/// from a `ServiceConfiguration`. What `layoutd serve` and the tests start.
public final class ServiceHost: Sendable {
    public let service: LayoutService
    public let server: HTTPServer

    public init(configuration: ServiceConfiguration, logger: Logger? = nil) {
        service = LayoutService(configuration: configuration, logger: logger)
        var http = configuration.http
        http.errorBody = .layoutServiceJSON
        server = HTTPServer(configuration: http, handler: service)
        let server = self.server
        service.setConnectionGauge { server.openConnections }
        service.setBufferGauge { server.bufferStatistics }
    }

    /// Binds and starts accepting; throws when the address cannot be bound.
    public func start() throws {
        try server.start()
    }

    /// The port actually bound (useful with port 0).
    public var port: Int { server.boundPort }

    /// Stops accepting and closes connections: gracefully lets requests in flight finish, for
    /// at most `timeout`.
    public func shutdown(gracefully: Bool = true, timeout: Duration = .seconds(10)) {
        server.shutdown(gracefully: gracefully, timeout: timeout)
    }

    /// Blocks until the server has stopped.
    public func waitUntilStopped() {
        server.waitUntilStopped()
    }
}
