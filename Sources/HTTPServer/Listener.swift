import Dispatch
import SyncSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Accepts connections on a listening socket from a Dispatch read source. Stops accepting
/// while the server is at `maxConnections`, and backs off (instead of spinning on a
/// level-triggered source) when the process or system is out of descriptors.
final class Listener: Sendable {
    /// What changes while accepting. Touched only on `queue`, so its lock is never contended;
    /// it lets the compiler check the sharing instead of an unchecked claim.
    private struct State {
        var source: (any DispatchSourceRead)?
        var suspended = false
        var stopped = false
        var backoffMilliseconds = 0

        mutating func pause() {
            guard let source, !suspended else { return }
            suspended = true
            source.suspend()
        }

        mutating func resume() {
            guard let source, suspended else { return }
            suspended = false
            source.resume()
        }
    }

    private let fd: Int32
    private let queue = DispatchQueue(label: "HTTPServer.listener")
    private let state = Locked(State())
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
            state.withLock { state in
                let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
                source.setEventHandler { [self] in acceptPending() }
                source.setCancelHandler { [fd] in close(fd) }
                state.source = source
                source.activate()
            }
        }
    }

    /// Closes the listening socket; connections already accepted are not affected.
    func stop() {
        queue.sync {
            state.withLock { state in
                guard !state.stopped else { return }
                state.stopped = true
                state.resume()
                state.source?.cancel()
                state.source = nil
            }
        }
    }

    /// A connection closed: accepting may resume if it was paused for capacity.
    func capacityFreed() {
        queue.async { [self] in
            state.withLock { state in
                if state.backoffMilliseconds == 0 && !state.stopped { state.resume() }
            }
        }
    }

    private func acceptPending() {
        for _ in 0..<64 {
            guard hasCapacity() else { state.withLock { $0.pause() }; return }
            switch Socket.accept(fd) {
            case .accepted(let client, let address):
                state.withLock { $0.backoffMilliseconds = 0 }
                adopt(client, address)
            case .wouldBlock:
                return
            case .exhausted:
                // EMFILE/ENFILE: the pending connection stays queued; retry after a pause so
                // existing connections keep being served and the loop does not spin.
                let delay = state.withLock { state in
                    state.backoffMilliseconds = min(max(state.backoffMilliseconds * 2, 10), 1000)
                    state.pause()
                    return state.backoffMilliseconds
                }
                queue.asyncAfter(deadline: .now() + .milliseconds(delay)) { [self] in
                    state.withLock { state in
                        if !state.stopped { state.resume() }
                    }
                }
                return
            case .failed:
                return
            }
        }
    }
}
