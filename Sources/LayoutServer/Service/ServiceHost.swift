import Dispatch
import HTTPServer
import Logging
import SyncSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running layout service: the `LayoutService` handler behind an `HTTPServer` configured
/// from a `ServiceConfiguration`. What `layoutd serve` and the tests start.
public final class ServiceHost: Sendable {
    public let service: LayoutService
    public let server: HTTPServer
    /// Kept alive while the host is: a released signal source stops delivering.
    private let signalSources = Locked<[any DispatchSourceSignal]>([])

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

    /// Makes SIGTERM and SIGINT drain the service: `/readyz` answers 503 at once, requests are
    /// served for `drainDelay` more (a load balancer stops sending new ones), then the server
    /// stops accepting and lets requests in flight finish, for at most `http.shutdownTimeout`.
    public func stopOnSignals() {
        let service = service, server = server
        let (seconds, attoseconds) = service.configuration.drainDelay.components
        let delay = DispatchTimeInterval.nanoseconds(Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        let timeout = service.configuration.http.shutdownTimeout
        let sources = [SIGTERM, SIGINT].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                service.startDraining()
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                    server.shutdown(gracefully: true, timeout: timeout)
                }
            }
            source.activate()
            return source
        }
        signalSources.withLock { $0 = sources }
    }

    /// Blocks until the server has stopped.
    public func waitUntilStopped() {
        server.waitUntilStopped()
    }
}
