import LayoutEngine
import LayoutWire
import SyncSupport

/// Where a retained base's request document comes from.
enum BaseDocument: Sendable {
    /// The request body as received: an unparsed `JSONTree` when first patched, parsed where
    /// patches reach into it.
    case body([UInt8])
    /// The document already as a tree (a patched one), with its number of values and the
    /// bytes it holds on the heap (`JSONTree.heapBytes`, or an upper bound: a patched copy
    /// shares most of its storage with its base but is charged it all, and values a patch
    /// removed stay charged), and `measuredBytes`, the heap bytes when last measured exactly.
    case tree(JSONTree, valueCount: Int, heapBytes: Int, measuredBytes: Int)

    /// `tree` measured exactly.
    static func measured(_ tree: JSONTree) -> BaseDocument {
        let bytes = tree.heapBytes
        return .tree(tree, valueCount: tree.measure(budget: .max)?.count ?? 0, heapBytes: bytes, measuredBytes: bytes)
    }

    /// The document of request body `body` as a tree still unparsed (`JSONTree(unparsed:)`),
    /// nil when the body is empty. Its values are counted as at most one per two bytes (every
    /// value but the first takes a byte and a separator), not counted over its bytes: an upper
    /// bound, so a patch is refused no later than an exact count would refuse it, and exact once
    /// the document is measured again.
    static func unparsed(_ body: [UInt8]) -> BaseDocument? {
        guard let tree = JSONTree(unparsed: body) else { return nil }
        let bytes = tree.heapBytes
        return .tree(tree, valueCount: (body.count + 1) / 2, heapBytes: bytes, measuredBytes: bytes)
    }
}

/// A retained base by the numbers of its answer's ETag (`"<32 hex>-<16 hex>"`).
struct BaseKey: ShardSelectingKey, Sendable {
    var high: UInt64
    var low: UInt64
    var ids: UInt64

    var shardSelector: Int { Int(truncatingIfNeeded: low) }

    /// The key of an ETag as `ETag` sends it, with or without its quotes and a `W/` prefix;
    /// nil when `entityTag` is not one of this service's tags.
    init?(entityTag: String) {
        var text = entityTag
        guard let key = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = key
    }

    /// `"<32 hex>-<16 hex>"`, optionally without the quotes or after `W/`.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> BaseKey? {
        var digits = bytes[...]
        if digits.starts(with: "W/".utf8) { digits = digits.dropFirst(2) }
        if digits.count == EntityTag.quotedLength, digits.first == UInt8(ascii: "\""), digits.last == UInt8(ascii: "\"") {
            digits = digits.dropFirst().dropLast()
        }
        let start = digits.startIndex
        guard digits.count == EntityTag.quotedLength - 2, digits[start + 32] == UInt8(ascii: "-"),
              let high = hex(digits[start..<(start + 16)]), let low = hex(digits[(start + 16)..<(start + 32)]),
              let ids = hex(digits[(start + 33)...])
        else { return nil }
        return BaseKey(high: high, low: low, ids: ids)
    }

    private init(high: UInt64, low: UInt64, ids: UInt64) {
        self.high = high
        self.low = low
        self.ids = ids
    }

    private static func hex(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        return value
    }
}

/// An earlier request kept for patches: its decoded (and usually laid-out) tree with the
/// frames answered, and its request document.
///
/// The tree is handed over, not copied: a patch applied in place takes it (a 1,000-node tree
/// is ~1 MB, whose copy would cost more than the relayout) and the base is kept on without
/// it, so patching it again is rebuilt from its document. Chained patches, each naming the
/// last answer, all run in place.
// @unchecked: `request` is read and written only under `lock`; every other member is a `let`
// set in init. The request's hooks are removed before it is kept, so it holds no closures.
final class BaseEntry: @unchecked Sendable {
    private let lock = Mutex()
    private var request: LayoutRequest?
    /// The structural hash of `request`'s tree in parts, so a patch rehashes only what it
    /// edits; nil when not made (the patch then hashes the tree whole once).
    private var hashParts: StructuralHashParts?
    /// The answered frames: the nodes' in pre-order first (text leaves' content boxes may
    /// follow); empty when only the document is kept (answered from a cache before any layout).
    let frames: [Frame]
    /// Whether the tree holds the layout of `frames` (not when they came from a cache).
    let laidOut: Bool
    /// The last whole answer encoded for this tree's chain of patches, with its frames' places,
    /// possibly of frames older than `frames` (a `changesOnly` patch hands it on unchanged):
    /// the next whole answer rewrites only the frames that differ (or, after a patch that adds,
    /// removes or moves nodes, copies the bytes of the nodes kept). It always has this tree's
    /// structure and ids: nil when a patch changed them without encoding a whole answer, or no
    /// whole answer was encoded in place.
    let answer: SplicedAnswer?
    let document: BaseDocument
    /// What the entry holds on the heap, as the store charges it.
    let cost: Int
    /// The tree can be edited in place by a patch: a decoded flexbox tree without size
    /// references or Core Layout's printed tree, whose answer has neither text lines nor
    /// warnings (anything else is rebuilt).
    let patchesInPlace: Bool
    /// Kept without its tree (a request's own base), whose document decodes to a tree a patch
    /// can edit in place (`patchesInPlace` once decoded).
    let decodesInPlace: Bool

