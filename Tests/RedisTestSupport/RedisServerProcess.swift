import Foundation
import SharedCache

/// A private `redis-server` on 127.0.0.1 and a free port, for one test: no persistence, killed
/// by its PID when the test ends.
public final class RedisServerProcess {
    /// `redis-server` on PATH, or nil (the tests that need it are then skipped).
    public static let executable: String? = {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(directory)/redis-server"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }()

    public let port: Int
    private let process = Process()

    /// Starts on `port`, or a free one.
    public init(port: Int? = nil) throws {
        self.port = try port ?? Self.freePort()
        process.executableURL = URL(fileURLWithPath: Self.executable ?? "/usr/bin/redis-server")
        process.arguments = ["--bind", "127.0.0.1", "--port", String(self.port), "--save", "", "--appendonly", "no",
                             "--loglevel", "warning"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Up within 5 s, or the test fails.
        for _ in 0..<100 {
            if let connection = try? RedisConnection(endpoint: endpoint, timeout: .milliseconds(200)),
               (try? connection.command([Array("PING".utf8)])) == .status("PONG") {
                return
            }
            usleep(50_000)
        }
        stop()
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "redis-server did not answer PING on port \(self.port)"])
    }

    public var endpoint: RedisEndpoint { RedisEndpoint(host: "127.0.0.1", port: port) }

    /// `redis://127.0.0.1:PORT`.
    public var url: String { "redis://127.0.0.1:\(port)" }

    /// Kills the server (SIGKILL, by PID) and waits for it.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    /// A port nothing listens on now: bound to port 0, read back, closed.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
