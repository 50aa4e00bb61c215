/// Why a Redis call failed.
public enum RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Connecting, sending or receiving took longer than the configured timeout.
    case timeout
    /// The connection could not be made or broke (refused, reset, closed by the server).
    case connection(String)
    /// The server answered with an error (`-ERR ...`) or an answer of an unexpected type.
    case server(String)

    public var description: String {
        switch self {
        case .timeout: return "timed out"
        case .connection(let reason): return "connection: \(reason)"
        case .server(let reason): return "server: \(reason)"
        }
    }
}
