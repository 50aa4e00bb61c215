import Dispatch

/// Where layout work runs: a global concurrent queue (one thread per core), never the
/// connection's queue or event loop, so a large tree does not hold up the HTTP I/O of other
/// requests; behind the pending-work budget of `admission`.
final class ComputeQueue: @unchecked Sendable {
    // @unchecked: `gate` is set once, before the first request (tests only), then only read.
    let admission: ComputeAdmission
    /// Runs on the queue before each admitted job; tests set it to hold work and fill the
    /// budget. nil in service.
    var gate: (@Sendable () -> Void)?
    private let work = DispatchQueue.global(qos: .userInitiated)

    init(admission: ComputeAdmission) {
        self.admission = admission
    }

    /// Runs `job` on the queue when the budget admits `bytes` (the job gives them back with
    /// `admission.release`); otherwise answers 503 `overloaded` through `responder` at once.
    func run(_ bytes: Int, orRefuse responder: Responder, _ job: @escaping @Sendable () -> Void) {
        guard admission.tryAdmit(bytes: bytes) else {
            responder(ServiceError.overloaded(pendingLimitBytes: admission.limitBytes))
            return
        }
        work.async { [self] in
            gate?()
            job()
        }
    }
}
