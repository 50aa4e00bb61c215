#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A socket call failed.
public struct SocketError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var code: Int32
    public var description: String { "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))" }
}

/// Thin wrappers over the socket syscalls the server uses.
enum Socket {
    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let streamType = SOCK_STREAM
    #endif

    /// Creates a non-blocking listening socket bound to a numeric `host` and `port`.
    static func listen(host: String, port: Int, backlog: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        var info: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &info)
        guard status == 0, let address = info else {
            throw SocketError(operation: "getaddrinfo(\(host)) \(String(cString: gai_strerror(status)))", code: EINVAL)
        }
        defer { freeaddrinfo(info) }
        #if canImport(Glibc)
        let fd = socket(address.pointee.ai_family, streamType | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError(operation: "socket", code: errno) }
        #else
        let fd = socket(address.pointee.ai_family, streamType, 0)
        guard fd >= 0 else { throw SocketError(operation: "socket", code: errno) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #endif
        var one: Int32 = 1
        var zero: Int32 = 0
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if address.pointee.ai_family == AF_INET6 {
            // "::" serves IPv4 clients too.
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &zero, socklen_t(MemoryLayout<Int32>.size))
        }
        guard bind(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            let code = errno
            close(fd)
            throw SocketError(operation: "bind \(host):\(port)", code: code)
        }
        guard POSIX.listen(fd, Int32(backlog)) == 0 else {
            let code = errno
            close(fd)
            throw SocketError(operation: "listen", code: code)
        }
        return fd
    }

    /// The port a socket is bound to.
    static func localPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { return 0 }
        return port(of: storage)
    }

    enum AcceptResult {
        case accepted(fd: Int32, address: String?)
        case wouldBlock
        /// Out of file descriptors or kernel memory: back off before accepting again.
        case exhausted
        case failed(Int32)
    }

    static func accept(_ listener: Int32) -> AcceptResult {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                POSIX.accept(listener, $0, &length)
            }
        }
        if fd >= 0 {
            // accept4 is not exported by the Glibc module; accepted sockets do not inherit flags.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
            // Darwin has no MSG_NOSIGNAL: a write to a reset peer must not raise SIGPIPE.
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            return .accepted(fd: fd, address: describe(storage))
        }
        let code = errno
        switch code {
        case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO: return .wouldBlock
        case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .exhausted
        default: return .failed(code)
        }
    }

    private static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        return withUnsafePointer(to: &storage) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            default:
                return 0
            }
        }
    }

    /// The numeric address of a peer ("127.0.0.1", "::1").
    static func describe(_ storage: sockaddr_storage) -> String? {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let ok: Bool = withUnsafePointer(to: &storage) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    var address = $0.pointee.sin_addr
                    return inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    var address = $0.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil
                }
            default:
                return false
            }
        }
        guard ok else { return nil }
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
