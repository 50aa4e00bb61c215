import Foundation
import LayoutEngine
import Logging
import SharedCache

/// A configuration value that could not be read.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public var setting: String
    public var value: String
    public var reason: String
    public var description: String { "\(setting): \"\(value)\" \(reason)" }
}

/// One setting of `ServiceConfiguration` as text: the command-line option `--<name>` and the
/// environment variable `LAYOUTD_<NAME>` both set it. `ConfigurationSettings.all` is the one
/// list: `layoutd serve`'s options, its help and the environment are all made from it.
public struct ConfigurationSetting: Sendable {
    /// The option's name without dashes: `port`, `cache-bytes`.
    public let name: String
    public let help: String
    /// What the value is, for help: `bytes`, `seconds`, `event-loop|dispatch`.
    public let valueName: String
    let apply: @Sendable (String, inout ServiceConfiguration) throws(ConfigurationError) -> Void
    /// The value `configuration` holds, spelled as the option takes it (nil: not set).
    let show: @Sendable (ServiceConfiguration) -> String?
    /// For list settings: a repeated option's values are joined with this (nil: the last wins).
    public internal(set) var repeatedValuesJoin: String? = nil

    /// `LAYOUTD_` and the name in upper snake case: `LAYOUTD_CACHE_BYTES`.
    public var environmentVariable: String {
        "LAYOUTD_" + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    /// The value `configuration` holds for this setting, spelled as the option takes it.
    public func value(in configuration: ServiceConfiguration) -> String? { show(configuration) }

    /// The default, spelled as the option takes it (`32MiB`, `10s`, `info`); nil when unset.
    public var defaultValue: String? { show(ServiceConfiguration()) }
}

public enum ConfigurationSettings {
    /// Every setting, in the order `--help` lists them. A new setting is one entry here (and a
    /// row in the README's Configuration table, which a test holds to this list).
    public static let all: [ConfigurationSetting] = [
        text("host", "Address to listen on (numeric; 0.0.0.0 or :: for every interface).", value: "address", \.http.host),
        int("port", "TCP port; 0 picks a free one.", range: 0...65535, \.http.port),
        bytes("cache-bytes", "Layout cache budget (bytes; k/M/G suffixes are binary); 0 turns the cache off.", \.cacheBytes),
        int("cache-shards", "Independently locked parts of the cache.", range: 1...1024, \.cacheShards),
        bytes("answer-cache-bytes", "Budget for whole /compute answers keyed by the exact request body (bytes); 0 turns it off.",
              \.answerCacheBytes),
        bytes("patch-base-bytes", "Budget for the earlier trees /compute/patch applies patches to (bytes); 0 keeps none.",
              \.patchBaseBytes),
        flag("patch-keeps-computed-trees",
             "Keep each /compute answer's laid-out tree for its first patch, not its body alone (true/false; ~1 MB and 6-15 % of a miss's CPU per 1,000 nodes).",
             \.patchKeepsComputedTrees),
        int("max-patch-operations", "Most operations in one /compute/patch patch.", range: 1...1_000_000, \.maxPatchOperations),
        bytes("max-patch-bytes", "Largest /compute/patch request body.", \.maxPatchBytes),
        bytes("subtree-cache-bytes",
              "Budget for layouts of repeated subtrees kept across requests (bytes); 0 turns it off (repeats within a request are still laid out once).",
              \.subtreeCacheBytes),
        bytes("tree-pool-bytes",
              "Budget for the node arrays of large trees (2,048 nodes or more) kept for the next large trees (bytes); 0 keeps none.",
              \.treePoolBytes),
        int("max-batch-items", "Most requests in one /compute/batch array.", range: 1...1_000_000, \.maxBatchItems),
        int("max-nodes", "Most nodes in one layout tree.", range: 1...100_000_000, \.wire.maxNodes),
        int("max-depth", "Deepest nesting of nodes.", range: 1...1_000_000, \.wire.maxDepth) {
            $0.wire.maxNesting = 2 * $0.wire.maxDepth + 16
        },
        int("max-size-reference-chain", "Longest chain of sizes taken from other nodes ({\"of\": id}); one layout pass per link.",
            range: 0...1_000, \.wire.maxSizeReferenceChain),
        bytes("max-string-bytes", "Longest string in a request.", \.wire.maxStringBytes),
        bytes("max-document-bytes", "Largest layout document (after inflating).", \.wire.maxDocumentBytes),
        bytes("max-body-bytes", "Largest HTTP request body as received.", \.http.maxBodyBytes),
        bytes("max-inflated-body-bytes", "Largest request body after inflating gzip.", \.http.maxInflatedBodyBytes),
        bytes("max-header-bytes", "Largest request head (request line and headers).", \.http.maxHeaderBytes),
        int("max-header-count", "Most header fields in one request.", range: 1...10_000, \.http.maxHeaderCount),
        bytes("max-buffered-response-bytes", "Unsent response bytes per connection above which it is read no further.",
              \.http.maxBufferedResponseBytes),
        bytes("max-buffered-output-bytes-total",
              "Unsent response bytes across all connections above which none takes a new request; stalled connections holding the most are closed.",
              \.http.maxBufferedOutputBytesTotal),
        bytes("max-buffered-input-bytes-total",
              "Received, unparsed bytes across all connections above which those holding part of a request stop reading.",
              \.http.maxBufferedInputBytesTotal),
        bytes("retained-buffer-bytes",
              "Capacity a connection's input and output buffers may each keep between requests; larger ones are freed.",
              \.http.retainedBufferBytes),
        int("max-connections", "Most open connections; more wait in the backlog.", range: 1...1_000_000, \.http.maxConnections),
        seconds("header-timeout", "Seconds to receive a request head.", \.http.headerTimeout),
        seconds("body-timeout", "Seconds to receive a request body.", \.http.bodyTimeout),
        seconds("idle-timeout", "Seconds a keep-alive connection may stay idle.", \.http.idleTimeout),
        seconds("write-timeout", "Seconds a write may make no progress.", \.http.writeTimeout),
        seconds("shutdown-timeout", "Seconds SIGTERM/SIGINT waits for requests in flight before closing.", \.http.shutdownTimeout),
        text("tls-cert", "PEM certificate chain: with --tls-key, serve HTTPS (TLS 1.2+) instead of HTTP.",
             value: "file", \.http.tlsCertificatePath),
        text("tls-key", "PEM private key for --tls-cert.", value: "file", \.http.tlsKeyPath),
        choice("io-backend", "event-loop (epoll loops; default on Linux) or dispatch (Dispatch sources per connection).",
               [("event-loop", .eventLoop), ("dispatch", .dispatchSources)], \.http.ioBackend),
        int("event-loops", "Event-loop threads for --io-backend event-loop; 0: one per CPU this process may run on.",
            range: 0...1024, \.http.eventLoopCount),
        bytes("inline-compute-max-bytes",
              "Bodies up to this size are laid out without a thread hop: /compute with --io-backend dispatch, /compute/patch in place on a kept tree of at most --inline-patch-max-nodes (0: never).",
              \.inlineComputeMaxBytes),
        int("inline-patch-max-nodes",
            "Most nodes of a kept tree that a /compute/patch edits in place without a thread hop, on any backend (0: never).",
            range: 0...1_000_000, \.inlinePatchMaxNodes),
        bytes("max-pending-compute-bytes",
              "Request body bytes of layout work queued or running; beyond it /compute answers 503 with Retry-After.",
              \.maxPendingComputeBytes),
        bytes("max-compute-memory-bytes",
              "Estimated memory of large layouts running at once; beyond it they wait (as much again), then 503 (one always runs; 0: no bound).",
              \.maxComputeMemoryBytes),
        seconds("malloc-trim-interval", "Seconds between returns of malloc's free pages to the system, also done after each layout above a quarter of max-compute-memory-bytes (0: never).",
                allowsZero: true, \.mallocTrimInterval),
        bytes("render-cache-bytes", "Budget for /render pictures (bytes); 0 turns it off.", \.renderCacheBytes),
        int("max-render-pixels", "Largest /render picture in device pixels (width x height); beyond it 413.",
            range: 1...(1 << 30), \.maxRenderPixels),
        seconds("drain-delay", "After SIGTERM, seconds /readyz answers 503 while requests are still served, before draining.",
                allowsZero: true, \.drainDelay),
        setting("shared-cache", "Shared layout cache in Redis, redis://HOST:PORT[/DB] (empty: off).", valueName: "url",
                \.sharedCache.url, reason: "is not a redis://HOST[:PORT][/DB] URL",
                parse: { text in text.isEmpty || RedisEndpoint(url: text) != nil ? text : nil }, spell: { $0 }),
        seconds("shared-cache-ttl", "Seconds Redis keeps a layout.", \.sharedCache.ttl),
        seconds("shared-cache-timeout", "Seconds to connect to Redis or get an answer; past it, computed locally.",
                \.sharedCache.timeout),
        int("shared-cache-pool", "Most connections to Redis.", range: 1...1024, \.sharedCache.poolSize),
        seconds("shared-cache-backoff", "Seconds Redis is not called after 3 failures in a row (then one probe).",
                \.sharedCache.backoff),
        int("shared-cache-write-queue", "Most layouts waiting to be stored in Redis; more are dropped.",
            range: 1...1_000_000, \.sharedCache.writeQueue),
        setting("cache-key-secret",
                "Secret of the cache key's hash (32 hex digits; `random`: new per process). Replicas sharing a cache need the same one.",
                valueName: "hex", \.cacheKeySecret, reason: "is not 32 hex digits (a 128-bit key) or random",
                parse: { text in text == "random" ? .some(nil) : StructuralHashKey(hex: text).map { .some($0) } },
                spell: { $0?.hexString ?? "random" }),
        flag("gzip", "Gzip responses for clients that accept it (true/false).", \.http.responseCompression.enabled),
        choice("log-level", "trace, debug, info (one line per request), notice, warning, error or critical.",
               Logger.Level.allCases.map { ($0.rawValue, $0) }, \.logLevel),
        directories("font-dir", "Font files (.ttf, .otf, .ttc) under this directory join the bundled DejaVu fonts; repeatable (in the environment, :-separated).",
                    \.fontDirectories),
        int("shape-cache-entries", "Most shaped words the text shaping cache keeps.", range: 2...100_000_000, \.shapeCacheEntries),
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
        // Replicas find each other's layouts in Redis only under one cache key: a random
        // per-process secret would make every shared entry unreachable to the others.
        if !configuration.sharedCache.url.isEmpty && configuration.cacheKeySecret == nil {
            throw ConfigurationError(setting: "shared-cache", value: configuration.sharedCache.url,
                                     reason: "needs --cache-key-secret (the same 32 hex digits on every replica)")
        }
        return configuration
    }

