import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Accepts connections on a listening socket from a Dispatch read source. Stops accepting
/// while the server is at `maxConnections`, and backs off (instead of spinning on a
/// level-triggered source) when the process or system is out of descriptors.
final class Listener: @unchecked Sendable {
    private let fd: Int32
    private let queue = DispatchQueue(label: "HTTPServer.listener")
    private var source: DispatchSourceRead?
    private var suspended = false
    private var stopped = false
    private var backoffMilliseconds = 0
    /// Whether another connection may be opened now.
    private let hasCapacity: @Sendable () -> Bool
    /// Takes ownership of an accepted descriptor.
    private let adopt: @Sendable (Int32, String?) -> Void

    init(fd: Int32, hasCapacity: @escaping @Sendable () -> Bool, adopt: @escaping @Sendable (Int32, String?) -> Void) {
        self.fd = fd
        self.hasCapacity = hasCapacity
        self.adopt = adopt
    }

    func start() {
        queue.sync {
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [self] in acceptPending() }
            source.setCancelHandler { [fd] in close(fd) }
            self.source = source
            source.activate()
        }
    }

    /// Closes the listening socket; connections already accepted are not affected.
    func stop() {
        queue.sync {
            guard !stopped else { return }
            stopped = true
            if suspended { source?.resume(); suspended = false }
            source?.cancel()
            source = nil
        }
    }

    /// A connection closed: accepting may resume if it was paused for capacity.
    func capacityFreed() {
        queue.async { [self] in
            if suspended && backoffMilliseconds == 0 && !stopped { resumeAccepting() }
        }
    }

    private func acceptPending() {
        for _ in 0..<64 {
            guard hasCapacity() else { pause(); return }
            switch Socket.accept(fd) {
            case .accepted(let client, let address):
                backoffMilliseconds = 0
                adopt(client, address)
            case .wouldBlock:
                return
            case .exhausted:
                // EMFILE/ENFILE: the pending connection stays queued; retry after a pause so
                // existing connections keep being served and the loop does not spin.
                backoffMilliseconds = min(max(backoffMilliseconds * 2, 10), 1000)
                pause()
                queue.asyncAfter(deadline: .now() + .milliseconds(backoffMilliseconds)) { [self] in
                    if !stopped { resumeAccepting() }
                }
                return
            case .failed:
                return
            }
        }
    }

    private func pause() {
        guard let source, !suspended else { return }
        suspended = true
        source.suspend()
    }

    private func resumeAccepting() {
        guard let source, suspended else { return }
        suspended = false
        source.resume()
    }
}