    /// Whether a patch can edit `request`'s tree in place as far as the request tells (see
    /// `patchesInPlace`; its answer's warnings are known only once it is laid out).
    static func patchesInPlace(_ request: LayoutRequest) -> Bool {
        (request.textLeaves.isEmpty || !request.textLines) && !request.printsTree && !request.tree.hasSizeReferences
    }

    /// What the request's ids hold on the heap (`idsCost(_:)`), 0 without a request.
    let idsCost: Int

    /// What `ids` hold on the heap.
    static func idsCost(_ ids: NodeIdentifiers) -> Int {
        ids.heapBytes
    }

    /// `patchesInPlace`: what `patchesInPlace(_:)` said of `request` (its callers know it
    /// already, and it scans every node's style). `idsCost`: `idsCost(request.ids)` when the
    /// caller knows it (a patch that kept the ids: counting 1,000 of them was most of the 2 % of
    /// a small patch's CPU that making its entry took). `decodesInPlace`: for an entry without
    /// `request`, see `decodesInPlace`.
    init(request: consuming LayoutRequest?, hashParts: StructuralHashParts? = nil, patchesInPlace: Bool = false,
         frames: [Frame], laidOut: Bool, document: BaseDocument, answer: SplicedAnswer? = nil, idsCost: Int? = nil,
         decodesInPlace: Bool = false) {
        var request = request
        request?.tree.measureFunction = nil
        request?.tree.baselineFunction = nil
        request?.tree.childPlacementFunction = nil
        self.frames = frames
        self.laidOut = laidOut
        self.document = document
        self.decodesInPlace = request == nil && decodesInPlace
        var cost = 64 + HeapFootprint.lruBookkeeping(key: BaseKey.self, value: BaseEntry.self) + HeapCharge.array(frames)
        // Kept with the tree only: the entry left behind by a patch that took the tree needs none.
        self.answer = request == nil ? nil : answer
        cost += self.answer?.heapBytes ?? 0
        if let request {
            let idsCost = idsCost ?? Self.idsCost(request.ids)
            self.idsCost = idsCost
            cost += request.tree.heapBytes + idsCost + HeapCharge.array(request.textLeaves)
                + HeapCharge.array(request.textLeafCopies)
            // A dictionary entry (key, value and bucket) per painted node, at twice its size.
            cost += 2 * request.paint.nodes.count * (MemoryLayout<Int32>.stride + MemoryLayout<NodePaint>.stride + 8)
            self.patchesInPlace = patchesInPlace
            cost += hashParts?.heapBytes ?? 0
        } else {
            self.patchesInPlace = false
            self.idsCost = 0
        }
        switch document {
        case .body(let body): cost += HeapCharge.array(body)
        case .tree(_, _, let heapBytes, _): cost += heapBytes
        }
        self.cost = cost
        self.request = request
        self.hashParts = request == nil ? nil : hashParts
    }

    // Evicted, replaced or done with: a large tree's arrays go to the next large tree. (Arrays
    // a patch still shares through `copyOfRequest` stay that patch's: see `takeStorage`.)
    deinit {
        if request != nil { TreeStoragePool.shared.recycle(&request!.tree) }
    }

    /// The tree, for a patch that edits it in place, with its hash parts in `hashParts`; nil
    /// when another patch has it. Give them back with `putBack` if the tree is not edited after
    /// all. (The parts come out through `inout` so that no second reference to the tree is
    /// left alive, which would make its first edit copy every array.)
    func takeRequest(hashParts parts: inout StructuralHashParts?) -> LayoutRequest? {
        lock.lock()
        defer { lock.unlock() }
        guard request != nil else { return nil }
        parts = hashParts
        hashParts = nil
        let taken = request
        request = nil
        return taken
    }

    func putBack(_ taken: consuming LayoutRequest, hashParts parts: StructuralHashParts?) {
        lock.lock()
        defer { lock.unlock() }
        if request == nil {
            request = taken
            hashParts = parts
        }
    }

