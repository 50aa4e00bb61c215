import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lingering close after an error answer, and the final close.
extension Connection {
    /// After an error: stop sending, keep reading and discarding for a while, then close,
    /// so the kernel does not reset the connection while the client still reads the answer.
    func startLingering() {
        state = .lingering
        tls?.shutdown()
        shutdown(fd, Int32(SHUT_WR))
        timers.lingerDeadline = timers.now + timers.lingerTimeout
        resumeReading()
        updateDeadline()
    }

    /// Reads and drops what a lingering peer still sends; closes when it is done.
    func discardInput() {
        let drained = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.readChunk) { buffer -> Bool in
            for _ in 0..<4 {
                let count = POSIX.read(fd, buffer.baseAddress, buffer.count)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { closeNow(); return true }
                if count < buffer.count { return true }
            }
            return false
        }
        if !drained { io.readStoppedEarly() }
    }

    func closeNow() {
        guard !state.isClosed else { return }
        state = .closed
        pending.removeAll()
        output = OutputBuffer(responseBytesEstimate: 0)
        setOutputStalled(false)
        setBudgetPaused(false)
        accountBuffers()
        tls = nil // SSL_free before the descriptor closes
        io.close()
        onClose(self)
    }
}
