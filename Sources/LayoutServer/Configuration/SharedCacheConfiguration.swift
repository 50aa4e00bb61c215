/// The shared second-level cache in Redis (`--shared-cache` and its settings): off by default.
public struct SharedCacheConfiguration: Sendable {
    /// `redis://HOST:PORT[/DB]`; empty turns the shared cache off. Default empty.
    public var url = ""
    /// How long Redis keeps a layout. Default 1 hour.
    public var ttl: Duration = .seconds(3600)
    /// Longest wait to connect, send a command or read its answer. Default 5 ms: a loopback or
    /// same-zone Redis answers in well under 1 ms, and a slow Redis must not slow the service.
    public var timeout: Duration = .milliseconds(5)
    /// Most connections to Redis per process (lookups never wait for one: when all are busy
    /// the lookup is skipped). Default 8.
    public var poolSize = 8
    /// After 3 failures in a row, Redis is not called for this long; then one probe. Default 1 s.
    public var backoff: Duration = .seconds(1)
    /// Most stores waiting for the background writer; more are dropped (and counted). Default 1024.
    public var writeQueue = 1024

    public init() {}

    /// Whether a shared cache is configured.
    public var isEnabled: Bool { !url.isEmpty }
}
