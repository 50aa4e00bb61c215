#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LayoutWire
import Logging

/// A swift-log handler that writes one logfmt line per message to standard error:
/// `ts=2026-01-01T00:00:00.000Z level=info msg=request method=POST path=/compute status=200 ...`.
/// Lines are written with a single `write(2)` each, so concurrent lines do not interleave.
public struct LogfmtLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let label: String
    private let sink: @Sendable (String) -> Void

    /// A handler printing to standard error.
    public init(label: String, level: Logger.Level = .info) {
        self.init(label: label, level: level, sink: LogfmtLogHandler.writeToStandardError)
    }

    /// A handler handing each finished line (with its newline) to `sink`; for tests.
    public init(label: String, level: Logger.Level, sink: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.logLevel = level
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = "ts=\(Self.timestamp()) level=\(event.level.rawValue) logger=\(Self.quoted(label)) msg=\(Self.quoted(event.message.description))"
        var merged = metadata
        if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
        // Keys in a stable order so lines are easy to diff and grep.
        for key in merged.keys.sorted() {
            line += " \(key)=\(Self.quoted(merged[key]!.description))"
        }
        if let error = event.error { line += " error=\(Self.quoted(String(describing: error)))" }
        line += "\n"
        sink(line)
    }

    /// A logfmt value: bare when it has no space, quote, equals sign or control character,
    /// otherwise a quoted string escaped as JSON escapes it (the wire's `JSONWriter`, the one
    /// string escaper), and DEL as `\u007f` besides, so no raw control byte reaches a terminal.
    static func quoted(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.unicodeScalars.contains {
            $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F
        }
        guard needsQuotes else { return value }
        var writer = JSONWriter(capacity: value.utf8.count + 8)
        writer.string(value)
        let quoted = String(decoding: writer.bytes, as: UTF8.self)
        return quoted.utf8.contains(0x7F) ? quoted.replacingDelete() : quoted
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = Int(now.tv_nsec / 1_000_000)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }

    @Sendable private static func writeToStandardError(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}

private extension String {
    /// DEL escaped, which JSON leaves as is.
    func replacingDelete() -> String {
        var out = ""
        for scalar in unicodeScalars {
            if scalar.value == 0x7F { out += "\\u007f" } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
