/// Where a connection is in its life. The named transitions follow SwiftNIO's HTTP/1 server
/// (`HTTPServerPipelineHandler`'s accepting → quiescing lifecycle, its close-output state) and
/// AsyncHTTPClient's connection state machine (… → closing → closed):
///
///     acceptingRequests ──requestEndReceived(keepAlive: false)──▶ lastRequestReceived
///     acceptingRequests / lastRequestReceived ──quiesce()──▶ quiescing
///     acceptingRequests / lastRequestReceived ──refuse()──▶ refusing
///     any taking no more requests ──finalResponseSerialized()──▶ closingAfterFlush(linger)
///     closingAfterFlush(linger: true) ──outputFlushed, peer still open──▶ lingering
///     any ──close()──▶ closed
///
/// Reading, intake and output each keep their own small flags (read interest, a paused intake,
/// unsent bytes); this is the one place that says whether more requests are taken and how the
/// connection ends.
enum ConnectionState: Equatable {
    /// Requests are taken from the parser as the intake allows.
    case acceptingRequests
    /// A request asked to close (`Connection: close`, HTTP/1.0): no more are taken; the answers
    /// to those already taken still go out, the last one with `Connection: close`.
    case lastRequestReceived
    /// Graceful shutdown: no more requests; the answers to those received go out, then close.
    case quiescing
    /// An error answer is queued (bad request, limit, timeout): no more requests; once it is
    /// written the connection lingers and closes.
    case refusing
    /// The last answer is serialised: close once the output is flushed, after a lingering
    /// read when `linger` (so the client sees an error answer rather than a reset).
    case closingAfterFlush(linger: Bool)
    /// The write side is shut after an error answer; input is read and discarded until the
    /// linger deadline.
    case lingering
    case closed

    /// Whether requests are still taken from the parser.
    var acceptsRequests: Bool { self == .acceptingRequests }

    var isClosed: Bool { self == .closed }

    var isLingering: Bool { self == .lingering }

    /// A request's end arrived; one that does not keep the connection alive is its last.
    mutating func requestEndReceived(keepAlive: Bool) {
        if !keepAlive && self == .acceptingRequests { self = .lastRequestReceived }
    }

    /// Graceful shutdown asked for. A queued refusal already ends the connection (and
    /// lingers), so it stays as it is.
    mutating func quiesce() {
        switch self {
        case .acceptingRequests, .lastRequestReceived: self = .quiescing
        case .quiescing, .refusing, .closingAfterFlush, .lingering, .closed: break
        }
    }

    /// An error answer was queued.
    mutating func refuse() {
        switch self {
        case .closingAfterFlush, .lingering, .closed: break
        case .acceptingRequests, .lastRequestReceived, .quiescing, .refusing: self = .refusing
        }
    }

    /// The answer that ends the connection was serialised (`Connection: close` sent).
    mutating func finalResponseSerialized() {
        switch self {
        case .refusing: self = .closingAfterFlush(linger: true)
        case .closingAfterFlush, .lingering, .closed: break
        case .acceptingRequests, .lastRequestReceived, .quiescing: self = .closingAfterFlush(linger: false)
        }
    }
}
