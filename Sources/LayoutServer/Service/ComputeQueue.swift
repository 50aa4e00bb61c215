import Dispatch
import HTTPServer
import LayoutWire

/// Where layout work runs: a global concurrent queue (one thread per core), never the
/// connection's queue or event loop, so a large tree does not hold up the HTTP I/O of other
/// requests; behind the pending-work budget of `admission` (beyond it 503) and the running
/// memory budget of `memory` (beyond it large trees wait their turn).
final class ComputeQueue: Sendable {
    typealias Job = @Sendable () -> Void

    let admission: ComputeAdmission
    let memory: ComputeMemoryBudget<Job>
    /// Runs on the queue before each job that starts; tests set it to hold work and fill the
    /// budgets. nil in service.
    let gate: (@Sendable () -> Void)?
    /// Runs after each job estimated above `trimAfterJobBytes`: gives its scratch back to the
    /// system at once rather than leaving it resident for the next; nil: nothing.
    let afterLargeJob: (@Sendable () -> Void)?
    private let work = DispatchQueue.global(qos: .userInitiated)

    init(admission: ComputeAdmission, memory: ComputeMemoryBudget<Job> = ComputeMemoryBudget(limitBytes: 0),
         gate: (@Sendable () -> Void)? = nil, afterLargeJob: (@Sendable () -> Void)? = nil) {
        self.admission = admission
        self.memory = memory
        self.gate = gate
        self.afterLargeJob = afterLargeJob
    }

    /// Jobs estimated above this give their scratch back as soon as they end (`afterLargeJob`):
    /// a quarter of the memory budget (12 MiB by default: a tree of some 5,000 nodes). Smaller
    /// large jobs leave it to the periodic trim: a 1,000-card text feed (~4 MB) that trimmed
    /// after every request spent 10–14 % of its CPU faulting the same pages in again.
    var trimAfterJobBytes: Int { memory.limitBytes / 4 }

    /// Runs `job` on the queue when the pending budget admits `body.count` bytes (the job gives
    /// them back with `admission.release`) and, for a large tree, once the memory budget has
    /// room for its estimate; when either budget refuses it, answers 503 `overloaded` through
    /// `responder` at once.
    /// `job` gets the body's count of JSON objects, which the estimate counted (a decoder then
    /// need not count them again).
    func run(_ body: [UInt8], orRefuse responder: Responder, _ job: @escaping @Sendable (_ objects: Int) -> Void) {
        guard admission.tryAdmit(bytes: body.count) else {
            responder(ServiceError.overloaded(pendingLimitBytes: admission.limitBytes))
            return
        }
        let objects = body.withUnsafeBufferPointer { LayoutWire.openBraceCount(in: $0) }
        let cost = Self.workingBytes(objects: objects, bodyBytes: body.count)
        let tracked: Job = { [self] in
            gate?()
            job(objects)
            let started = memory.finish(cost: cost)
            if cost > trimAfterJobBytes && memory.limitBytes > 0 { afterLargeJob?() }
            for next in started { work.async(execute: next) }
        }
        switch memory.submit(cost: cost, tracked) {
        case .run(let now):
            work.async(execute: now)
        case .wait:
            break
        case .refuse:
            admission.release(bytes: body.count)
            responder(ServiceError.overloaded(memoryLimitBytes: memory.limitBytes))
        }
    }

    /// Runs `answer` on the queue as `run` does, then gives the admitted bytes back before
    /// responding with what it returned, so a client that has its answer finds the budget freed.
    func respond(to body: [UInt8], through responder: Responder,
                 with answer: @escaping @Sendable (_ objects: Int) -> (HTTPResponse, cache: LayoutComputer.CacheOutcome?)) {
        let bytes = body.count
        run(body, orRefuse: responder) { [admission] objects in
            let (response, cache) = answer(objects)
            admission.release(bytes: bytes)
            responder(response, cache: cache)
        }
    }

    /// Bytes a layout of one request is expected to hold while it runs, before it is decoded,
    /// from its body's size and count of `{`: every node is a JSON object, so the count bounds
    /// its nodes (an object per node and one per style: about twice the nodes of an ordinary
    /// tree, exactly them for `{}` leaves), at `bytesPerObject` each, plus `bytesPerBodyByte`
    /// for the parse of the body itself. A batch counts all its items (their answers are all
    /// held until the array is written).
    static func workingBytes(objects: Int, bodyBytes: Int) -> Int {
        objects * bytesPerObject + bodyBytes * bytesPerBodyByte
    }

    /// Working bytes per JSON object of a request (see `workingBytes`): measured on
    /// `Tests/Scripts/slow_clients.py`'s 50,000-node tree of `{}` leaves (the most nodes a body
    /// can hold: two bytes each), which alone takes the server from 31 to 83 MiB resident.
    static let bytesPerObject = 1024
    /// Working bytes per body byte: the parse (tape, strings) and the answer's share.
    static let bytesPerBodyByte = 4
}
