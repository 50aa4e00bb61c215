#if os(Linux)
import CEpoll
import Dispatch
import Glibc
import SyncSupport

/// Something registered with an event loop: it receives its descriptor's epoll events and
/// its deadline, always on the loop's thread.
protocol EventLoopRegistrant: AnyObject {
    func handle(events: UInt32)
    func deadlineReached()
}

/// One thread running an edge-triggered epoll set (nginx-style): each socket is registered
/// once for input, output and peer hang-up, so no epoll_ctl happens per event. Other threads
/// hand it work through a locked mailbox and an eventfd; deadlines live in a heap and bound
/// the epoll_wait timeout.
///
/// A registration is a slot plus a generation: both travel in the epoll event's data, and a
/// closed registration bumps the generation, so an event or deadline of a closed connection
/// never reaches whatever reuses its descriptor or slot.
final class EventLoop: @unchecked Sendable {
    private struct Slot {
        var generation: UInt32 = 0
        var owner: (any EventLoopRegistrant)?
    }

    private struct Mailbox {
        var tasks: [@Sendable () -> Void] = []
        /// The eventfd was written and the loop has not taken the tasks since.
        var wakePending = false
        var stopped = false
    }

    /// epoll data of the wake-up eventfd (no slot has this generation and index).
    private static let wakeToken = UInt64.max
    private static let eventBatch = 256

    private let epollFD: Int32
    private let wakeFD: Int32
    private let mailbox = Locked(Mailbox())
    private var threadID = pthread_t()
    // Loop-thread state.
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var deadlines = DeadlineHeap()
    private var localTasks: [@Sendable () -> Void] = []
    private var runningTasks: [@Sendable () -> Void] = []
    /// Where connections on this loop read socket bytes before parsing: one buffer for all of
    /// them (they run one at a time on the loop's thread), not an allocation per read. Exists
    /// while `run` does; only touched on the loop's thread.
    private(set) var readScratch: UnsafeMutableBufferPointer<UInt8>?
    static let readScratchBytes = 16 * 1024

    /// Starts the loop's thread; it runs until `stop()`.
    init(name: String) throws {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw SocketError(operation: "epoll_create1", code: errno) }
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else {
            let code = errno
            Glibc.close(epollFD)
            throw SocketError(operation: "eventfd", code: code)
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.wakeToken
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0 else {
            let code = errno
            Glibc.close(wakeFD)
            Glibc.close(epollFD)
            throw SocketError(operation: "epoll_ctl(eventfd)", code: code)
        }
        let started = DispatchSemaphore(value: 0)
        let thread = LoopThread(name: name) { [self] in
            threadID = pthread_self()
            started.signal()
            run()
        }
        guard thread.start() else {
            Glibc.close(wakeFD)
            Glibc.close(epollFD)
            throw SocketError(operation: "pthread_create", code: EAGAIN)
        }
        // `threadID` is written before the signal and read only after this wait.
        started.wait()
    }

    /// Whether the caller runs on this loop's thread.
    var inEventLoop: Bool { pthread_equal(pthread_self(), threadID) != 0 }

    /// Runs `work` on the loop's thread: after the current event when called on the loop,
    /// otherwise through the mailbox (waking the loop). Work handed to a stopped loop is
    /// dropped.
    func execute(_ work: @escaping @Sendable () -> Void) {
        if inEventLoop {
            localTasks.append(work)
            return
        }
        let wake = mailbox.withLock { mailbox -> Bool in
            guard !mailbox.stopped else { return false }
            mailbox.tasks.append(work)
            guard !mailbox.wakePending else { return false }
            mailbox.wakePending = true
            return true
        }
        if wake {
            var one: UInt64 = 1
            _ = Glibc.write(wakeFD, &one, MemoryLayout<UInt64>.size)
        }
    }

    /// Ends the loop's thread once the tasks already handed to it have run.
    func stop() {
        execute { [self] in mailbox.withLock { $0.stopped = true } }
    }

    // MARK: Registrations (loop thread only)

