#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Socket and TLS reads and writes, the TLS handshake, and read and write interest.
extension Connection {
    /// The socket has bytes (or the peer closed): read a bounded amount, then take requests.
    func readable() {
        guard !state.isClosed else { return }
        timers.tick()
        if state.isLingering { discardInput(); return }
        if let tls, !tls.handshakeDone {
            guard continueHandshake(tls) else { return }
        }
        var failed = false
        var received = 0
        var stoppedEarly = false
        // The loop's shared scratch when there is one: no 16 KiB allocation per read pass.
        func readPass(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
            for _ in 0..<(usesTLS ? 16 : 4) {
                switch receive(into: buffer) {
                case .bytes(let count):
                    received += count
                    parser.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[0..<count])))
                    if count < buffer.count && !usesTLS { return }
                    // A full read ending in a head not yet parsed: the head is taken first
                    // (`processRequests`), so the rest of its body is read straight into the
                    // array the head sizes, not gathered behind the head and copied over.
                    if parser.phase == .head {
                        stoppedEarly = true
                        return
                    }
                case .wantRead:
                    return
                case .wantWrite:
                    readWaitsForWritable = true
                    armWrite()
                    return
                case .closed:
                    peerClosed = true
                    return
                case .failed:
                    failed = true
                    return
                }
            }
            // Every read filled the buffer: the socket may hold more.
            stoppedEarly = true
        }
        if let scratch = io.readScratch {
            readPass(scratch)
        } else {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.readChunk, readPass)
        }
        if failed { closeNow(); return }
        if stoppedEarly { io.readStoppedEarly() }
        if let tls, tls.pendingBytes > 0, !peerClosed {
            // OpenSSL holds decrypted bytes the socket will not signal again.
            io.execute { [self] in if !state.isClosed && !readSuspended { readable() } }
        }
        if received > 0 { timers.lastActivity = timers.now }
        if peerClosed { suspendReading() }
        processRequests()
        if peerClosed && !state.isClosed && !intakePaused && pending.allSatisfy({ $0.awaitingBody })
            && !output.hasUnsent {
            closeNow()
            return
        }
        updateDeadline()
    }

    /// The socket can take bytes: finish the handshake, a TLS read that waited, or the output.
    func writable() {
        guard !state.isClosed else { return }
        timers.tick()
        if let tls, !tls.handshakeDone {
            if continueHandshake(tls) { readable() }
            return
        }
        if readWaitsForWritable {
            readWaitsForWritable = false
            if !output.hasUnsent { disarmWrite() }
            readable()
        }
        flush()
    }

    /// One read from the socket, or from TLS.
    @inline(__always)
    func receive(into buffer: UnsafeMutableBufferPointer<UInt8>) -> TLSSession.Result {
        if let tls { return tls.read(into: buffer) }
        let count = POSIX.read(fd, buffer.baseAddress, buffer.count)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .closed }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? .wantRead : .failed
    }

    /// One write to the socket, or through TLS.
    @inline(__always)
    func transmit(_ bytes: UnsafeRawBufferPointer) -> TLSSession.Result {
        if let tls { return tls.write(bytes) }
        #if canImport(Glibc)
        let sent = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #else
        let sent = send(fd, bytes.baseAddress, bytes.count, 0) // SO_NOSIGPIPE is set on the socket
        #endif
        if sent > 0 { return .bytes(sent) }
        let code = errno
        if sent < 0 && code == EINTR { return .bytes(0) }
        return sent < 0 && (code == EAGAIN || code == EWOULDBLOCK) ? .wantWrite : .failed
    }

    /// Most pieces of output one `transmit(pieces:)` hands the kernel.
    static let writePieces = 8

    /// One write of `pieces` (at least one, none empty) in order: one `sendmsg` over all of
    /// them, or over TLS the first.
    func transmit(pieces: [UnsafeRawBufferPointer]) -> TLSSession.Result {
        if tls != nil || pieces.count == 1 { return transmit(pieces[0]) }
        var vectors = pieces.map { iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count) }
        let sent = vectors.withUnsafeMutableBufferPointer { vectors -> Int in
            var message = msghdr()
            message.msg_iov = vectors.baseAddress
            #if canImport(Glibc)
            message.msg_iovlen = vectors.count
            return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            #else
            message.msg_iovlen = Int32(vectors.count)
            return sendmsg(fd, &message, 0) // SO_NOSIGPIPE is set on the socket
            #endif
        }
        if sent > 0 { return .bytes(sent) }
        let code = errno
        if sent < 0 && code == EINTR { return .bytes(0) }
        return sent < 0 && (code == EAGAIN || code == EWOULDBLOCK) ? .wantWrite : .failed
    }

    /// Drives the TLS handshake (bounded by the header timeout); true once it is done.
    func continueHandshake(_ tls: TLSSession) -> Bool {
        switch tls.handshake() {
        case .bytes:
            disarmWrite()
            return true
        case .wantRead:
            disarmWrite()
            return false
        case .wantWrite:
            armWrite()
            return false
        case .closed, .failed:
            closeNow()
            return false
        }
    }

    func suspendReading() {
        guard !state.isClosed, !readSuspended else { return }
        readSuspended = true
        io.setReadInterest(false)
    }

    func resumeReading() {
        guard !state.isClosed, readSuspended, !(peerClosed && !state.isLingering) else { return }
        readSuspended = false
        io.setReadInterest(true)
        if let tls, tls.pendingBytes > 0 {
            io.execute { [self] in if !state.isClosed && !readSuspended { readable() } }
        }
    }

    func armWrite() {
        guard !state.isClosed, !writeArmed else { return }
        writeArmed = true
        io.setWriteInterest(true)
    }

    func disarmWrite() {
        guard !state.isClosed, writeArmed else { return }
        writeArmed = false
        io.setWriteInterest(false)
    }
}
