import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What drives one connection's socket: read and write readiness, one deadline, and work run
/// later on the connection's context (its serial queue, or its event loop's thread). The
/// protocol logic in `Connection` is the same for every backend; only this part differs.
/// Every method except `execute` and `inContext` is called on the connection's context.
protocol ConnectionIO: AnyObject {
    /// Hooks the socket up to `connection`'s `readable`, `writable` and `timerFired`, with
    /// read interest on and write interest off. Called once, on the context; false when the
    /// socket cannot be watched (the connection then closes).
    func activate(_ connection: Connection) -> Bool
    /// Whether the caller runs on the connection's context.
    var inContext: Bool { get }
    /// Runs `work` later on the connection's context, from any thread.
    func execute(_ work: @escaping @Sendable () -> Void)
    /// Read interest on or off. Turning it on again reads if bytes may have arrived meanwhile.
    func setReadInterest(_ on: Bool)
    /// Write interest on (a write would block) or off.
    func setWriteInterest(_ on: Bool)
    /// A read stopped before the socket was drained: read again soon even without a new event
    /// (edge-triggered backends get none).
    func readStoppedEarly()
    /// Calls `timerFired` at `deadline` (replacing any earlier deadline).
    func schedule(deadline: DispatchTime)
    /// Stops every event and timer, then closes the descriptor.
    func close()
    /// Scratch memory for one `readable` pass, shared by every connection on the context
    /// (which runs one at a time); nil when each read pass allocates its own.
    var readScratch: UnsafeMutableBufferPointer<UInt8>? { get }
}

extension ConnectionIO {
    var readScratch: UnsafeMutableBufferPointer<UInt8>? { nil }
}

/// The Dispatch backend: a read source, a write source and a timer per connection, on a
/// serial queue that targets a shared concurrent queue.
final class DispatchConnectionIO: ConnectionIO, @unchecked Sendable {
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    private let fd: Int32
    private let queue: DispatchQueue
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    private var timer: DispatchSourceTimer?
    private var readSuspended = false
    private var writeActivated = false
    private var writeArmed = false
    private var closedUnwatched = false

    init(fd: Int32, targetQueue: DispatchQueue) {
        self.fd = fd
        queue = DispatchQueue(label: "HTTPServer.connection", target: targetQueue)
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    func activate(_ connection: Connection) -> Bool {
        let closer = DescriptorCloser(fd: fd, users: 2)
        let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        read.setEventHandler { connection.readable() }
        read.setCancelHandler { closer.release() }
        let write = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        write.setEventHandler { connection.writable() }
        write.setCancelHandler { closer.release() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { connection.timerFired() }
        readSource = read
        writeSource = write
        self.timer = timer
        timer.activate()
        read.activate()
        // The write source stays inactive until a write would block.
        return true
    }

    var inContext: Bool { DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) }

    func execute(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }

    func setReadInterest(_ on: Bool) {
        guard let readSource, readSuspended == on else { return }
        readSuspended = !on
        if on { readSource.resume() } else { readSource.suspend() }
    }

    func setWriteInterest(_ on: Bool) {
        guard let writeSource, writeArmed != on else { return }
        writeArmed = on
        if !on {
            writeSource.suspend()
        } else if writeActivated {
            writeSource.resume()
        } else {
            writeActivated = true
            writeSource.activate()
        }
    }

    /// The read source is level-triggered: it fires again while bytes wait.
    func readStoppedEarly() {}

    func schedule(deadline: DispatchTime) {
        timer?.schedule(deadline: deadline, leeway: .milliseconds(5))
    }

    func close() {
        guard readSource != nil else {
            // Never activated: no source owns the descriptor.
            if !closedUnwatched { closedUnwatched = true; POSIX.close(fd) }
            return
        }
        timer?.cancel()
        if let writeSource {
            // Sources must be active and resumed to be cancelled and released.
            if !writeActivated { writeSource.activate() } else if !writeArmed { writeSource.resume() }
            writeSource.cancel()
        }
        if let readSource {
            if readSuspended { readSource.resume() }
            readSource.cancel()
        }
        readSource = nil
        writeSource = nil
        timer = nil
    }
}

/// Closes a descriptor once every dispatch source using it has been cancelled.
private final class DescriptorCloser: @unchecked Sendable {
    private let fd: Int32
    private var users: Int
    init(fd: Int32, users: Int) { self.fd = fd; self.users = users }
    /// Called from cancel handlers, which run on the connection's serial queue.
    func release() {
        users -= 1
        if users == 0 { POSIX.close(fd) }
    }
}
