import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few operating-system services the commands need, straight from libc: Foundation would
/// more than quadruple the statically linked binary for this.
enum SystemIO {
    /// The process environment.
    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        #if canImport(Darwin)
        var entry = _NSGetEnviron().pointee!
        #else
        var entry = environ
        #endif
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    /// Everything readable from `descriptor` until end of file, or nil on a read error.
    static func readAll(_ descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// The contents of the file at `path`, or nil when it cannot be read.
    static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return readAll(descriptor)
    }

    /// The bytes of the file at `path`, or of standard input for `-`; a command-line error
    /// naming what could not be read otherwise.
    static func readInput(_ path: String) throws -> [UInt8] {
        if path == "-" {
            guard let input = readAll(0) else { throw ValidationError("cannot read standard input") }
            return input
        }
        guard let contents = readFile(path) else { throw ValidationError("cannot read \(path)") }
        return contents
    }

    /// Creates or replaces the file at `path` with `bytes`; false when it cannot.
    static func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(bytes, to: descriptor)
    }

    /// Writes all of `bytes` to `descriptor` (1 standard output, 2 standard error); false when
    /// the write fails.
    @discardableResult
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { writeSome(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    static func write(_ text: String, to descriptor: Int32) {
        write(Array(text.utf8), to: descriptor)
    }
}

/// libc's `write(2)`, named apart from `SystemIO.write`.
private func writeSome(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
