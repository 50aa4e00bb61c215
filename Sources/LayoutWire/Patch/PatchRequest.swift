/// A request to lay out an earlier request's document with a JSON Patch applied:
/// `{"base": "<ETag of an earlier answer>", "patch": [operations], "changesOnly": bool,
/// "changesBy": "pointer" | "node"}`.
public struct PatchRequest: Sendable {
    /// How a `changesOnly` answer pairs the patched tree's nodes with the base's.
    public enum ChangePairing: String, Sendable {
        /// With the base's node at the same pointer: for a client that keeps frames by pointer.
        case pointer
        /// With the same node, followed where the patch moved it (siblings shifted by an `add` or
        /// `remove`, a `move`): for a client that applies the patch to its own tree of views
        /// first. Nodes the patch added are listed; nothing is `removed`.
        case node
    }

    /// The ETag the client named, as sent (quoted or not).
    public var base: String
    public var patch: JSONPatch
    /// Answer only the frames that changed, not the whole tree.
    public var changesOnly: Bool
    /// What "changed" is measured against (`changesOnly` answers only).
    public var changesBy: ChangePairing

    /// Decodes a patch request body. The body must fit `limits` (413 beyond) and the patch at
    /// most `maxOperations` operations (413 `too-many-operations`); pointers in errors are into
    /// the body (`/patch/3/path`).
    public init(bytes: [UInt8], limits: WireLimits, maxOperations: Int) throws(WireError) {
        let document = try bytes.withUnsafeBytes { raw in
            Result { () throws(WireError) in try JSONValue.parse(bytes: raw, limits: limits) }
        }.get()
        guard document.kind == .object else {
            throw .invalid("wrong-type", "a patch request must be an object with \"base\" and \"patch\"", pointer: "")
        }
        var base: String?
        var patch: JSONPatch?
        var changesOnly = false
        var changesBy = ChangePairing.pointer
        for (key, value) in document.members {
            switch key {
            case "base":
                guard let tag = value.stringValue else {
                    throw .invalid("wrong-type", "base must be the ETag of an earlier answer (a string)", pointer: "/base")
                }
                base = tag
            case "patch":
                patch = try within("/patch") { () throws(WireError) in try JSONPatch(value, maxOperations: maxOperations) }
            case "changesOnly":
                guard let flag = value.boolValue else {
                    throw .invalid("wrong-type", "changesOnly must be true or false", pointer: "/changesOnly")
                }
                changesOnly = flag
            case "changesBy":
                guard let name = value.stringValue else {
                    throw .invalid("wrong-type", "changesBy must be \"pointer\" or \"node\"", pointer: "/changesBy")
                }
                guard let pairing = ChangePairing(rawValue: name) else {
                    throw .invalid("invalid-value", "changesBy must be \"pointer\" or \"node\", not \"\(name)\"", pointer: "/changesBy")
                }
                changesBy = pairing
            default:
                throw .invalid("unknown-key",
                               "unknown member \"\(key)\" in a patch request; accepted: base, patch, changesOnly, changesBy",
                               pointer: "/" + JSONPointer.escape(key))
            }
        }
        guard let base else { throw .invalid("missing-key", "a patch request needs \"base\" (the ETag of an earlier answer)", pointer: "") }
        guard let patch else { throw .invalid("missing-key", "a patch request needs \"patch\" (RFC 6902 operations)", pointer: "") }
        self.base = base
        self.patch = patch
        self.changesOnly = changesOnly
        self.changesBy = changesBy
    }
}
