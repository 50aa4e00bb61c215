import ArgumentParser

/// `layoutd`: the layout service and its command-line companions.
@main
struct Layoutd: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Flexbox layout as a service: Yoga-compatible layout of JSON box trees.",
        discussion: """
            Every `serve` option can also be set with an environment variable: LAYOUTD_ and the \
            option's name in upper snake case (LAYOUTD_PORT, LAYOUTD_CACHE_BYTES, \
            LAYOUTD_MAX_NODES, LAYOUTD_LOG_LEVEL, ...). Options win over the environment.
            """,
        subcommands: [Serve.self, Compute.self, Render.self, Healthcheck.self]
    )
}
