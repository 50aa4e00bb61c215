import Logging

/// A configuration value that could not be read.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public var setting: String
    public var value: String
    public var reason: String
    public var description: String { "\(setting): \"\(value)\" \(reason)" }
}

/// One setting of `ServiceConfiguration` as text: the command-line option `--<name>` and the
/// environment variable `LAYOUTD_<NAME>` both set it. One table, so the two never drift.
public struct ConfigurationSetting: Sendable {
    /// The option's name without dashes: `port`, `cache-bytes`.
    public let name: String
    public let help: String
    let apply: @Sendable (String, inout ServiceConfiguration) throws(ConfigurationError) -> Void

    /// `LAYOUTD_` and the name in upper snake case: `LAYOUTD_CACHE_BYTES`.
    public var environmentVariable: String {
        "LAYOUTD_" + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
    }
}

public enum ConfigurationSettings {
    /// Every setting, in the order `--help` lists them.
    public static let all: [ConfigurationSetting] = [
        text("host", "Address to listen on (numeric; 0.0.0.0 or :: for every interface).") { $1.http.host = $0 },
        int("port", "TCP port; 0 picks a free one.", range: 0...65535) { $1.http.port = $0 },
        bytes("cache-bytes", "Layout cache budget (bytes; k/M/G suffixes are binary); 0 turns the cache off.") { $1.cacheBytes = $0 },
        int("cache-shards", "Independently locked parts of the cache.", range: 1...1024) { $1.cacheShards = $0 },
        bytes("answer-cache-bytes", "Budget for whole /compute answers keyed by the exact request body (bytes); 0 turns it off.") {
            $1.answerCacheBytes = $0
        },
        int("max-batch-items", "Most requests in one /compute/batch array.", range: 1...1_000_000) { $1.maxBatchItems = $0 },
        int("max-nodes", "Most nodes in one layout tree.", range: 1...100_000_000) { $1.wire.maxNodes = $0 },
        int("max-depth", "Deepest nesting of nodes.", range: 1...1_000_000) {
            $1.wire.maxDepth = $0
            $1.wire.maxNesting = 2 * $0 + 16
        },
        bytes("max-string-bytes", "Longest string in a request.") { $1.wire.maxStringBytes = $0 },
        bytes("max-document-bytes", "Largest layout document (after inflating).") { $1.wire.maxDocumentBytes = $0 },
        bytes("max-body-bytes", "Largest HTTP request body as received.") { $1.http.maxBodyBytes = $0 },
        bytes("max-inflated-body-bytes", "Largest request body after inflating gzip.") { $1.http.maxInflatedBodyBytes = $0 },
        bytes("max-header-bytes", "Largest request head (request line and headers).") { $1.http.maxHeaderBytes = $0 },
        int("max-header-count", "Most header fields in one request.", range: 1...10_000) { $1.http.maxHeaderCount = $0 },
        bytes("max-buffered-response-bytes", "Unsent response bytes per connection above which it is read no further.") {
            $1.http.maxBufferedResponseBytes = $0
        },
        int("max-connections", "Most open connections; more wait in the backlog.", range: 1...1_000_000) { $1.http.maxConnections = $0 },
        seconds("header-timeout", "Seconds to receive a request head.") { $1.http.headerTimeout = $0 },
        seconds("body-timeout", "Seconds to receive a request body.") { $1.http.bodyTimeout = $0 },
        seconds("idle-timeout", "Seconds a keep-alive connection may stay idle.") { $1.http.idleTimeout = $0 },
        seconds("write-timeout", "Seconds a write may make no progress.") { $1.http.writeTimeout = $0 },
        seconds("shutdown-timeout", "Seconds SIGTERM/SIGINT waits for requests in flight before closing.") {
            $1.http.shutdownTimeout = $0
        },
        text("tls-cert", "PEM certificate chain: with --tls-key, serve HTTPS (TLS 1.2+) instead of HTTP.") {
            $1.http.tlsCertificatePath = $0
        },
        text("tls-key", "PEM private key for --tls-cert.") { $1.http.tlsKeyPath = $0 },
        text("io-backend", "event-loop (epoll loops; default on Linux) or dispatch (Dispatch sources per connection).") {
            (value, config) throws(ConfigurationError) in
            switch value.lowercased() {
            case "event-loop": config.http.ioBackend = .eventLoop
            case "dispatch": config.http.ioBackend = .dispatchSources
            default: throw ConfigurationError(setting: "io-backend", value: value, reason: "is not event-loop or dispatch")
            }
        },
        int("event-loops", "Event-loop threads for --io-backend event-loop; 0: one per CPU this process may run on.",
            range: 0...1024) { $1.http.eventLoopCount = $0 },
        bytes("inline-compute-max-bytes", "Bodies up to this size are laid out without a thread hop (0: never).") {
            $1.inlineComputeMaxBytes = $0
        },
        bytes("max-pending-compute-bytes",
              "Request body bytes of layout work queued or running; beyond it /compute answers 503 with Retry-After.") {
            $1.maxPendingComputeBytes = $0
        },
        bytes("render-cache-bytes", "Budget for /render pictures (bytes); 0 turns it off.") { $1.renderCacheBytes = $0 },
        int("max-render-pixels", "Largest /render picture in device pixels (width x height); beyond it 413.",
            range: 1...(1 << 30)) { $1.maxRenderPixels = $0 },
        flag("gzip", "Gzip responses for clients that accept it (true/false).") { $1.http.responseCompression.enabled = $0 },
        text("log-level", "trace, debug, info (one line per request), notice, warning, error or critical.") {
            (value, config) throws(ConfigurationError) in
            guard let level = Logger.Level(rawValue: value.lowercased()) else {
                throw ConfigurationError(setting: "log-level", value: value,
                                         reason: "is not one of trace, debug, info, notice, warning, error, critical")
            }
            config.logLevel = level
        },
    ]

