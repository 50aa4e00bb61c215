#if os(Linux)
import CEpoll
import Dispatch
import Glibc

/// The event-loop backend for one connection: its socket sits in the loop's edge-triggered
/// epoll set from accept to close, and "interest" is only a flag here (no epoll_ctl per
/// event). Edges are not repeated: a readable edge that arrives while reading is off is not
/// lost, because turning reading back on always reads once (bytes or a hang-up whose edge
/// passed meanwhile are found then).
// @unchecked: its mutable fields are touched only on its loop's thread (the context rule).
final class EventLoopConnectionIO: ConnectionIO, EventLoopRegistrant, @unchecked Sendable {
    private static let readEvents = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
    private static let writeEvents = EPOLLOUT.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
    private static let hangUpEvents = EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue

    let loop: EventLoop
    private let fd: Int32
    // Loop-thread state.
    private var connection: Connection?
    private var slot = -1
    private var closed = false
    private var readInterest = true
    private var writeInterest = false
    private var readScheduled = false

    init(fd: Int32, loop: EventLoop) {
        self.fd = fd
        self.loop = loop
    }

    func activate(_ connection: Connection) -> Bool {
        guard !closed, let slot = loop.register(fd: fd, owner: self) else { return false }
        self.connection = connection
        self.slot = slot
        return true
    }

    var inContext: Bool { loop.inEventLoop }

    var readScratch: UnsafeMutableBufferPointer<UInt8>? { loop.readScratch }

    func execute(_ work: @escaping @Sendable () -> Void) { loop.execute(work) }

    func setReadInterest(_ on: Bool) {
        guard on != readInterest else { return }
        readInterest = on
        // Bytes may wait that arrived (or were left) while reading was off, and their edge
        // has passed: read once now. Reading is turned off only for backpressure or when
        // intake ends, so this is not a per-request cost.
        if on { scheduleRead() }
    }

    func setWriteInterest(_ on: Bool) {
        writeInterest = on
    }

    func readStoppedEarly() {
        // While reading is off, turning it on reads anyway.
        if readInterest { scheduleRead() }
    }

    func schedule(deadline: DispatchTime) {
        guard !closed, slot >= 0 else { return }
        loop.schedule(slot: slot, deadline: deadline.uptimeNanoseconds)
    }

    func close() {
        guard !closed else { return }
        closed = true
        if slot >= 0 { loop.deregister(slot: slot, fd: fd) }
        Glibc.close(fd)
        connection = nil
    }

    // MARK: EventLoopRegistrant

    func handle(events: UInt32) {
        if events & Self.readEvents != 0 {
            if readInterest {
                connection?.readable()
                // A hang-up is one edge, often with the last bytes: the short read that took
                // them did not see the end of the stream, and no further edge will come.
                if events & Self.hangUpEvents != 0 && !closed { readStoppedEarly() }
            }
            // While reading is off the edge needs no note: turning reading on reads.
        }
        if events & Self.writeEvents != 0, writeInterest, !closed {
            connection?.writable()
        }
    }

    func deadlineReached() {
        connection?.timerFired()
    }

    /// A read on the next turn of the loop, without waiting for an edge.
    private func scheduleRead() {
        guard !readScheduled, !closed else { return }
        readScheduled = true
        loop.execute { [self] in
            readScheduled = false
            guard !closed else { return }
            if readInterest { connection?.readable() }
        }
    }
}
#endif
