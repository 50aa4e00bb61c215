import ArgumentParser
import LayoutServer
import LayoutWire
import Logging

/// `layoutd serve`: runs the HTTP service until SIGINT or SIGTERM.
///
/// Its options are `ConfigurationSettings.all`, read here from the arguments ArgumentParser
/// leaves over (its options are declared one property each, so a list cannot declare them),
/// and listed in the help by `ServeOptions.help`.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP layout service.",
        usage: "layoutd serve [--<option> <value> ...]",
        discussion: ServeOptions.help(ConfigurationSettings.all)
    )

    /// `--name value` or `--name=value` for the settings; checked in `validate()`.
    @Argument(parsing: .allUnrecognized, help: .hidden) var settingArguments: [String] = []

    /// The settings given on the command line, keyed by name.
    func commandLineValues() throws -> [String: String] {
        try ServeOptions.values(settingArguments, settings: ConfigurationSettings.all)
    }

    func validate() throws {
        _ = try commandLineValues()
    }

    func run() throws {
        let commandLine = try commandLineValues()
        let configuration: ServiceConfiguration
        do {
            configuration = try ConfigurationSettings.resolve(commandLine: commandLine,
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
        // Process-wide, like malloc's settings: every decoder builds large trees in this pool.
        TreeStoragePool.shared.capacityBytes = configuration.treePoolBytes

        if let problem = BundledFonts.problem() {
            logger.critical("cannot start", metadata: ["reason": "\(problem)"])
            throw ExitCode(1)
        }
        let host = ServiceHost(configuration: configuration, logger: logger)
        do {
            try host.start()
        } catch {
            logger.critical("cannot start", metadata: ["host": "\(configuration.host)",
                                                        "port": "\(configuration.port)",
                                                        "reason": "\(error)"])
            throw ExitCode(1)
        }
        host.stopOnSignals()
        logger.notice("listening", metadata: [
            "host": "\(configuration.host)", "port": "\(host.port)",
            "tls": "\(configuration.http.tlsCertificatePath != nil)",
            "cache_bytes": "\(configuration.cacheBytes)", "max_nodes": "\(configuration.wire.maxNodes)",
            "shared_cache": "\(host.service.sharedCache?.endpointDescription ?? "off")",
        ])
        host.waitUntilStopped()
        logger.notice("stopped")
    }
}
