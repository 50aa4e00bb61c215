import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SyncSupport
@testable import HTTPServer

/// A response as read off the wire by the test client.
struct WireResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking TCP client for live tests: writes raw bytes, reads responses with a deadline
/// (SO_RCVTIMEO), so no test can hang.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// `receiveBufferBytes` sets SO_RCVBUF before connecting (a small window makes the
    /// server's writes block early when the client does not read).
    init(port: Int, host: String = "127.0.0.1", timeoutSeconds: Int = 3, receiveBufferBytes: Int? = nil) throws {
        let isIPv6 = host.contains(":")
        fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(operation: "socket", code: errno) }
        if var size = receiveBufferBytes.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw SocketError(operation: "connect", code: code)
        }
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) { Self.send(bytes, to: fd) }

    /// Writes `bytes` to `fd`: for sending from another thread while this client reads (the
    /// client itself is not Sendable; the descriptor is).
    static func send(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Reads more bytes; false on EOF, error or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Reads one response (an interim 1xx counts as one). `bodyExpected: false` for HEAD.
    func readResponse(bodyExpected: Bool = true) -> WireResponse? {
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
                var headers = HTTPHeaders()
                for line in lines where !line.isEmpty {
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    headers.add(name: String(line[..<colon]),
                                value: String(line[line.index(after: colon)...]).trimmingCharacters(in: " "))
                }
                let length = (bodyExpected && status >= 200) ? Int(headers["Content-Length"] ?? "0") ?? 0 : 0
                while buffer.count < end + 4 + length {
                    guard fill() else { return nil }
                }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeSubrange(0..<(end + 4 + length))
                return WireResponse(status: status, headers: headers, body: body)
            }
            guard fill() else { return nil }
        }
    }

    /// Whether the server closed the connection (EOF or reset) within the read timeout,
    /// with no further bytes.
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let count = Glibc.read(fd, &byte, 1)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    /// The receive buffer the kernel actually granted (it doubles the requested size).
    var receiveBufferBytes: Int {
        var size: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, &length)
        return Int(size)
    }

    /// Half-closes the sending side.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}

/// Polls `condition` every 10 ms for at most `seconds`.
func waitUntil(seconds: Double = 3, _ condition: () -> Bool) -> Bool {
    for _ in 0..<Int(seconds * 100) {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// Both I/O backends: live tests run over each.
let ioBackends = HTTPServerConfiguration.IOBackend.allCases
typealias IOBackend = HTTPServerConfiguration.IOBackend

/// Starts a server on 127.0.0.1:0 with `backend` for one test and always shuts it down.
func withServer<R>(_ backend: IOBackend,
                   _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
                   handler: any HTTPHandler = TestHandler(),
                   _ body: (HTTPServer) throws -> R) throws -> R {
    var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.ioBackend = backend
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, handler: handler)
    try server.start()
    defer {
        server.shutdown(gracefully: false)
        server.waitUntilStopped()
    }
    return try body(server)
}

/// `TestHandler` counting the requests that reached it, so a test waits until a request is in
/// flight instead of sleeping a guess (a guess that a loaded machine can outlast).
final class ReachedCountingHandler: HTTPHandler {
    private let count = Locked(0)

    var reached: Int { count.withLock { $0 } }

    func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        count.withLock { $0 += 1 }
        TestHandler().handle(request, respond: respond)
    }
}

/// Echoes requests: "/slow?ms=N" answers after N ms from another queue, "/big" returns 5000
/// bytes, anything else "METHOD path body".
struct TestHandler: HTTPHandler {
    func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        switch request.path {
        case "/slow":
            let ms = Int(request.query?.split(separator: "=").last ?? "100") ?? 100
            let body = Array("slow \(ms)".utf8)
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(ms)) {
                respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: body))
            }
        case "/huge":
            respond(HTTPResponse(status: 200, body: [UInt8](repeating: UInt8(ascii: "h"), count: 16 << 20)))
        case "/big":
            let body = (0..<5000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: body))
        default:
            let text = "\(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self))"
            respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(text.utf8)))
        }
    }
}
