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
    /// Gives malloc's free pages back every `mallocTrimInterval` while the server runs.
    private let trimTimer = Locked<(any DispatchSourceTimer)?>(nil)

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
        let (seconds, attoseconds) = service.configuration.mallocTrimInterval.components
        let interval = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        guard interval > 0 else { return }
        // Made inside the lock: the timer (not Sendable) goes straight into the shared state.
        trimTimer.withLock { stored in
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + .nanoseconds(interval), repeating: .nanoseconds(interval))
            timer.setEventHandler { MallocTuning.releaseFreeMemory() }
            timer.activate()
            stored?.cancel()
            stored = timer
        }
    }

    /// The port actually bound (useful with port 0).
    public var port: Int { server.boundPort }

    /// Stops accepting and closes connections: gracefully lets requests in flight finish, for
    /// at most `timeout`.
    public func shutdown(gracefully: Bool = true, timeout: Duration = .seconds(10)) {
        trimTimer.withLock { stored in
            stored?.cancel()
            stored = nil
        }
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
        // Made inside the lock: the sources (not Sendable) go straight into the shared state.
        signalSources.withLock { stored in
            stored = [SIGTERM, SIGINT].map { signalNumber in
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
        }
    }

    /// Blocks until the server has stopped.
    public func waitUntilStopped() {
        server.waitUntilStopped()
    }
}