    // MARK: - Value kinds

    /// A field of the configuration; `Sendable` because the settings are shared constants.
    private typealias Field<Value> = WritableKeyPath<ServiceConfiguration, Value> & Sendable

    /// The one way a setting is made: `parse` reads the text (nil: refused with `reason`),
    /// `field` holds the value, `spell` writes it back for help, `then` keeps dependent fields
    /// in step.
    private static func setting<Value>(_ name: String, _ help: String, valueName: String, _ field: Field<Value>,
                                       reason: String, parse: @escaping @Sendable (String) -> Value?,
                                       spell: @escaping @Sendable (Value) -> String?,
                                       then: (@Sendable (inout ServiceConfiguration) -> Void)? = nil) -> ConfigurationSetting {
        ConfigurationSetting(name: name, help: help, valueName: valueName, apply: { (text, configuration) throws(ConfigurationError) in
            guard let value = parse(text) else { throw ConfigurationError(setting: name, value: text, reason: reason) }
            configuration[keyPath: field] = value
            then?(&configuration)
        }, show: { spell($0[keyPath: field]) })
    }

    private static func text(_ name: String, _ help: String, value: String, _ field: Field<String>) -> ConfigurationSetting {
        setting(name, help, valueName: value, field, reason: "", parse: { $0 }, spell: { $0 })
    }

