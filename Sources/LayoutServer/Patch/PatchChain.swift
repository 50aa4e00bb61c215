import LayoutWire

/// `/compute`, then `/compute/patch` after `/compute/patch`, each on the last answer's ETag, as
/// the service answers them but without a server: the default frame cache and base store, no
/// HTTP. For a benchmark that weighs a patch against the whole tree in one process, where
/// instruction counts and paired times resolve what HTTP runs on a shared machine cannot.
@_spi(Benchmarks)
public struct PatchChain {
    private let patches: PatchComputer
    /// The ETag of the last answer: the base of the next patch.
    public private(set) var entityTag: String
    /// How the last patch was answered, as `X-Patch` says it (`in-place`, `in-place-fresh`,
    /// `rebuilt`); nil when it was refused.
    public private(set) var lastMode: String?

    /// The chain's first answer, `body` laid out as `/compute` lays it out; nil unless it is a
    /// 200.
    public init?(body: [UInt8], configuration: ServiceConfiguration = ServiceConfiguration()) {
        let bases = BaseStore(configuration: configuration)
        var computer = LayoutComputer(cache: FrameCache(capacityBytes: configuration.cacheBytes, shardCount: 1),
                                      limits: configuration.wire)
        computer.bases = bases
        computer.keepsComputedTrees = configuration.patchKeepsComputedTrees
        let answer = computer.answer(body: body, ifNoneMatch: nil)
        guard answer.status == 200, let tag = answer.entityTag else { return nil }
        entityTag = tag
        patches = PatchComputer(computer: computer, bases: bases, limits: configuration.wire,
                                maxOperations: configuration.maxPatchOperations, maxBodyBytes: configuration.maxPatchBytes)
    }

    /// `body` answered as `/compute` answers it with the chain's frame cache, without keeping
    /// it as a base (the chain goes on from its own): what a patch left in the cache is what
    /// anyone who sends the patched tree whole is served. `cached`: the frame cache answered.
    public func compute(_ body: [UInt8], ifNoneMatch: String? = nil)
        -> (status: Int, body: [UInt8], entityTag: String?, cached: Bool) {
        var computer = patches.computer
        computer.bases = nil
        let answer = computer.answer(body: body, ifNoneMatch: ifNoneMatch)
        return (answer.status, answer.body, answer.entityTag, answer.cache == .hit)
    }

    /// The answer to `operations` (a JSON Patch array, as text) on the last answer's request, as
    /// `/compute/patch` gives it; a 200's ETag becomes the base of the next patch.
    /// `changesByNode`: `"changesBy": "node"` (else the default, by pointer).
    public mutating func patch(_ operations: String, changesOnly: Bool = false,
                               changesByNode: Bool = false) -> (status: Int, body: [UInt8]) {
        // The service's ETags are strong, quoted hex digits: only the quotes need escaping in JSON.
        // Written byte by byte: a String built from Characters cost ~5 % of the patch it measured.
        var body = Array((changesByNode ? #"{"changesBy":"node","base":""# : #"{"base":""#).utf8)
        for byte in entityTag.utf8 {
            if byte == UInt8(ascii: "\"") { body.append(UInt8(ascii: "\\")) }
            body.append(byte)
        }
        body += #"","changesOnly":\#(changesOnly),"patch":"#.utf8
        body += operations.utf8
        body.append(UInt8(ascii: "}"))
        let (answer, mode) = patches.answer(body: body, ifNoneMatch: nil)
        lastMode = mode?.rawValue
        if answer.status == 200, let tag = answer.entityTag { entityTag = tag }
        return (answer.status, answer.body)
    }
}
