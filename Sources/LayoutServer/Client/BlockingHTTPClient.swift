#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal blocking HTTP/1.1 client over one TCP connection per request (`Connection: close`):
/// enough for `layoutd healthcheck` and for tests, without Foundation's URLSession. Reads the
/// whole response until the server closes; every wait is bounded by `timeoutSeconds`.
public struct BlockingHTTPClient: Sendable {
    public struct Response: Sendable {
        public var status: Int
        /// Header fields in order, names as sent.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// The first value of `name`, compared without regard to case.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Numeric IPv4 or IPv6 address.
    public var host: String
    public var port: Int
    public var timeoutSeconds: Int

    public init(host: String = "127.0.0.1", port: Int, timeoutSeconds: Int = 10) {
        self.host = host
        self.port = port
        self.timeoutSeconds = timeoutSeconds
    }

    /// Sends one request and returns the response the server sent before closing.
    public func send(_ method: String, _ path: String, headers: [(String, String)] = [],
                     body: [UInt8] = []) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let raw = try exchange(Array(head.utf8) + body)
        return try Self.parse(raw, method: method)
    }

    /// Sends `bytes` as they are and returns everything the server answers until it closes.
    public func exchange(_ bytes: [UInt8]) throws -> [UInt8] {
        let fd = try connectSocket()
        defer { close(fd) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { sendSome(fd, $0.baseAddress! + sent, bytes.count - sent, Self.noSignal) }
            if n <= 0 { throw Failure(description: "send failed: errno \(errno)") }
            sent += n
        }
        shutdown(fd, Int32(SHUT_WR))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                // A reset after a complete answer (server closing with unread input) still counts.
                if !received.isEmpty && errno == ECONNRESET { break }
                throw Failure(description: "recv failed: errno \(errno)")
            }
            received.append(contentsOf: buffer[0..<n])
        }
        return received
    }

    /// `send` flags: no SIGPIPE when the server has closed (Darwin sets SO_NOSIGPIPE instead).
    #if canImport(Darwin)
    private static let noSignal: Int32 = 0
    #else
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #endif

    private func connectSocket() throws -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let info = list else {
            throw Failure(description: "not a numeric address: \(host)")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
        #if canImport(Darwin)
        var one: Int32 = 1  // Darwin has no MSG_NOSIGNAL: a closed peer must not raise SIGPIPE
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "cannot connect to \(host):\(port): errno \(code)")
        }
        return fd
    }

    /// Splits a raw response into status, headers and body (Content-Length framed, or the rest).
    static func parse(_ raw: [UInt8], method: String) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else {
            throw Failure(description: "incomplete response (\(raw.count) bytes)")
        }
        let lines = Self.split(Array(raw[..<headEnd]), separator: [13, 10])
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line: \(lines[0])")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
        var body = Array(raw[(headEnd + 4)...])
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) }
        if method == "HEAD" || status == 304 || status == 204 {
            body = []
        } else if let length, length <= body.count {
            body = Array(body[..<length])
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// The pieces of `bytes` between occurrences of `separator`, as text.
    static func split(_ bytes: [UInt8], separator: [UInt8]) -> [String] {
        var lines: [String] = []
        var start = 0
        var index = 0
        while index + separator.count <= bytes.count {
            if bytes[index..<(index + separator.count)].elementsEqual(separator) {
                lines.append(String(decoding: bytes[start..<index], as: UTF8.self))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        lines.append(String(decoding: bytes[start...], as: UTF8.self))
        return lines
    }
}

/// libc's `send(2)`, named apart from `BlockingHTTPClient.send`.
private func sendSome(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, bytes, count, flags)
}
