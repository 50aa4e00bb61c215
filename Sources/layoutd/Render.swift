import ArgumentParser
import LayoutRender
import LayoutServer
import LayoutWire

/// `layoutd render FILE|- -o out.svg|out.png`: a picture of one layout without a server.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lay out one request read from a file (or - for standard input) and draw it as SVG or PNG.",
        discussion: """
            The format follows the output's extension (.svg or .png) unless --format says otherwise; \
            with -o - the picture goes to standard output and --format is needed. On a bad request \
            the error object goes to standard error and the exit code is 1.
            """
    )

    @Argument(help: "The request JSON file, or - for standard input.")
    var file: String

    @Option(name: .shortAndLong, help: "Where to write the picture (.svg or .png), or - for standard output.")
    var output: String

    @Option(help: "svg or png. [default: from the output's extension]")
    var format: String?

    @Option(help: "wireframe (boxes outlined, margins and padding shaded, ids) or paint (the paint style keys).")
    var mode: String = RenderMode.wireframe.rawValue

    @Option(help: "Device pixels per point (above 0, at most \(Int(RenderOptions.maxScale))).")
    var scale: String = "1"

    @Option(name: .customLong("max-pixels"), help: "Largest picture drawn, in device pixels (width x height).")
    var maxPixels: Int = RenderLimits.default.maxPixels

    @Option(name: .customLong("max-nodes"), help: "Most nodes in the tree.")
    var maxNodes: Int = WireLimits.default.maxNodes

    @Option(name: .customLong("max-depth"), help: "Deepest nesting of nodes.")
    var maxDepth: Int = WireLimits.default.maxDepth

    func run() throws {
        let options = try renderOptions()
        let body = try SystemIO.readInput(file)
        let request: LayoutRequest
        do {
            request = try LayoutWire.decodeRequest(bytes: body, limits: WireLimits(maxNodes: maxNodes, maxDepth: maxDepth))
        } catch {
            SystemIO.write(ServiceError(error).jsonBytes + [0x0A], to: 2)
            throw ExitCode(1)
        }
        let picture: [UInt8]
        do {
            picture = try LayoutRenderer.render(request, options: options, limits: RenderLimits(maxPixels: maxPixels),
                                                textLayouter: .bundled)
        } catch {
            SystemIO.write("layoutd render: \(error)\n", to: 2)
            throw ExitCode(1)
        }
        if output == "-" {
            SystemIO.write(picture, to: 1)
        } else if !SystemIO.writeFile(output, picture) {
            throw ValidationError("cannot write \(output)")
        }
    }

    private func renderOptions() throws -> RenderOptions {
        let formatName = format ?? (output.hasSuffix(".png") ? "png" : output.hasSuffix(".svg") ? "svg" : nil)
        guard let formatName else { throw ValidationError("say --format svg or png (the output's extension does not)") }
        guard let chosenFormat = RenderFormat(rawValue: formatName) else {
            throw ValidationError("--format must be svg or png, not \(formatName)")
        }
        guard let chosenMode = RenderMode(rawValue: mode) else {
            throw ValidationError("--mode must be wireframe or paint, not \(mode)")
        }
        guard let chosenScale = RenderOptions.scale(parsing: scale) else {
            throw ValidationError("--scale must be a number above 0 and at most \(Int(RenderOptions.maxScale)), not \(scale)")
        }
        return RenderOptions(format: chosenFormat, mode: chosenMode, scale: chosenScale)
    }
}
