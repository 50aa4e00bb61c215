import Dispatch

/// One client connection. All mutable state is confined to the connection's context (its
/// `ConnectionIO`: a serial Dispatch queue, or one event loop's thread), so reads, parsing,
/// handler calls, serialisation and writes of one connection never run concurrently.
///
/// The work is split by concern, one extension per file in this folder:
/// - `Connection+Reading`: socket and TLS reads and writes, read and write interest;
/// - `Connection+Intake`: taking requests from the parser under backpressure, 100-continue,
///   gzip inflation, building the request for the handler, refusals;
/// - `Connection+Responses`: answers in request order, serialisation, flushing;
/// - `Connection+Deadlines`: the one deadline for the current state, and its timer;
/// - `Connection+Closing`: lingering close and the final close;
/// - `Connection+Budget`: its share of the server-wide bounds on buffered bytes (`BufferBudget`).
/// `ConnectionState` names the connection's life and its transitions.
// @unchecked: every mutable field is touched only on the connection's context (see above).
final class Connection: @unchecked Sendable {
    static let readChunk = 16 * 1024

    let fd: Int32
    /// Socket events, the deadline timer and deferred work: the I/O backend.
    let io: any ConnectionIO
    let remoteAddress: String?
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    let onClose: @Sendable (Connection) -> Void
    /// TLS state when the server has a certificate; nil for plain TCP (and once closed).
    var tls: TLSSession?
    let usesTLS: Bool

    /// Whether more requests are taken, and how the connection ends.
    var state = ConnectionState.acceptingRequests

    // Reading (Connection+Reading).
    /// Read interest is off (intake full, no more requests, or the peer is gone).
    var readSuspended = false
    var writeArmed = false
    /// A TLS read needs the socket to be writable first.
    var readWaitsForWritable = false
    /// The peer shut its write side (read returned 0).
    var peerClosed = false

    // Intake (Connection+Intake).
    var parser: RequestParser
    /// The head of the request whose body is being read.
    var currentHead: RequestHead?
    /// The current request asked for 100 Continue and has not had it yet.
    var continueNeeded = false
    /// `processRequests` stopped because the intake was full: requests may wait in the parser.
    var intakePaused = false
    var intakeResumeScheduled = false
    /// Nesting of `processRequests` (an answer may arrive inside it); output is flushed at 0.
    var processingDepth = 0
    /// A request has reached the handler (the idle timeout, not the first-request one, applies).
    var servedAny = false

    // Responses (Connection+Responses).
    /// Requests whose answers are not written yet, in request order.
    var pending: [PendingResponse] = []
    /// Sequence number of `pending[0]`.
    var nextToWrite = 0
    var output: OutputBuffer

    // Deadlines (Connection+Deadlines).
    var timers: ConnectionTimers

    // The server-wide bounds (Connection+Budget).
    let budget: BufferBudget
    /// Output bytes (unsent, and expected from running handlers) counted in `budget`.
    var accountedOutput = 0
    /// Input bytes (in the parser) counted in `budget`.
    var accountedInput = 0
    /// Reading is paused by a bound (counted in `budget`); since when.
    var budgetPausedSince: DispatchTime?
    /// Counted among `budget`'s stalled connections (output waits on a full socket).
    var countedStalled = false

    init(fd: Int32, remoteAddress: String?, configuration: HTTPServerConfiguration, handler: any HTTPHandler,
         tls: TLSContext? = nil, io: any ConnectionIO, budget: BufferBudget, onClose: @escaping @Sendable (Connection) -> Void) {
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.configuration = configuration
        self.handler = handler
        self.onClose = onClose
        self.parser = RequestParser(limits: configuration.parserLimits)
        self.tls = tls?.makeSession(fd: fd)
        self.usesTLS = tls != nil
        self.io = io
        self.budget = budget
        output = OutputBuffer(responseBytesEstimate: configuration.maxBufferedResponseBytes)
        timers = ConnectionTimers(configuration)
    }

    /// Starts reading; called once after accept.
    func start() {
        io.execute { [self] in
            guard io.activate(self), !(usesTLS && tls == nil) else { closeNow(); return }
            timers.tick()
            updateDeadline()
        }
    }

    /// Graceful shutdown: finish requests already received, then close; idle closes now.
    func drain() {
        io.execute { [self] in
            guard !state.isClosed, state != .quiescing else { return }
            state.quiesce()
            intakePaused = false
            suspendReading()
            if let last = pending.last, last.awaitingBody { pending.removeLast() }
            if pending.isEmpty {
                if output.hasUnsent {
                    state.finalResponseSerialized()
                } else {
                    closeNow()
                }
            } else {
                pending[pending.count - 1].closeAfter = true
            }
        }
    }

    /// Immediate close (forced shutdown).
    func forceClose() {
        io.execute { [self] in closeNow() }
    }
}
