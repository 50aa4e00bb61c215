import ArgumentParser
import Foundation
import LayoutEngine
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
        let bytes: [UInt8]
        if file == "-" {
            bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ValidationError("cannot read \(file)")
            }
            bytes = Array(data)
        }
        let limits = WireLimits(maxNodes: maxNodes, maxDepth: maxDepth)
        do {
            var request = try LayoutWire.decodeRequest(bytes: bytes, limits: limits)
            request.computeLayout()
            FileHandle.standardOutput.write(Data(LayoutWire.encodeResponse(request) + [0x0A]))
        } catch {
            FileHandle.standardError.write(Data(error.jsonBytes() + [0x0A]))
            throw ExitCode(1)
        }
    }
}
