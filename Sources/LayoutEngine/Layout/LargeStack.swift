// Deep trees recurse deeply: run their layout on a dedicated thread whose stack is sized by
// the tree's depth, so callers on small stacks (Dispatch, test runners: 512 KiB) never overflow.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum LargeStack {
    // Measured: one tree level takes about 4 KiB of stack in release builds and about 17 KiB
    // in debug builds. Callers may run on 512 KiB stacks (Dispatch and test-runner threads),
    // so only shallow trees stay on the caller's thread.
    #if DEBUG
    /// Trees deeper than this are laid out on a large-stack thread.
    static let depthThreshold = 16
    /// Stack bytes reserved per tree level on that thread (about 3× the measured use).
    static let bytesPerLevel = 48 * 1024
    #else
    static let depthThreshold = 64
    static let bytesPerLevel = 16 * 1024
    #endif
    static let minimumStack = 16 * 1024 * 1024
    static let maximumStack = 4 * 1024 * 1024 * 1024

    static func stackSize(forDepth depth: Int) -> Int {
        let wanted = minimumStack + depth.multipliedReportingOverflow(by: bytesPerLevel).partialValue
        return Swift.min(Swift.max(wanted, minimumStack), maximumStack)
    }

    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread with `stackSize` bytes of stack and waits for it. Falls
    /// back to the current thread if the thread cannot be created.
    static func run(stackSize: Int, _ body: () -> Void) {
        withoutActuallyEscaping(body) { escapable in
            // The (non-Sendable) body crosses to the new thread through an opaque pointer: safe
            // because this thread waits in pthread_join, so the two never run at once.
            let job = Unmanaged.passRetained(Job(escapable))
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstacksize(&attributes, stackSize)
            #if canImport(Darwin)
            var thread: pthread_t? = nil
            #else
            var thread = pthread_t()
            #endif
            let rc = pthread_create(&thread, &attributes, { context in
                let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
                job.body()
                return nil
            }, job.toOpaque())
            if rc != 0 {
                job.release()
                escapable()
                return
            }
            #if canImport(Darwin)
            pthread_join(thread!, nil)
            #else
            pthread_join(thread, nil)
            #endif
        }
    }
}
