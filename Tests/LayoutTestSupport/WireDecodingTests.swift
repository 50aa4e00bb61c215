import LayoutEngine
import LayoutWire

/// A suite that decodes requests from JSON text: conform to get `decode`, `error` and
/// `childFrames`.
public protocol WireDecodingTests {}

extension WireDecodingTests {
    /// The request `text` decodes to.
    public func decode(_ text: String, limits: WireLimits = .default) throws(WireError) -> LayoutRequest {
        try LayoutWire.decodeRequest(bytes: Array(text.utf8), limits: limits)
    }

    /// The error decoding `text` fails with; nil when it decodes.
    public func error(_ text: String, limits: WireLimits = .default) -> WireError? {
        do { _ = try decode(text, limits: limits); return nil } catch { return error }
    }

    /// Frames of `node`'s children (the root's by default), in order.
    public func childFrames(_ request: LayoutRequest, of node: NodeID? = nil) -> [Frame] {
        request.tree.children(of: node ?? request.root).map { request.tree.frame(of: $0) }
    }
}