    /// The request to read (a copy sharing its storage), or nil.
    func copyOfRequest() -> LayoutRequest? {
        lock.lock()
        defer { lock.unlock() }
        return request
    }

    /// The request document as JSON.
    var documentBytes: [UInt8] {
        switch document {
        case .body(let body): return body
        case .tree(let tree, _, _, _): return tree.jsonBytes()
        }
    }

    /// This entry without its tree, charged what is left.
    func withoutRequest() -> BaseEntry {
        BaseEntry(request: nil, frames: frames, laidOut: false, document: document)
    }
}

/// Recent `/compute` requests by the ETag of their answers, bounded in bytes (LRU), for
/// `/compute/patch`.
final class BaseStore: Sendable {
    private let entries: ShardedCache<BaseKey, BaseEntry>

    init(capacityBytes: Int, shardCount: Int) {
        entries = ShardedCache(capacityBytes: capacityBytes, shardCount: shardCount)
    }

    /// The service's store: `patchBaseBytes` in a quarter as many shards as the caches, each of
    /// at least `minimumShardBytes` (one shard at the default 16 MiB). One tree may cost up to
    /// a shard's share (a patched 1,000-node tree ~2 MB), and the chains whose keys fall in one
    /// small shard evict each other's newest bases: four chat chains of such trees had 7 % of
    /// their patches answered 412 in two 8 MiB shards, none in one of 16 MiB.
    convenience init(configuration: ServiceConfiguration) {
        self.init(capacityBytes: configuration.patchBaseBytes,
                  shardCount: Self.shardCount(capacityBytes: configuration.patchBaseBytes, cacheShards: configuration.cacheShards))
    }

    /// The smallest shard the service's store is cut into, unless the whole budget is smaller.
    static let minimumShardBytes = 32 << 20

    /// How many shards the service's store has: a quarter of the caches', fewer when shards
    /// would be smaller than `minimumShardBytes`; at least one.
    static func shardCount(capacityBytes: Int, cacheShards: Int) -> Int {
        max(1, min(cacheShards / 4, capacityBytes / minimumShardBytes))
    }

    var isEnabled: Bool { entries.capacityBytes > 0 }
    var capacityBytes: Int { entries.capacityBytes }
    var statistics: CacheStatistics { entries.statistics }

    /// Keeps `entry` under `entityTag`, replacing what was kept there.
    func store(_ entry: BaseEntry, entityTag: String) {
        guard let key = BaseKey(entityTag: entityTag) else { return }
        store(entry, key: key)
    }

    /// Keeps `entry` under `key`, replacing what was kept there. An entry whose tree costs more
    /// than one shard holds (a large tree, or one that patches grew) keeps its document alone:
    /// the next patch naming it is rebuilt from that, where dropping it would answer 412.
    func store(_ entry: BaseEntry, key: BaseKey) {
        let kept = keepsTree(of: entry) ? entry : entry.withoutRequest()
        entries.insert(kept, for: key, cost: kept.cost, keepsExisting: { _ in false })
    }

    /// Whether `store` keeps `entry` with its tree.
    func keepsTree(of entry: BaseEntry) -> Bool {
        entry.cost <= entries.shardCapacityBytes
    }

    /// Keeps `base` again without its tree, which a patch took, as the first entry to be
    /// evicted. The chain goes on from that patch's answer; this one stays for a client that
    /// names it again (a retry, a branch) only as long as it pushes out no entry in use: kept
    /// as most recently used, old bases crowded out the newest bases of other chains.
    func storeTaken(_ base: BaseEntry, key: BaseKey) {
        let kept = base.withoutRequest()
        entries.insert(kept, for: key, cost: kept.cost, placement: .oldest, keepsExisting: { _ in false })
    }

    /// Keeps `document` under `entityTag` unless something is kept there already (then only
    /// marks it recently used): the answer was served without a tree to keep, but a client
    /// told to send the whole tree again must be able to patch it afterwards.
    func storeDocument(_ document: BaseDocument, entityTag: String) {
        guard let key = BaseKey(entityTag: entityTag) else { return }
        storeDocument(document, key: key)
    }

    /// `storeDocument(_:entityTag:)` by key.
    func storeDocument(_ document: BaseDocument, key: BaseKey) {
        // Looked up first: a cached answer is the hot path, and an entry there is the usual case.
        guard entries.lookup(key, { _ in true }) == nil else { return }
        let entry = BaseEntry(request: nil, frames: [], laidOut: false, document: document)
        entries.insert(entry, for: key, cost: entry.cost, keepsExisting: { _ in true })
    }

    func lookup(_ key: BaseKey) -> BaseEntry? {
        entries.lookup(key) { $0 }
    }
}
