import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SyncSupport

/// An HTTP/1.1 server on non-blocking POSIX sockets, driven by edge-triggered epoll event
/// loops (default on Linux) or by Dispatch sources (`HTTPServerConfiguration.ioBackend`).
///
/// ```swift
/// let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 8080), handler: MyHandler())
/// try server.start()
/// server.stopOnSignals()
/// server.waitUntilStopped()
/// ```
public final class HTTPServer: @unchecked Sendable {
    private enum State { case idle, running, stopping, stopped }

    private struct Shared {
        var state = State.idle
        var connections: [ObjectIdentifier: Connection] = [:]
        var boundPort = 0
        var listener: Listener?
        var connectionLimit = 0
        var tls: TLSContext?
        #if os(Linux)
        var loops: EventLoopGroup?
        #endif
    }

    public let configuration: HTTPServerConfiguration
    private let handler: any HTTPHandler
    private let shared = Locked(Shared())
    private let stopped = DispatchGroup()
    /// What connection queues target with the Dispatch backend.
    private let targetQueue = DispatchQueue(label: "HTTPServer.connections", attributes: .concurrent)
    private var signalSources: [DispatchSourceSignal] = []
    /// Bytes buffered across every connection, against the configured totals.
    let budget: BufferBudget

    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        budget = BufferBudget(outputBound: configuration.maxBufferedOutputBytesTotal,
                              inputBound: configuration.maxBufferedInputBytesTotal)
    }

    /// Bytes buffered across connections now, and what the bounds on them did.
    public var bufferStatistics: BufferStatistics { budget.statistics }

    /// Whether connections run on event loops (the configured backend, where available).
    var usesEventLoops: Bool {
        #if os(Linux)
        return configuration.ioBackend == .eventLoop
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// The loops serving connections (nil with the Dispatch backend, or when not running).
    var eventLoopGroup: EventLoopGroup? { shared.withLock { $0.loops } }
    #endif

    /// Event loops serving connections (0 with the Dispatch backend or before `start()`).
    public var eventLoopCount: Int {
        #if os(Linux)
        return shared.withLock { $0.loops?.loops.count ?? 0 }
        #else
        return 0
        #endif
    }

    /// The port the server listens on (useful with port 0); 0 before `start()`.
    public var boundPort: Int { shared.withLock { $0.boundPort } }

    /// Connections currently open.
    public var openConnections: Int { shared.withLock { $0.connections.count } }

    /// Binds and listens, then returns; connections are served on event loops or Dispatch
    /// queues.
    public func start() throws {
        let canStart = shared.withLock { shared -> Bool in
            guard shared.state == .idle else { return false }
            shared.state = .running
            return true
        }
        guard canStart else { throw SocketError(operation: "start (already started)", code: EINVAL) }
        let fd: Int32
        do {
            if let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
                let context = try TLSContext(certificatePath: certificate, keyPath: key)
                shared.withLock { $0.tls = context }
            }
            fd = try Socket.listen(host: configuration.host, port: configuration.port, backlog: configuration.backlog)
            #if os(Linux)
            if usesEventLoops {
                do {
                    let loops = try EventLoopGroup(count: configuration.eventLoopCount)
                    shared.withLock { $0.loops = loops }
                } catch {
                    close(fd)
                    throw error
                }
            }
            #endif
        } catch {
            shared.withLock { $0.state = .stopped }
            throw error
        }
        let port = Socket.localPort(fd)
        shared.withLock { $0.boundPort = port }
        stopped.enter()
        let maxConnections = Self.connectionLimit(configured: configuration.maxConnections)
        shared.withLock { $0.connectionLimit = maxConnections }
        let listener = Listener(
            fd: fd,
            hasCapacity: { [weak self] in
                guard let self else { return false }
                return self.shared.withLock { $0.connections.count < maxConnections }
            },
            adopt: { [weak self] client, address in
                guard let self else { close(client); return }
                self.adopt(client, address: address)
            })
        shared.withLock { $0.listener = listener }
        listener.start()
    }

    /// The most connections served at once: `maxConnections`, lowered so that descriptors
    /// stay in reserve below RLIMIT_NOFILE. libdispatch on Linux traps when its thread-pool
    /// monitor cannot open /proc files, so the server must never exhaust descriptors itself.
    public var effectiveMaxConnections: Int { shared.withLock { $0.connectionLimit } }

    static func connectionLimit(configured: Int) -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return configured
        }
        let soft = Int(clamping: limit.rlim_cur)
        let reserve = max(8, min(64, soft / 8))
        return max(1, min(configured, soft - openDescriptorCount() - reserve))
    }

    private static func openDescriptorCount() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 16 }
        defer { closedir(directory) }
        var count = 0
        while readdir(directory) != nil { count += 1 }
        return max(0, count - 3) // ".", ".." and the directory's own descriptor
    }

    private func adopt(_ fd: Int32, address: String?) {
        let io: any ConnectionIO
        let tls: TLSContext?
        #if os(Linux)
        let loops: EventLoopGroup?
        (tls, loops) = shared.withLock { ($0.tls, $0.loops) }
        if let loops {
            io = EventLoopConnectionIO(fd: fd, loop: loops.nextLoop())
        } else {
            io = DispatchConnectionIO(fd: fd, targetQueue: targetQueue)
        }
        #else
        tls = shared.withLock { $0.tls }
        io = DispatchConnectionIO(fd: fd, targetQueue: targetQueue)
        #endif
        let connection = Connection(
            fd: fd, remoteAddress: address, configuration: configuration, handler: handler,
            tls: tls, io: io, budget: budget,
            onClose: { [weak self] connection in self?.connectionClosed(connection) })
        let accepted = shared.withLock { shared -> Bool in
            guard shared.state == .running else { return false }
            shared.connections[ObjectIdentifier(connection)] = connection
            return true
        }
        guard accepted else { close(fd); return }
        connection.start()
    }

    private func connectionClosed(_ connection: Connection) {
        let (finished, listener) = shared.withLock { shared -> (Bool, Listener?) in
            shared.connections.removeValue(forKey: ObjectIdentifier(connection))
            return (finishIfDrained(&shared), shared.listener)
        }
        if finished { finish() }
        listener?.capacityFreed()
    }

    /// Every connection is closed: the loops' threads end and `waitUntilStopped` returns.
    private func finish() {
        #if os(Linux)
        shared.withLock { shared -> EventLoopGroup? in
            defer { shared.loops = nil }
            return shared.loops
        }?.stop()
        #endif
        stopped.leave()
    }

    /// Moves to `.stopped` once stopping and no connection is left.
    private func finishIfDrained(_ shared: inout Shared) -> Bool {
        guard shared.state == .stopping, shared.connections.isEmpty else { return false }
        shared.state = .stopped
        return true
    }

    /// Stops accepting. Gracefully: requests already received are answered (with
    /// `Connection: close`), idle keep-alive connections close at once, and whatever is still
    /// open after `timeout` is closed. Not gracefully: every connection closes now.
    /// `waitUntilStopped()` returns once every connection is closed.
    public func shutdown(gracefully: Bool = true, timeout: Duration = .seconds(10)) {
        let connections = shared.withLock { shared -> [Connection]? in
            guard shared.state == .running else { return nil }
            shared.state = .stopping
            return Array(shared.connections.values)
        }
        guard let connections else { return }
        shared.withLock { $0.listener }?.stop()
        if gracefully {
            connections.forEach { $0.drain() }
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(timeout.nanoseconds))) { [self] in
                let remaining = shared.withLock { Array($0.connections.values) }
                remaining.forEach { $0.forceClose() }
            }
        } else {
            connections.forEach { $0.forceClose() }
        }
        let finished = shared.withLock { finishIfDrained(&$0) }
        if finished { finish() }
    }

    /// Blocks until a started server has stopped (returns at once if it never started).
    public func waitUntilStopped() {
        stopped.wait()
    }

    /// Makes SIGTERM and SIGINT start a graceful shutdown (bounded by
    /// `configuration.shutdownTimeout`), so that `waitUntilStopped()` returns and the process
    /// can exit 0.
    public func stopOnSignals() {
        let timeout = configuration.shutdownTimeout
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [weak self] in self?.shutdown(gracefully: true, timeout: timeout) }
            source.activate()
            signalSources.append(source)
        }
    }
}