    /// Adds `fd` to the epoll set (input, output and hang-up, edge-triggered). Returns the
    /// registration's slot, or nil when epoll refuses the descriptor.
    func register(fd: Int32, owner: any EventLoopRegistrant) -> Int? {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.count
            slots.append(Slot())
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        event.data.u64 = UInt64(slots[slot].generation) << 32 | UInt64(slot)
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
            freeSlots.append(slot)
            return nil
        }
        slots[slot].owner = owner
        return slot
    }

    /// Removes the registration (before its descriptor closes) and its deadline; events
    /// already fetched for it are ignored.
    func deregister(slot: Int, fd: Int32) {
        var unused = epoll_event()
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, &unused)
        deadlines.remove(slot: slot)
        slots[slot].owner = nil
        slots[slot].generation &+= 1
        freeSlots.append(slot)
    }

    /// Calls the slot's `deadlineReached` at `deadline` (uptime nanoseconds, like
    /// `DispatchTime`), replacing its previous deadline.
    func schedule(slot: Int, deadline: UInt64) {
        deadlines.set(slot: slot, deadline: deadline)
    }

    /// Registrations currently open (for tests).
    var registrationCount: Int { slots.count - freeSlots.count }
    /// Deadlines currently scheduled (for tests).
    var deadlineCount: Int { deadlines.count }

    // MARK: The loop

    private func run() {
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Self.eventBatch)
        readScratch = .allocate(capacity: Self.readScratchBytes)
        defer {
            readScratch?.deallocate()
            readScratch = nil
            events.deallocate()
            Glibc.close(wakeFD)
            Glibc.close(epollFD)
        }
        while true {
            if runTasks() { return }
            let count = epoll_wait(epollFD, events, Int32(Self.eventBatch), waitTimeout())
            if count < 0 {
                if errno == EINTR { continue }
                // EBADF/EINVAL cannot happen with our own descriptors; do not spin if they do.
                usleep(1000)
                continue
            }
            for index in 0..<Int(count) {
                let token = events[index].data.u64
                let flags = events[index].events
                if token == Self.wakeToken {
                    var value: UInt64 = 0
                    _ = Glibc.read(wakeFD, &value, MemoryLayout<UInt64>.size)
                    continue
                }
                let slot = Int(token & 0xFFFF_FFFF)
                guard slot < slots.count, slots[slot].generation == UInt32(truncatingIfNeeded: token >> 32),
                      let owner = slots[slot].owner else { continue }
                owner.handle(events: flags)
            }
            fireDueDeadlines()
        }
    }

    /// Runs the mailbox's tasks and the local ones queued so far (work they queue runs on
    /// the next turn, after I/O). True once the loop is stopped.
    private func runTasks() -> Bool {
        let (remote, stopped) = mailbox.withLock { mailbox -> ([@Sendable () -> Void], Bool) in
            mailbox.wakePending = false
            guard !mailbox.tasks.isEmpty else { return ([], mailbox.stopped) }
            let tasks = mailbox.tasks
            mailbox.tasks = []
            return (tasks, mailbox.stopped)
        }
        for task in remote { task() }
        if !localTasks.isEmpty {
            swap(&localTasks, &runningTasks)
            for task in runningTasks { task() }
            runningTasks.removeAll(keepingCapacity: true)
        }
        return stopped || mailbox.withLock { $0.stopped }
    }

    /// Milliseconds until the earliest deadline (rounded up), 0 when local work waits, -1
    /// (forever) when there is neither.
    private func waitTimeout() -> Int32 {
        if !localTasks.isEmpty { return 0 }
        guard let earliest = deadlines.earliest else { return -1 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard earliest.deadline > now else { return 0 }
        let milliseconds = (earliest.deadline - now + 999_999) / 1_000_000
        return Int32(clamping: milliseconds)
    }

    private func fireDueDeadlines() {
        guard !deadlines.isEmpty else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        // Bounded: an owner that sets a new deadline in the past waits for the next turn.
        for _ in 0..<deadlines.count {
            guard let earliest = deadlines.earliest, earliest.deadline <= now else { return }
            deadlines.remove(slot: earliest.slot)
            slots[earliest.slot].owner?.deadlineReached()
        }
    }
}

/// A detached pthread running one closure.
private final class LoopThread {
    private let body: () -> Void
    private let name: String

    init(name: String, body: @escaping () -> Void) {
        self.name = name
        self.body = body
    }

    func start() -> Bool {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            let loopThread = Unmanaged<LoopThread>.fromOpaque(context!).takeRetainedValue()
            // Like Dispatch's own threads: process signals (SIGTERM for `stopOnSignals`, read
            // by Dispatch through a signalfd) must never be delivered to a loop thread.
            var signals = sigset_t()
            sigfillset(&signals)
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            loopThread.name.withCString { cepoll_set_thread_name($0) }
            loopThread.body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<LoopThread>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
#endif
