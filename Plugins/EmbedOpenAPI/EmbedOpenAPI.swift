import Foundation
import PackagePlugin

/// Embeds the package's `openapi.yaml` in the target it is applied to, as
/// `OpenAPIDocument.text`: the served spec is always the one at the top of the repository,
/// with no generated copy to keep in step.
@main
struct EmbedOpenAPI: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let spec = context.package.directoryURL.appending(path: "openapi.yaml")
        let output = context.pluginWorkDirectoryURL.appending(path: "OpenAPIDocument.swift")
        return [
            .buildCommand(
                displayName: "Embedding openapi.yaml",
                executable: try context.tool(named: "embed-text").url,
                arguments: [spec.path, output.path, "OpenAPIDocument"],
                inputFiles: [spec],
                outputFiles: [output]),
        ]
    }
}
