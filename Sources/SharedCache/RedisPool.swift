import Dispatch
import SyncSupport

/// A bounded pool of `RedisConnection`s to one endpoint behind a `CircuitBreaker`: a call takes
/// an idle connection (or opens one while fewer than `size` are open), and never waits for one.
/// A connection that fails is dropped, so the next call reconnects.
public final class RedisPool: Sendable {
    /// What a call came to.
    public enum Outcome<Value: Sendable>: Sendable {
        case done(Value)
        case failed(RedisError)
        /// Not attempted: the breaker is open.
        case breakerOpen
        /// Not attempted: every connection is in use.
        case poolBusy
    }

    public let endpoint: RedisEndpoint
    public let size: Int
    public let timeout: Duration
    public let breaker: CircuitBreaker

    private struct Connections {
        var idle: [RedisConnection] = []
        /// Idle plus checked out.
        var open = 0
    }
    private let connections = Locked(Connections())

    /// A pool of at most `size` connections; each connect and command times out after `timeout`;
    /// after `failureThreshold` failures in a row no call is made for `backoff`.
    public init(endpoint: RedisEndpoint, size: Int, timeout: Duration, backoff: Duration, failureThreshold: Int = 3) {
        self.endpoint = endpoint
        self.size = max(1, size)
        self.timeout = timeout
        breaker = CircuitBreaker(failureThreshold: failureThreshold, backoff: backoff,
                                 now: { DispatchTime.now().uptimeNanoseconds })
    }

    /// Runs `body` with a connection, unless the breaker is open or the pool is exhausted. Blocks
    /// the calling thread for at most about two timeouts (connect, then the command): call it
    /// off event loops.
    public func withConnection<Value: Sendable>(_ body: (RedisConnection) throws(RedisError) -> Value) -> Outcome<Value> {
        // Claim a slot first, so the breaker's half-open probe is not spent on a busy pool.
        let slot = connections.withLock { pool -> Slot in
            if let connection = pool.idle.popLast() { return .idle(connection) }
            guard pool.open < size else { return .none }
            pool.open += 1
            return .new
        }
        if case .none = slot { return .poolBusy }
        guard breaker.allowsCall() else {
            giveBack(slot: slot)
            return .breakerOpen
        }
        let connection: RedisConnection
        do {
            switch slot {
            case .idle(let idle): connection = idle
            default: connection = try RedisConnection(endpoint: endpoint, timeout: timeout)
            }
        } catch {
            return failed(error)
        }
        do {
            return succeeded(connection, try body(connection))
        } catch {
            // hiredis leaves the context unusable after an I/O error; a server error (-ERR) is
            // an answer, but dropping the connection then costs little and is always safe.
            guard case .idle = slot, case .connection = error else { return failed(error) }
            // A kept connection the server closed (Redis restarted, idle timeout): once more on a
            // new one, in the slot of the old, before counting a failure.
            do {
                let fresh = try RedisConnection(endpoint: endpoint, timeout: timeout)
                return succeeded(fresh, try body(fresh))
            } catch {
                return failed(error)
            }
        }
    }

    /// Keeps `connection` for the next call and closes the breaker.
    private func succeeded<Value: Sendable>(_ connection: RedisConnection, _ value: Value) -> Outcome<Value> {
        connections.withLock { $0.idle.append(connection) }
        breaker.succeeded()
        return .done(value)
    }

    /// Gives up the call's slot (its connection, if any, is dropped) and tells the breaker.
    private func failed<Value: Sendable>(_ error: RedisError) -> Outcome<Value> {
        connections.withLock { $0.open -= 1 }
        breaker.failed()
        return .failed(error)
    }

    /// A connection to call with: an idle one, one to open, or none free.
    private enum Slot { case idle(RedisConnection), new, none }

    /// Returns a slot claimed but not used.
    private func giveBack(slot: Slot) {
        connections.withLock { pool in
            switch slot {
            case .idle(let connection): pool.idle.append(connection)
            case .new: pool.open -= 1
            case .none: break
            }
        }
    }

    /// Connections open now (idle and in use).
    public var openConnections: Int { connections.withLock { $0.open } }
}
