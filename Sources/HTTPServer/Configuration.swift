/// Everything the server can be told. Every limit is explicit; defaults are listed per field.
public struct HTTPServerConfiguration: Sendable {
    /// Numeric address to bind: "127.0.0.1" (default), "0.0.0.0", "::1" or "::"
    /// ("::" also accepts IPv4 clients: IPV6_V6ONLY is turned off).
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks an ephemeral port (read it back from `HTTPServer.boundPort`). Default 8080.
    public var port: Int = 8080
    /// listen(2) backlog. Default 511.
    public var backlog: Int = 511
    /// Open connections at most; beyond it the server stops accepting (clients wait in the
    /// backlog) until one closes. Lowered at start to keep descriptors in reserve below
    /// RLIMIT_NOFILE (see `HTTPServer.effectiveMaxConnections`). Default 10,000.
    public var maxConnections: Int = 10_000

    /// Longest request line (method, target, version) in bytes → 414. Default 8 KiB.
    public var maxRequestLineBytes: Int = 8 * 1024
    /// Longest request head (request line + header fields) in bytes → 431; also bounds
    /// chunked trailers. Default 16 KiB.
    public var maxHeaderBytes: Int = 16 * 1024
    /// Most header fields in one request → 431. Default 100.
    public var maxHeaderCount: Int = 100
    /// Largest request body as received (after de-chunking) → 413. Default 8 MiB.
    public var maxBodyBytes: Int = 8 * 1024 * 1024
    /// Largest request body after inflating `Content-Encoding: gzip` → 413. Default 8 MiB.
    public var maxInflatedBodyBytes: Int = 8 * 1024 * 1024
    /// Requests read ahead of their responses on one connection (pipelining); reading pauses
    /// beyond it. Default 16.
    public var maxPipelinedRequests: Int = 16
    /// Unsent response bytes on one connection above which the server stops reading from it
    /// and hands its handler no further requests (a client that does not read its answers
    /// gets no more work and no more buffered output); both resume once the output drains to
    /// the bound. Pipelined requests run concurrently only while the unsent output plus their
    /// expected answers (sized like the connection's latest answer; the whole bound before the
    /// first) fit in it. A connection that stays above it is closed at `writeTimeout`.
    /// Default 1 MiB.
    public var maxBufferedResponseBytes: Int = 1024 * 1024
    /// Output buffered across all connections (unsent answers, plus the answers of running
    /// handlers as expected): beyond it no connection takes a new request (one is always taken
    /// when nothing is buffered), and connections whose writes have stalled for 0.5 s and hold
    /// at least the stalled connections' average (or have stalled for 1 s) are closed while it
    /// is passed or others wait for room. Default 16 MiB (with the service's 64 MiB of caches
    /// and ~20 MB of process, within 100 MB resident).
    public var maxBufferedOutputBytesTotal: Int = 16 * 1024 * 1024
    /// Input buffered across all connections (received bytes not yet taken as requests):
    /// beyond it connections holding part of a request stop reading, and those paused for
    /// 0.5 s holding at least the average of those holding input (or paused for 1 s) are
    /// closed. Default 16 MiB (two request bodies of the largest default size).
    public var maxBufferedInputBytesTotal: Int = 16 * 1024 * 1024
    /// Capacity a connection's input and output buffers may each keep once emptied, so the
    /// next request needs no allocation; a buffer grown larger (a big body or answer) is
    /// freed, so hundreds of keep-alive connections do not each keep their largest message's
    /// buffer. Default 4 KiB: an ordinary request and answer fit. In the soak (256
    /// connections) malloc's in-use bytes fell by ~7 MB when the connections closed with
    /// 16 KiB kept per buffer (before this setting: 64 KiB input, 16 KiB output), by ~3.8 MB
    /// with 4 KiB; a buffer's capacity only grows, so the larger bound also let it creep.
    public var retainedBufferBytes: Int = 4 * 1024