    private static func text(_ name: String, _ help: String, value: String, _ field: Field<String?>) -> ConfigurationSetting {
        setting(name, help, valueName: value, field, reason: "", parse: { $0 }, spell: { $0 })
    }

    private static func int(_ name: String, _ help: String, range: ClosedRange<Int>, _ field: Field<Int>,
                            then: (@Sendable (inout ServiceConfiguration) -> Void)? = nil) -> ConfigurationSetting {
        setting(name, help, valueName: "n", field,
                reason: "is not a whole number in \(range.lowerBound)...\(range.upperBound)",
                parse: { text in Int(String(Substring(text).trimmingSpaces)).flatMap { range.contains($0) ? $0 : nil } },
                spell: { String($0) }, then: then)
    }

    private static func bytes(_ name: String, _ help: String, _ field: Field<Int>) -> ConfigurationSetting {
        setting(name, help, valueName: "bytes", field, reason: "is not a byte count (like 65536, 64k, 64MiB or 1G)",
                parse: { parseByteCount($0) }, spell: { spellByteCount($0) })
    }

    /// Seconds as a number, optionally followed by `s` (`10`, `2.5`, `10s`).
    private static func seconds(_ name: String, _ help: String, allowsZero: Bool = false,
                                _ field: Field<Duration>) -> ConfigurationSetting {
        setting(name, help, valueName: "seconds", field,
                reason: "is not a number of seconds in \(allowsZero ? "[" : "(")0, 86400]",
                parse: { text in
                    var number = Substring(text).trimmingSpaces
                    if number.last == "s" { number = number.dropLast() }
                    guard let seconds = Double(String(number)), seconds.isFinite, seconds > 0 || (allowsZero && seconds == 0),
                          seconds <= 86_400 else {
                        return nil
                    }
                    return .nanoseconds(Int64(seconds * 1e9))
                },
                spell: { duration in
                    let (seconds, attoseconds) = duration.components
                    return attoseconds == 0 ? "\(seconds)s" : "\(Double(seconds) + Double(attoseconds) / 1e18)s"
                })
    }

    private static func flag(_ name: String, _ help: String, _ field: Field<Bool>) -> ConfigurationSetting {
        setting(name, help, valueName: "true|false", field, reason: "is not true or false",
                parse: { text in
                    switch text.lowercased() {
                    case "1", "true", "yes", "on": return true
                    case "0", "false", "no", "off": return false
                    default: return nil
                    }
                },
                spell: { String($0) })
    }

    /// Directories, `:`-separated, each of which must exist; a repeated option adds to them.
    private static func directories(_ name: String, _ help: String, _ field: Field<[String]>) -> ConfigurationSetting {
        var directories = setting(name, help, valueName: "dir", field, reason: "names something that is not a directory",
                                  parse: { text in
                                      let paths = text.split(separator: ":").map(String.init).filter { !$0.isEmpty }
                                      for path in paths {
                                          var isDirectory: ObjCBool = false
                                          guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                                                isDirectory.boolValue else { return nil }
                                      }
                                      return paths
                                  },
                                  spell: { $0.isEmpty ? nil : $0.joined(separator: ":") })
        directories.repeatedValuesJoin = ":"
        return directories
    }

    /// One of a few names (matched without regard to case).
    private static func choice<Value: Equatable & Sendable>(_ name: String, _ help: String, _ choices: [(String, Value)],
                                                           _ field: Field<Value>) -> ConfigurationSetting {
        let names = choices.map(\.0)
        let reason = names.count == 2 ? "is not \(names[0]) or \(names[1])" : "is not one of " + names.joined(separator: ", ")
        return setting(name, help, valueName: names.joined(separator: "|"), field, reason: reason,
                       parse: { text in choices.first { $0.0 == text.lowercased() }?.1 },
                       spell: { value in choices.first { $0.1 == value }?.0 })
    }

    /// A byte count in the largest binary unit that holds it exactly: `32MiB`, `16KiB`, `1000`.
    static func spellByteCount(_ count: Int) -> String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where count != 0 && count % (1 << shift) == 0 {
            return "\(count >> shift)\(unit)"
        }
        return String(count)
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
