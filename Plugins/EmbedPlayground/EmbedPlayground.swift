import Foundation
import PackagePlugin

/// Embeds the files of the target's `Playground/` folder (the playground page's HTML, CSS and
/// JavaScript) in the target, as `PlaygroundFiles.files` keyed by file name: the binary serves
/// the page with nothing to find or fetch at run time.
@main
struct EmbedPlayground: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Sources/\(target.name)/Playground")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
        let inputs = names.map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "PlaygroundFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the playground page",
                executable: try context.tool(named: "embed-text").url,
                arguments: ["--files", output.path, "PlaygroundFiles"] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]),
        ]
    }
}
