/// A request to lay out an earlier request's document with a JSON Patch applied:
/// `{"base": "<ETag of an earlier answer>", "patch": [operations], "changesOnly": bool}`.
public struct PatchRequest: Sendable {
    /// The ETag the client named, as sent (quoted or not).
    public var base: String
    public var patch: JSONPatch
    /// Answer only the frames that changed, not the whole tree.
    public var changesOnly: Bool

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
            default:
                throw .invalid("unknown-key", "unknown member \"\(key)\" in a patch request; accepted: base, patch, changesOnly",
                               pointer: "/" + JSONPointer.escape(key))
            }
        }
        guard let base else { throw .invalid("missing-key", "a patch request needs \"base\" (the ETag of an earlier answer)", pointer: "") }
        guard let patch else { throw .invalid("missing-key", "a patch request needs \"patch\" (RFC 6902 operations)", pointer: "") }
        self.base = base
        self.patch = patch
        self.changesOnly = changesOnly
    }
}