    /// The setting called `name`, if any.
    public static func setting(_ name: String) -> ConfigurationSetting? {
        all.first { $0.name == name }
    }

    /// The defaults, overridden by the environment's `LAYOUTD_*` variables, overridden by
    /// command-line values (keyed by setting name).
    public static func resolve(commandLine: [String: String],
                               environment: [String: String]) throws(ConfigurationError) -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        for setting in all {
            if let value = environment[setting.environmentVariable] {
                try setting.apply(value, &configuration)
            }
        }
        for setting in all {
            if let value = commandLine[setting.name] {
                try setting.apply(value, &configuration)
            }
        }
        if (configuration.http.tlsCertificatePath == nil) != (configuration.http.tlsKeyPath == nil) {
            let given = configuration.http.tlsCertificatePath == nil ? "tls-key" : "tls-cert"
            throw ConfigurationError(setting: given, value: configuration.http.tlsCertificatePath ?? configuration.http.tlsKeyPath ?? "",
                                     reason: "needs both --tls-cert and --tls-key")
        }
        return configuration
    }

    // MARK: - Value kinds

    private static func text(_ name: String, _ help: String,
                             _ apply: @escaping @Sendable (String, inout ServiceConfiguration) throws(ConfigurationError) -> Void) -> ConfigurationSetting {
        ConfigurationSetting(name: name, help: help, apply: apply)
    }

    private static func int(_ name: String, _ help: String, range: ClosedRange<Int>,
                            _ apply: @escaping @Sendable (Int, inout ServiceConfiguration) -> Void) -> ConfigurationSetting {
        ConfigurationSetting(name: name, help: help) { (value, config) throws(ConfigurationError) in
            guard let number = Int(String(Substring(value).trimmingSpaces)), range.contains(number) else {
                throw ConfigurationError(setting: name, value: value,
                                         reason: "is not a whole number in \(range.lowerBound)...\(range.upperBound)")
            }
            apply(number, &config)
        }
    }

    private static func bytes(_ name: String, _ help: String,
                              _ apply: @escaping @Sendable (Int, inout ServiceConfiguration) -> Void) -> ConfigurationSetting {
        ConfigurationSetting(name: name, help: help) { (value, config) throws(ConfigurationError) in
            guard let count = parseByteCount(value) else {
                throw ConfigurationError(setting: name, value: value,
                                         reason: "is not a byte count (like 65536, 64k, 64MiB or 1G)")
            }
            apply(count, &config)
        }
    }

    private static func seconds(_ name: String, _ help: String,
                                _ apply: @escaping @Sendable (Duration, inout ServiceConfiguration) -> Void) -> ConfigurationSetting {
        ConfigurationSetting(name: name, help: help) { (value, config) throws(ConfigurationError) in
            guard let seconds = Double(String(Substring(value).trimmingSpaces)), seconds.isFinite, seconds > 0,
                  seconds <= 86_400 else {
                throw ConfigurationError(setting: name, value: value, reason: "is not a number of seconds in (0, 86400]")
            }
            apply(.nanoseconds(Int64(seconds * 1e9)), &config)
        }
    }

    private static func flag(_ name: String, _ help: String,
                             _ apply: @escaping @Sendable (Bool, inout ServiceConfiguration) -> Void) -> ConfigurationSetting {
        ConfigurationSetting(name: name, help: help) { (value, config) throws(ConfigurationError) in
            switch value.lowercased() {
            case "1", "true", "yes", "on": apply(true, &config)
            case "0", "false", "no", "off": apply(false, &config)
            default: throw ConfigurationError(setting: name, value: value, reason: "is not true or false")
            }
        }
    }

    /// `65536`, `64k`, `64KiB`, `64M`, `64MiB`, `1G`, `1GiB` (suffixes are powers of 1024).
    public static func parseByteCount(_ text: String) -> Int? {
        let trimmed = String(Substring(text).trimmingSpaces)
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits) else { return nil }
        let shift: Int
        switch trimmed.dropFirst(digits.count).lowercased() {
        case "", "b": shift = 0
        case "k", "kb", "kib": shift = 10
        case "m", "mb", "mib": shift = 20
        case "g", "gb", "gib": shift = 30
        default: return nil
        }
        let (value, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? nil : value
    }
}
