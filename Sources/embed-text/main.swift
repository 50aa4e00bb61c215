// Build tool for the EmbedOpenAPI plugin: writes a Swift file that holds a text file, byte for
// byte, as a string constant, so a binary can serve the file from anywhere (no resource bundle
// to find at run time).
//
//   embed-text INPUT OUTPUT TYPE
//
// writes `enum TYPE { static let text = "<INPUT>" }` as a raw string literal whose delimiter
// does not occur in the input.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: embed-text INPUT OUTPUT TYPE\n".utf8))
    exit(2)
}
let (input, output, typeName) = (arguments[1], arguments[2], arguments[3])
guard let data = FileManager.default.contents(atPath: input), let text = String(data: data, encoding: .utf8) else {
    FileHandle.standardError.write(Data("embed-text: cannot read \(input) as UTF-8\n".utf8))
    exit(1)
}
// One more `#` than the longest run of `#` in the text: `"""` followed by it, or `\` followed
// by it, can then not occur inside.
var longestRun = 0, run = 0
for character in text.unicodeScalars {
    if character == "#" { run += 1; longestRun = max(longestRun, run) } else { run = 0 }
}
let hashes = String(repeating: "#", count: longestRun + 1)
let source = """
    // Generated at build time by the EmbedOpenAPI plugin (Sources/embed-text) from \((input as NSString).lastPathComponent).

    enum \(typeName) {
        /// The file, byte for byte.
        static let text = \(hashes)\"\"\"
    \(text)
    \"\"\"\(hashes)
    }

    """
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("embed-text: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
