import ArgumentParser
import LayoutServer
import LayoutWire

/// `layoutd compute FILE|-`: one layout without a server.
struct Compute: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lay out one request read from a file (or - for standard input) and print the answer.",
        discussion: "On a bad request the error object goes to standard error and the exit code is 1."
    )

    @Argument(help: "The request JSON file, or - for standard input.")
    var file: String

    @Option(name: .customLong("max-nodes"), help: "Most nodes in the tree.")
    var maxNodes: Int = WireLimits.default.maxNodes

    @Option(name: .customLong("max-depth"), help: "Deepest nesting of nodes.")
    var maxDepth: Int = WireLimits.default.maxDepth

    func run() throws {
        let bytes = try SystemIO.readInput(file)
        if let problem = BundledFonts.problem() { throw ValidationError(problem) }
        let limits = WireLimits(maxNodes: maxNodes, maxDepth: maxDepth)
        let (status, answer) = LayoutOnce.answer(body: bytes, limits: limits)
        if status == 200 {
            SystemIO.write(answer + [0x0A], to: 1)
        } else {
            SystemIO.write(answer + [0x0A], to: 2)
            throw ExitCode(1)
        }
    }
}