    /// How connections' sockets are driven. Default `.eventLoop` on Linux, `.dispatchSources`
    /// elsewhere.
    public var ioBackend: IOBackend = .platformDefault
    /// Event loops (threads) for `.eventLoop`: connections are spread over them round-robin.
    /// 0 (default): one per CPU this process may run on (so `taskset -c 0` gives one).
    /// Ignored by `.dispatchSources`.
    public var eventLoopCount: Int = 0

    /// Time from a connection's first byte of a request (or from accept) to its complete head
    /// → 408 and close (slowloris bound). Default 10 s.
    public var headerTimeout: Duration = .seconds(10)
    /// Time to receive a body once the head is in → 408 and close. Default 30 s.
    public var bodyTimeout: Duration = .seconds(30)
    /// Keep-alive: how long an idle connection stays open between requests. Default 30 s.
    public var idleTimeout: Duration = .seconds(30)
    /// How long a blocked write may make no progress (slow reader) before the connection is
    /// closed. Default 30 s.
    public var writeTimeout: Duration = .seconds(30)
    /// After an error response, how long the server keeps reading (and discarding) so that
    /// the client sees the response rather than a reset. Default 2 s.
    public var lingerTimeout: Duration = .seconds(2)

    /// How long a graceful shutdown started by `stopOnSignals()` waits for in-flight
    /// requests before closing everything. Default 10 s.
    public var shutdownTimeout: Duration = .seconds(10)

    /// gzip for responses when the client accepts it. Default on, ≥ 1 KiB bodies.
    public var responseCompression: ResponseCompression = .init()
    /// PEM certificate chain and private key: when both are set the server speaks TLS
    /// (1.2 or newer, OpenSSL); the handshake must finish within `headerTimeout`.
    /// Default nil: plain TCP.
    public var tlsCertificatePath: String? = nil
    public var tlsKeyPath: String? = nil

    /// Value of the Server header; nil (default) sends none.
    public var serverName: String? = nil

    /// The body of the answers the HTTP layer gives by itself (malformed or oversized
    /// requests, timeouts). Default `.plainText`; a service supplies its own error format.
    public var errorBody: HTTPErrorBodyFormat = .plainText

    public init() {}

    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }

    /// Response compression settings.
    public struct ResponseCompression: Sendable {
        /// Whether responses may be gzip-compressed. Default true.
        public var enabled: Bool = true
        /// Smallest body worth compressing, in bytes. Default 1024.
        public var minimumBytes: Int = 1024
        /// zlib level 1...9. Default 5 (a speed/size balance for JSON).
        public var level: Int = 5
        public init(enabled: Bool = true, minimumBytes: Int = 1024, level: Int = 5) {
            self.enabled = enabled
            self.minimumBytes = minimumBytes
            self.level = level
        }
    }

    /// How connections' sockets are driven.
    public enum IOBackend: String, Sendable, CaseIterable {
        /// Dispatch read/write sources and a timer per connection, on serial queues that
        /// target one concurrent queue: a handler that blocks holds only its own connection.
        case dispatchSources = "dispatch"
        /// Edge-triggered epoll event loops (Linux; elsewhere the Dispatch backend is used):
        /// fewer syscalls and thread wake-ups per request, but handlers run on the loop's
        /// thread and must not block (see `HTTPHandler`).
        case eventLoop = "event-loop"

        /// `.eventLoop` on Linux, `.dispatchSources` elsewhere.
        public static var platformDefault: IOBackend {
            #if os(Linux)
            return .eventLoop
            #else
            return .dispatchSources
            #endif
        }
    }

    var parserLimits: RequestParser.Limits {
        .init(maxRequestLineBytes: maxRequestLineBytes, maxHeaderBytes: maxHeaderBytes,
              maxHeaderCount: maxHeaderCount, maxBodyBytes: maxBodyBytes, retainedBufferBytes: retainedBufferBytes)
    }
}

extension Duration {
    /// Nanoseconds, saturating, for Dispatch deadlines.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        if seconds > 1_000_000_000 { return 1_000_000_000 * 1_000_000_000 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
