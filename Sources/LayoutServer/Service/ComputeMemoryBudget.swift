import SyncSupport

/// Bounds the memory layout work holds while it runs: the decoded tree, its frames and the encoded
/// answer, estimated per request before it is decoded
/// (`ComputeQueue.workingBytes(objects:bodyBytes:)`). Large jobs run while their estimates fit in
/// `limitBytes` together and wait, first come first served, when they do not, so a burst of huge
/// trees is laid out a few at a time instead of all at once (each 50,000-node tree holds ~50 MB
/// until its answer is encoded). One large job always runs when no other large one does, so a tree
/// larger than the whole budget still gets its answer. What waits is bounded by the same budget
/// (one job may always wait): beyond it a large job is refused (503 `overloaded`), so a queue of
/// huge trees never holds clients (and the HTTP layer's room for their answers) for many seconds.
///
/// Small jobs (an estimate of at most `smallJobBytes`, 1/16 of the budget: every ordinary request)
/// never wait and are not counted: at most one runs per compute thread, so together they hold a few
/// megabytes, and a normal request is not held up behind huge ones.
///
/// The budget only orders work; it holds no threads. `submit` says whether a job runs now, waits or
/// is refused, and `finish` returns the waiting jobs that may run once a large one is done.
public final class ComputeMemoryBudget<Job: Sendable>: Sendable {
    public typealias Statistics = ComputeMemoryStatistics

    private struct State: Sendable {
        var statistics = Statistics()
        /// Waiting jobs in arrival order, from `head` on (taken from the front without moving
        /// the rest; the array is emptied whenever nothing waits).
        var waiting: [(cost: Int, job: Job)] = []
        var head = 0
    }

    /// The most estimated bytes of large jobs running at once (see the note on a lone job).
    public let limitBytes: Int
    /// Jobs estimated at most this many bytes never wait: 1/16 of the budget.
    public var smallJobBytes: Int { limitBytes / 16 }
    private let state = Locked(State())

    public init(limitBytes: Int) {
        self.limitBytes = max(0, limitBytes)
    }

    /// What `submit` decided.
    public enum Admission: Sendable {
        /// Run it now; `finish(cost:)` once done.
        case run(Job)
        /// It waits; a later `finish` returns it to run.
        case wait
        /// Too much large work waits already: answer 503.
        case refuse
    }

    /// Runs, queues or refuses a job estimated at `cost` bytes. A budget of 0 runs every job.
    public func submit(cost: Int, _ job: Job) -> Admission {
        guard limitBytes > 0, cost > smallJobBytes else { return .run(job) }
        return state.withLock { state -> Admission in
            if state.head == state.waiting.count, Self.fits(cost, state.statistics, limitBytes) {
                state.statistics.runningBytes += cost
                state.statistics.runningJobs += 1
                return .run(job)
            }
            if state.head < state.waiting.count, state.statistics.waitingBytes + cost > limitBytes {
                state.statistics.refusedTotal += 1
                return .refuse
            }
            state.waiting.append((cost, job))
            state.statistics.waitingJobs += 1
            state.statistics.waitingBytes += cost
            state.statistics.waitedTotal += 1
            return .wait
        }
    }

    /// Gives back the budget of a job that ran (`cost` as submitted); returns the waiting jobs
    /// that may run now, in arrival order (each to be finished in turn).
    public func finish(cost: Int) -> [Job] {
        guard limitBytes > 0, cost > smallJobBytes else { return [] }
        return state.withLock { state -> [Job] in
            state.statistics.runningBytes -= cost
            state.statistics.runningJobs -= 1
            var started: [Job] = []
            while state.head < state.waiting.count, Self.fits(state.waiting[state.head].cost, state.statistics, limitBytes) {
                let next = state.waiting[state.head]
                state.head += 1
                state.statistics.runningBytes += next.cost
                state.statistics.runningJobs += 1
                state.statistics.waitingJobs -= 1
                state.statistics.waitingBytes -= next.cost
                started.append(next.job)
            }
            if state.head == state.waiting.count {
                state.waiting.removeAll(keepingCapacity: state.waiting.count <= 1024)
                state.head = 0
            }
            return started
        }
    }

    /// A snapshot of the gauges and counters.
    public var statistics: Statistics {
        state.withLock { $0.statistics }
    }

    /// Room for `cost` beside the large jobs running, or none of them runs.
    private static func fits(_ cost: Int, _ running: Statistics, _ limit: Int) -> Bool {
        running.runningJobs == 0 || running.runningBytes + cost <= limit
    }
}

/// `ComputeMemoryBudget`'s gauges and counters, for `/metrics`.
public struct ComputeMemoryStatistics: Sendable, Equatable {
    /// Estimated bytes of the large jobs running.
    public var runningBytes = 0
    /// Large jobs running.
    public var runningJobs = 0
    /// Large jobs waiting for room.
    public var waitingJobs = 0
    /// Estimated bytes of the large jobs waiting.
    public var waitingBytes = 0
    /// Large jobs that had to wait, since the start.
    public var waitedTotal = 0
    /// Large jobs refused (503) because the waiting ones already filled the budget.
    public var refusedTotal = 0

    public init() {}
}
