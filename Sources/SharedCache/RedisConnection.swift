import CHiredis
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One blocking hiredis connection with connect and command timeouts. Used by one thread at a
/// time (`RedisPool` hands it out exclusively); after any error it is broken and must be
/// dropped (hiredis leaves a context unusable after an I/O or protocol error).
public final class RedisConnection: @unchecked Sendable {
    // @unchecked: the context is only touched by the one caller holding the connection (the
    // pool's checkout), never by two threads at once.
    private let context: UnsafeMutablePointer<redisContext>

    /// Connects to `endpoint` within `timeout`, authenticates and selects the database; every
    /// later command also times out after `timeout`.
    public init(endpoint: RedisEndpoint, timeout: Duration) throws(RedisError) {
        let interval = Self.interval(timeout)
        guard let context = redisConnectWithTimeout(endpoint.host, Int32(endpoint.port), interval) else {
            throw .connection("cannot allocate a hiredis context")
        }
        // From here a throw still runs deinit (every stored property is set), which frees it.
        self.context = context
        if context.pointee.err != 0 { throw Self.error(of: context, errno: errno) }
        guard redisSetTimeout(context, interval) == REDIS_OK else { throw Self.error(of: context, errno: errno) }
        if let password = endpoint.password {
            let arguments = [Array("AUTH".utf8)] + (endpoint.user.map { [Array($0.utf8)] } ?? []) + [Array(password.utf8)]
            _ = try command(arguments)
        }
        if endpoint.database != 0 {
            _ = try command([Array("SELECT".utf8), Array(String(endpoint.database).utf8)])
        }
    }

    deinit {
        redisFree(context)
    }

    /// A reply, reduced to what this client needs.
    public enum Reply: Sendable, Equatable {
        case string([UInt8])
        case status(String)
        case integer(Int)
        case null
        case other
    }

    /// `GET key`: the value, or nil when the key does not exist.
    public func get(_ key: [UInt8]) throws(RedisError) -> [UInt8]? {
        switch try command([Array("GET".utf8), key]) {
        case .string(let value): return value
        case .null: return nil
        default: throw .server("GET answered something other than a string")
        }
    }

    /// `SET key value PX ttl`: stores `value`, expiring after `ttl` (at least 1 ms).
    public func set(_ key: [UInt8], _ value: [UInt8], ttl: Duration) throws(RedisError) {
        let milliseconds = max(1, ttl.components.seconds * 1000 + ttl.components.attoseconds / 1_000_000_000_000_000)
        _ = try command([Array("SET".utf8), key, value, Array("PX".utf8), Array(String(milliseconds).utf8)])
    }

    /// Sends one command (each argument binary-safe) and reads its reply.
    public func command(_ arguments: [[UInt8]]) throws(RedisError) -> Reply {
        let raw: UnsafeMutableRawPointer? = Self.withArgv(arguments) { argv, lengths in
            redisCommandArgv(context, Int32(arguments.count), argv, lengths)
        }
        guard let raw else { throw Self.error(of: context, errno: errno) }
        let reply = raw.assumingMemoryBound(to: redisReply.self)
        defer { freeReplyObject(raw) }
        switch reply.pointee.type {
        case REDIS_REPLY_STRING:
            let length = Int(reply.pointee.len)
            guard length > 0, let bytes = reply.pointee.str else { return .string([]) }
            return .string(Array(UnsafeRawBufferPointer(start: bytes, count: length)))
        case REDIS_REPLY_STATUS:
            return .status(reply.pointee.str.map { String(cString: $0) } ?? "")
        case REDIS_REPLY_ERROR:
            throw .server(reply.pointee.str.map { String(cString: $0) } ?? "error")
        case REDIS_REPLY_INTEGER:
            return .integer(Int(reply.pointee.integer))
        case REDIS_REPLY_NIL:
            return .null
        default:
            return .other
        }
    }

    /// Calls `body` with C argument pointers and lengths that stay valid for the call.
    private static func withArgv<R>(_ arguments: [[UInt8]],
                                    _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R) -> R {
        // One contiguous copy of every argument, pointed into.
        var joined: [UInt8] = []
        joined.reserveCapacity(arguments.reduce(0) { $0 + $1.count })
        var offsets: [Int] = []
        for argument in arguments {
            offsets.append(joined.count)
            joined += argument
        }
        let lengths = arguments.map(\.count)
        return joined.withUnsafeBytes { storage in
            let base = storage.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) }
                ?? UnsafePointer<CChar>(bitPattern: 1)!  // all arguments empty: never read
            var pointers: [UnsafePointer<CChar>?] = offsets.map { base + $0 }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { body(argv.baseAddress!, $0.baseAddress!) }
            }
        }
    }

    private static func interval(_ duration: Duration) -> timeval {
        let (seconds, attoseconds) = duration.components
        return timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }

    /// The context's error as a `RedisError`; a timed-out socket read or write (EAGAIN under
    /// SO_RCVTIMEO/SO_SNDTIMEO) or connect (ETIMEDOUT, EINPROGRESS) is a timeout.
    private static func error(of context: UnsafeMutablePointer<redisContext>, errno code: Int32) -> RedisError {
        let message = withUnsafeBytes(of: context.pointee.errstr) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let err = context.pointee.err
        if err == REDIS_ERR_IO && [EAGAIN, EWOULDBLOCK, ETIMEDOUT, EINPROGRESS].contains(code) { return .timeout }
        if message.contains("timed out") || message.contains("temporarily unavailable") { return .timeout }
        if err == REDIS_ERR_PROTOCOL || err == REDIS_ERR_OOM { return .server(message) }
        return .connection(message.isEmpty ? "error \(err)" : message)
    }
}
