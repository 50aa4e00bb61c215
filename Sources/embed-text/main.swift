// Build tool for the EmbedOpenAPI and EmbedPlayground plugins: writes a Swift file that holds
// text files, byte for byte, as string constants, so a binary can serve them from anywhere (no
// resource bundle to find at run time).
//
//   embed-text INPUT OUTPUT TYPE
//       writes `enum TYPE { static let text = "<INPUT>" }`
//   embed-text --files OUTPUT TYPE INPUT...
//       writes `enum TYPE { static let files: [String: String] = ["<name>": "<INPUT>", ...] }`,
//       keyed by each input's file name
//
// Each text is a raw string literal whose delimiter does not occur in it.
import Foundation

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(code)
}

func readText(_ path: String) -> String {
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
        fail("embed-text: cannot read \(path) as UTF-8", code: 1)
    }
    return text
}

/// `text` as a multi-line raw string literal, its closing delimiter on a line of its own.
func rawLiteral(_ text: String) -> String {
    // One more `#` than the longest run of `#` in the text: `"""` followed by it, or `\`
    // followed by it, can then not occur inside.
    var longestRun = 0, run = 0
    for character in text.unicodeScalars {
        if character == "#" { run += 1; longestRun = max(longestRun, run) } else { run = 0 }
    }
    let hashes = String(repeating: "#", count: longestRun + 1)
    return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
}

func fileName(_ path: String) -> String { (path as NSString).lastPathComponent }

let arguments = CommandLine.arguments
let source: String, output: String
if arguments.count >= 4 && arguments[1] == "--files" {
    output = arguments[2]
    let typeName = arguments[3], inputs = arguments.dropFirst(4).sorted()
    let entries = inputs.map { "        \"\(fileName($0))\": \(rawLiteral(readText($0))),\n" }.joined()
    source = """
        // Generated at build time by a build plugin (Sources/embed-text) from \(inputs.map(fileName).joined(separator: ", ")).

        enum \(typeName) {
            /// The files by name, byte for byte.
            static let files: [String: String] = [
        \(entries)    ]
        }

        """
} else if arguments.count == 4 {
    output = arguments[2]
    let (input, typeName) = (arguments[1], arguments[3])
    source = """
        // Generated at build time by a build plugin (Sources/embed-text) from \(fileName(input)).

        enum \(typeName) {
            /// The file, byte for byte.
            static let text = \(rawLiteral(readText(input)))
        }

        """
} else {
    fail("usage: embed-text INPUT OUTPUT TYPE | embed-text --files OUTPUT TYPE INPUT...", code: 2)
}
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    fail("embed-text: cannot write \(output): \(error)", code: 1)
}
