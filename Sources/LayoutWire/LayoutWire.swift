import LayoutEngine

/// The wire format between clients and the engine. A request is a conformance case without
/// `expected` (see Tests/Fixtures/FORMAT.md): `{"root": node, "available": {"width","height"},
/// "direction": "ltr"|"rtl", "config": {...}}`. The response holds every node's frame:
/// `{"root": {"id","left","top","width","height","children":[...]}}`.
public enum LayoutWire {
    /// Decodes a request from a parsed value (for instance one case of a conformance file).
    /// Pointers in errors are relative to `value`. A large tree is built in storage from
    /// `storage` (nil: fresh arrays).
    public static func decodeRequest(_ value: JSONValue, limits: WireLimits = .default,
                                     storage: TreeStoragePool? = nil) throws(WireError) -> LayoutRequest {
        var decoder = RequestDecoder(doc: value.document, limits: limits)
        decoder.storage = storage
        return try decoder.decodeRequest(at: value.index)
    }

    /// Parses and decodes a request body in one go. `objectCount`: the body's count of `{`
    /// (`openBraceCount`), when the caller has counted them already. A large tree is built in
    /// storage from `storage` (see `TreeStoragePool`); give it back there when done with it.
    /// `foldsRepeats`: a child that repeats an earlier sibling (but for its ids) becomes an
    /// instance of it instead of a copy of its nodes, where the one-pass decoder takes the
    /// request (`LayoutTree.addInstance(of:size:under:)`; its descendants' ids are in
    /// `LayoutRequest.instanceIDs`, and its text leaves are not listed, as its source's stand
    /// for them). For callers that lay out, hash and answer such trees (the service).
    public static func decodeRequest(bytes: UnsafeRawBufferPointer, limits: WireLimits = .default,
                                     objectCount: Int? = nil,
                                     storage: TreeStoragePool? = .shared,
                                     foldsRepeats: Bool = false) throws(WireError) -> LayoutRequest {
        try decodeRequest(bytes: bytes, limits: limits, objectCount: objectCount, storage: storage,
                          foldsRepeats: foldsRepeats, body: nil)
    }

    /// `decodeRequest(bytes:…)` of the storage of `body`, when there is one (the instances'
    /// ids then point into it: a request with instances holds the body).
    static func decodeRequest(bytes: UnsafeRawBufferPointer, limits: WireLimits, objectCount: Int?,
                              storage: TreeStoragePool?, foldsRepeats: Bool, body: [UInt8]?) throws(WireError) -> LayoutRequest {
        // Most requests decode in one pass over the bytes; the rest (and every error) from the tape.
        if bytes.count <= limits.maxDocumentBytes,
           let request = OnePassDecoder.decode(bytes.assumingMemoryBound(to: UInt8.self), limits: limits,
                                               objectCount: objectCount, storage: storage, foldsRepeats: foldsRepeats,
                                               body: body) {
            return request
        }
        // The document reads its strings from `bytes` instead of copying them: it is decoded
        // here and dropped before `bytes` can go (the request holds Strings of its own).
        let document = try JSONValue.parseDocument(bytes: bytes, limits: limits, borrowingInput: true)
        var decoder = RequestDecoder(doc: document, limits: limits)
        decoder.storage = storage
        return try decoder.decodeRequest(at: 0)
    }

    /// Parses and decodes a request body in one go (`objectCount`, `storage`: as above). With
    /// `foldsRepeats`, the instances' ids point into `bytes` rather than copy them: a request
    /// with instances holds the body's array (shared, not copied) as long as it lives.
    public static func decodeRequest(bytes: [UInt8], limits: WireLimits = .default,
                                     objectCount: Int? = nil,
                                     storage: TreeStoragePool? = .shared,
                                     foldsRepeats: Bool = false) throws(WireError) -> LayoutRequest {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(WireError) in
                try decodeRequest(bytes: raw, limits: limits, objectCount: objectCount, storage: storage,
                                  foldsRepeats: foldsRepeats, body: foldsRepeats ? bytes : nil)
            }
        }.get()
    }

    /// The one-pass decoder's request for `bytes`, looking for repeated siblings in a tree of any
    /// size (`RepeatedSiblings`; `decodeRequest` looks in trees of `minimumNodes` or more), or
    /// nil where it gives up: for a fuzzer, whose documents are small, to hold its copies
    /// against the tape decoder.
    @_spi(Fuzzing)
    public static func decodeInOnePassFindingRepeats(bytes: [UInt8], limits: WireLimits) -> LayoutRequest? {
        var copies = 0
        return bytes.withUnsafeBufferPointer {
            OnePassDecoder.decode($0, limits: limits, storage: nil, repeatsFrom: 0, copies: &copies)
        }
    }

    /// `decodeInOnePassFindingRepeats` making each repeat an instance of its sibling
    /// (`foldsRepeats`): for a fuzzer to hold a tree with instances, laid out, hashed and
    /// answered, to the same request decoded node by node.
    @_spi(Fuzzing)
    public static func decodeInOnePassFoldingRepeats(bytes: [UInt8], limits: WireLimits) -> LayoutRequest? {
        var copies = 0
        return bytes.withUnsafeBufferPointer {
            OnePassDecoder.decode($0, limits: limits, storage: nil, repeatsFrom: 0, foldsRepeats: true, body: bytes,
                                  copies: &copies)
        }
    }

    /// Parses and decodes a request body held in any byte collection (`ArraySlice`, `Data`, ...).
    public static func decodeRequest<Bytes: Collection<UInt8>>(bytes: Bytes, limits: WireLimits = .default) throws(WireError) -> LayoutRequest {
        let result: Result<LayoutRequest, WireError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(WireError) in try decodeRequest(bytes: UnsafeRawBufferPointer(buffer), limits: limits) }
        }
        if let result { return try result.get() }
        return try decodeRequest(bytes: Array(bytes), limits: limits)
    }

    /// The frames of a laid-out request, in the shape of a case's `expected` under `"root"`.
    /// Call after `computeLayout`.
    public static func encodeResponse(_ request: LayoutRequest) -> [UInt8] {
        ResponseEncoder.encode(request)
    }
}
