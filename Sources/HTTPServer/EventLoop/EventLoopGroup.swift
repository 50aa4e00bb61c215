#if os(Linux)
import CEpoll
import SyncSupport

/// A fixed set of event loops; connections are handed out round-robin at accept.
final class EventLoopGroup: @unchecked Sendable {
    let loops: [EventLoop]
    private let next = Locked(0)

    /// `count` loops; 0 means one per CPU this process may run on.
    init(count: Int) throws {
        let resolved = count > 0 ? count : Self.allowedCPUCount()
        var loops: [EventLoop] = []
        do {
            for index in 0..<resolved { loops.append(try EventLoop(name: "http-loop-\(index)")) }
        } catch {
            loops.forEach { $0.stop() }
            throw error
        }
        self.loops = loops
    }

    /// The loop for the next connection.
    func nextLoop() -> EventLoop {
        let index = next.withLock { index -> Int in
            defer { index = (index + 1) % loops.count }
            return index
        }
        return loops[index]
    }

    /// Ends every loop's thread (once the work already handed to it has run).
    func stop() {
        loops.forEach { $0.stop() }
    }

    /// CPUs this process may run on (sched_getaffinity: `taskset -c 0` gives 1), at least 1.
    static func allowedCPUCount() -> Int {
        max(1, Int(cepoll_allowed_cpu_count()))
    }
}
#endif
