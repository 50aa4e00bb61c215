import ArgumentParser
import LayoutServer

/// `layoutd serve`'s options, made from the settings list: reading them from the command line
/// and listing them in the help.
enum ServeOptions {
    /// The values of `--name value` and `--name=value` in `arguments`, keyed by setting name;
    /// a repeated option keeps its last value, as ArgumentParser's own options do, or for a
    /// list setting (`--font-dir`) adds to it.
    static func values(_ arguments: [String], settings: [ConfigurationSetting]) throws -> [String: String] {
        let names = Set(settings.map(\.name))
        let joins = Dictionary(settings.compactMap { s in s.repeatedValuesJoin.map { (s.name, $0) } }, uniquingKeysWith: { a, _ in a })
        var values: [String: String] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw ValidationError("Unexpected argument '\(argument)'")
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard names.contains(name) else { throw ValidationError("Unknown option '--\(name)'") }
            if value == nil, index < arguments.endIndex, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            }
            guard let value else { throw ValidationError("Missing value for '--\(name)'") }
            if let join = joins[name], let earlier = values[name] {
                values[name] = earlier + join + value
            } else {
                values[name] = value
            }
        }
        return values
    }

    /// Column where help text starts, as in ArgumentParser's own OPTIONS section.
    static let helpColumn = 26
    /// Width the help is laid out for (inside ArgumentParser's 80 columns off a terminal,
    /// which it wraps again).
    static let width = 78

    /// The options section of `layoutd serve --help`: each option with its value, help,
    /// default and environment variable.
    static func help(_ settings: [ConfigurationSetting]) -> String {
        var lines = [
            "Every option may instead come from LAYOUTD_<OPTION> in the environment",
            "(--max-nodes: LAYOUTD_MAX_NODES); the option wins.",
            "",
            "SERVICE OPTIONS:",
        ]
        for setting in settings {
            let label = "  --\(setting.name) <\(setting.valueName)>"
            var body = wrap(setting.help, width: width - helpColumn)
            let defaultValue = setting.defaultValue.map { "default: \($0)" }
            let environment = "env: \(setting.environmentVariable)"
            if let defaultValue, defaultValue.count + 2 + environment.count <= width - helpColumn {
                body.append(defaultValue + ", " + environment)
            } else {
                body += [defaultValue, environment].compactMap { $0 }
            }
            let indent = String(repeating: " ", count: helpColumn)
            if label.count + 2 <= helpColumn {
                lines.append(label + String(repeating: " ", count: helpColumn - label.count) + body[0])
                body.removeFirst()
            } else {
                lines.append(label)
            }
            lines += body.map { indent + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` broken between words into lines of at most `width` characters.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
