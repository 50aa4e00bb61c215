import ArgumentParser
import LayoutServer
import Logging

/// `layoutd serve`: runs the HTTP service until SIGINT or SIGTERM.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP layout service.",
        discussion: "Each option may instead come from LAYOUTD_<OPTION> in the environment (see `layoutd --help`)."
    )

    @Option(name: .customLong("host"), help: help("host")) var host: String?
    @Option(name: .customLong("port"), help: help("port")) var port: String?
    @Option(name: .customLong("cache-bytes"), help: help("cache-bytes")) var cacheBytes: String?
    @Option(name: .customLong("cache-shards"), help: help("cache-shards")) var cacheShards: String?
    @Option(name: .customLong("max-batch-items"), help: help("max-batch-items")) var maxBatchItems: String?
    @Option(name: .customLong("max-nodes"), help: help("max-nodes")) var maxNodes: String?
    @Option(name: .customLong("max-depth"), help: help("max-depth")) var maxDepth: String?
    @Option(name: .customLong("max-string-bytes"), help: help("max-string-bytes")) var maxStringBytes: String?
    @Option(name: .customLong("max-document-bytes"), help: help("max-document-bytes")) var maxDocumentBytes: String?
    @Option(name: .customLong("max-body-bytes"), help: help("max-body-bytes")) var maxBodyBytes: String?
    @Option(name: .customLong("max-inflated-body-bytes"), help: help("max-inflated-body-bytes")) var maxInflatedBodyBytes: String?
    @Option(name: .customLong("max-header-bytes"), help: help("max-header-bytes")) var maxHeaderBytes: String?
    @Option(name: .customLong("max-header-count"), help: help("max-header-count")) var maxHeaderCount: String?
    @Option(name: .customLong("max-connections"), help: help("max-connections")) var maxConnections: String?
    @Option(name: .customLong("header-timeout"), help: help("header-timeout")) var headerTimeout: String?
    @Option(name: .customLong("body-timeout"), help: help("body-timeout")) var bodyTimeout: String?
    @Option(name: .customLong("idle-timeout"), help: help("idle-timeout")) var idleTimeout: String?
    @Option(name: .customLong("write-timeout"), help: help("write-timeout")) var writeTimeout: String?
    @Option(name: .customLong("shutdown-timeout"), help: help("shutdown-timeout")) var shutdownTimeout: String?
    @Option(name: .customLong("tls-cert"), help: help("tls-cert")) var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: help("tls-key")) var tlsKey: String?
    @Option(name: .customLong("io-backend"), help: help("io-backend")) var ioBackend: String?
    @Option(name: .customLong("event-loops"), help: help("event-loops")) var eventLoops: String?
    @Option(name: .customLong("inline-compute-max-bytes"), help: help("inline-compute-max-bytes")) var inlineComputeMaxBytes: String?
    @Option(name: .customLong("max-pending-compute-bytes"), help: help("max-pending-compute-bytes")) var maxPendingComputeBytes: String?
    @Option(name: .customLong("answer-cache-bytes"), help: help("answer-cache-bytes")) var answerCacheBytes: String?
    @Option(name: .customLong("render-cache-bytes"), help: help("render-cache-bytes")) var renderCacheBytes: String?
    @Option(name: .customLong("max-render-pixels"), help: help("max-render-pixels")) var maxRenderPixels: String?
    @Option(name: .customLong("gzip"), help: help("gzip")) var gzip: String?
    @Option(name: .customLong("log-level"), help: help("log-level")) var logLevel: String?

    /// The option's help from the settings table, with its environment variable.
    static func help(_ name: String) -> ArgumentHelp {
        guard let setting = ConfigurationSettings.setting(name) else { return ArgumentHelp("") }
        return ArgumentHelp("\(setting.help) [env: \(setting.environmentVariable)]")
    }

    var commandLineValues: [String: String] {
        let pairs: [(String, String?)] = [
            ("host", host), ("port", port), ("cache-bytes", cacheBytes), ("cache-shards", cacheShards),
            ("max-batch-items", maxBatchItems), ("max-nodes", maxNodes), ("max-depth", maxDepth),
            ("max-string-bytes", maxStringBytes), ("max-document-bytes", maxDocumentBytes),
            ("max-body-bytes", maxBodyBytes), ("max-inflated-body-bytes", maxInflatedBodyBytes),
            ("max-header-bytes", maxHeaderBytes), ("max-header-count", maxHeaderCount),
            ("max-connections", maxConnections), ("header-timeout", headerTimeout),
            ("body-timeout", bodyTimeout), ("idle-timeout", idleTimeout), ("write-timeout", writeTimeout),
            ("shutdown-timeout", shutdownTimeout), ("tls-cert", tlsCert), ("tls-key", tlsKey),
            ("io-backend", ioBackend), ("event-loops", eventLoops), ("inline-compute-max-bytes", inlineComputeMaxBytes),
            ("max-pending-compute-bytes", maxPendingComputeBytes), ("answer-cache-bytes", answerCacheBytes),
            ("render-cache-bytes", renderCacheBytes), ("max-render-pixels", maxRenderPixels),
            ("gzip", gzip), ("log-level", logLevel),
        ]
        return Dictionary(uniqueKeysWithValues: pairs.compactMap { name, value in value.map { (name, $0) } })
    }

    func run() throws {
        let configuration: ServiceConfiguration
        do {
            configuration = try ConfigurationSettings.resolve(commandLine: commandLineValues,
                                                              environment: SystemIO.environment())
        } catch {
            throw ValidationError(error.description)
        }
        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in LogfmtLogHandler(label: label, level: level) }
        let logger = Logger(label: "layoutd")
        // Before the server starts any thread (arenas are made per thread).
        let malloc = MallocTuning.apply(environment: SystemIO.environment())
        logger.notice("malloc", metadata: malloc.mapValues { .string($0) })

        let host = ServiceHost(configuration: configuration, logger: logger)
        do {
            try host.start()
        } catch {
            logger.critical("cannot start", metadata: ["host": "\(configuration.host)",
                                                        "port": "\(configuration.port)",
                                                        "reason": "\(error)"])
            throw ExitCode(1)
        }
        host.server.stopOnSignals()
        logger.notice("listening", metadata: [
            "host": "\(configuration.host)", "port": "\(host.port)",
            "tls": "\(configuration.http.tlsCertificatePath != nil)",
            "cache_bytes": "\(configuration.cacheBytes)", "max_nodes": "\(configuration.wire.maxNodes)",
        ])
        host.waitUntilStopped()
        logger.notice("stopped")
    }
}
