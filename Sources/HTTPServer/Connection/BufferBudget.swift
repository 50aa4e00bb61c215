import Dispatch
#if os(Linux)
import Synchronization
#else
import SyncSupport
#endif

/// The bytes every connection buffers, against the server-wide bounds
/// (`maxBufferedOutputBytesTotal`, `maxBufferedInputBytesTotal`). Each connection adds the
/// change of what it holds (the output buffer while it holds unsent bytes, plus the answers
/// its running handlers are expected to add; unparsed input) when it changes, so the hot path
/// of a request whose answer is sent at once costs nothing or two relaxed atomic adds, never
/// a lock.
///
/// Beyond the output bound no connection takes a new request (one that tries stops reading
/// and looks for room every `retryInterval`); beyond the input bound connections holding part
/// of a request stop reading. Connections whose output has stalled for `stallGrace` while the
/// output is over its bound or others wait for room, and that hold at least the average of
/// the stalled (or have stalled for two graces), are closed: the worst offenders go first.
/// Likewise for input.
final class BufferBudget: Sendable {
    /// How long a connection's writes may stall (or its reading stay paused by the input
    /// bound) under pressure before it may be closed to make room.
    static let stallGrace = DispatchTimeInterval.nanoseconds(Int(graceNanoseconds))
    /// How often a connection paused by the budget looks for room again.
    static let retryInterval = DispatchTimeInterval.milliseconds(50)
    /// How often a stalled connection (or one holding part of a request) checks whether it
    /// must make room.
    static let stalledCheckInterval = DispatchTimeInterval.milliseconds(250)

    let outputBound: Int
    let inputBound: Int
    private let output = Counter()
    private let input = Counter()
    /// Connections whose output waits on a socket that takes no more.
    private let stalled = Counter()
    /// Connections holding part of a request in their parser.
    private let inputHolders = Counter()
    /// Connections paused by either bound now.
    private let paused = Counter()
    private let pausedTotal = Counter()
    private let closedTotal = Counter()

    init(outputBound: Int, inputBound: Int) {
        self.outputBound = outputBound
        self.inputBound = inputBound
    }

    @inline(__always) func addOutput(_ delta: Int) { output.add(delta) }
    @inline(__always) func addInput(_ delta: Int) { input.add(delta) }
    func addStalled(_ delta: Int) { stalled.add(delta) }
    func addInputHolder(_ delta: Int) { inputHolders.add(delta) }
    func pause() { paused.add(1); pausedTotal.add(1) }
    func unpause() { paused.add(-1) }
    func countClose() { closedTotal.add(1) }

    /// Whether a connection may take a request whose answer is expected to add `expected`
    /// bytes: always when nothing is buffered (one answer larger than the bound still goes out).
    @inline(__always)
    func admitsOutput(_ expected: Int) -> Bool {
        let total = output.value
        return total == 0 || total <= outputBound - expected
    }

    var inputOverBound: Bool { input.value > inputBound }

    /// Whether a connection whose output has stalled for `stalledFor` holding `held` bytes is
    /// one of the worst offenders to close: the output is over its bound or connections wait
    /// for room, and it holds at least the average of the stalled connections (after one grace)
    /// or has stalled for two graces (the longest).
    func shouldCloseStalled(holding held: Int, stalledFor: UInt64) -> Bool {
        let total = output.value
        guard held > 0, total > outputBound || paused.value > 0 else { return false }
        return held >= total / max(1, stalled.value) || stalledFor >= 2 * Self.graceNanoseconds
    }

    /// The same for a connection whose reading has been paused by the input bound for
    /// `pausedFor` holding `held` input bytes: the input is still over its bound, and it holds
    /// at least the average of the connections holding input, or has waited two graces.
    func shouldCloseForInput(holding held: Int, pausedFor: UInt64) -> Bool {
        let total = input.value
        guard held > 0, total > inputBound else { return false }
        return held >= total / max(1, inputHolders.value) || pausedFor >= 2 * Self.graceNanoseconds
    }

    static let graceNanoseconds: UInt64 = 500_000_000

    var statistics: HTTPServer.BufferStatistics {
        .init(outputBytes: output.value, inputBytes: input.value, outputBoundBytes: outputBound,
              inputBoundBytes: inputBound, pausedConnections: paused.value,
              pausedTotal: pausedTotal.value, closedTotal: closedTotal.value)
    }
}

extension HTTPServer {
    /// What the connections buffer across the server, and what the bounds did about it.
    public struct BufferStatistics: Sendable, Equatable {
        /// Unsent response bytes plus the answers running handlers are expected to add.
        public var outputBytes = 0
        /// Received bytes not yet taken as requests (parser buffers).
        public var inputBytes = 0
        public var outputBoundBytes = 0
        public var inputBoundBytes = 0
        /// Connections whose reading is paused by a bound now.
        public var pausedConnections = 0
        /// Times a connection was paused by a bound.
        public var pausedTotal = 0
        /// Connections closed to bring buffered bytes back under a bound.
        public var closedTotal = 0
        public init(outputBytes: Int = 0, inputBytes: Int = 0, outputBoundBytes: Int = 0, inputBoundBytes: Int = 0,
                    pausedConnections: Int = 0, pausedTotal: Int = 0, closedTotal: Int = 0) {
            self.outputBytes = outputBytes
            self.inputBytes = inputBytes
            self.outputBoundBytes = outputBoundBytes
            self.inputBoundBytes = inputBoundBytes
            self.pausedConnections = pausedConnections
            self.pausedTotal = pausedTotal
            self.closedTotal = closedTotal
        }
    }
}

#if os(Linux)
/// A relaxed atomic integer: the counts are read as gauges and thresholds, never to order
/// other memory.
private final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    @inline(__always) func add(_ delta: Int) { storage.wrappingAdd(delta, ordering: .relaxed) }
    @inline(__always) var value: Int { storage.load(ordering: .relaxed) }
}
#else
/// `Synchronization.Atomic` needs macOS 15 (the package declares 13): a lock there.
private final class Counter: Sendable {
    private let storage = Locked(0)
    func add(_ delta: Int) { storage.withLock { $0 += delta } }
    var value: Int { storage.withLock { $0 } }
}
#endif
