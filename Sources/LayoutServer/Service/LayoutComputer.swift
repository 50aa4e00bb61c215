import LayoutEngine
import LayoutText
import LayoutWire

/// Turns one decoded layout request into its answer, through the cache: hash the input, look
/// it up, and only on a miss lay the tree out and store its frames.
struct LayoutComputer: Sendable {
    /// How an answer was produced, for `X-Cache` and the request log.
    enum CacheOutcome: String, Sendable {
        case hit, miss
        /// Answered 304 from the ETag alone; the cache was not consulted.
        case notModified = "not-modified"
    }

    /// Which cache answered a hit, for `X-Cache-Level`.
    enum CacheLevel: String, Sendable {
        /// The answer cache: the exact request body answered before.
        case answer
        /// This process's layout cache.
        case local
        /// The shared cache in Redis (another replica, or this one before a restart, computed it).
        case shared
    }

    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
        var cache: CacheOutcome?
        /// The quoted ETag, for 200 and 304 answers.
        var entityTag: String?
        /// Which cache answered, for hits.
        var level: CacheLevel? = nil
    }

    /// The answer to a request that failed.
    private static func answer(_ error: ServiceError) -> Answer {
        Answer(status: error.status, body: error.jsonBytes, cache: nil, entityTag: nil)
    }

    let cache: FrameCache
    let limits: WireLimits
    /// Lays out text leaves (`"text"`), with the fonts the service was started with.
    var textLayouter: TextLayouter = .bundled
    /// The second level behind `cache`, shared by every replica; nil when not configured.
    var shared: SharedFrameCache? = nil
    /// The secret the structural hash (the cache key, and the ETag's first part) is keyed with.
    var hashKey: StructuralHashKey = .processRandom
    /// Where answered requests are kept for `/compute/patch` (nil: not kept).
    var bases: BaseStore? = nil
    /// Whether a request's own base keeps its laid-out tree, not its body alone
    /// (`ServiceConfiguration.patchKeepsComputedTrees`).
    var keepsComputedTrees = false
    /// Layouts of repeated subtrees kept across requests; nil keeps them for one request.
    var subtrees: SubtreeCache? = nil
    /// Whether repeated subtrees are laid out once (false: every node computed, for tests).
    var reusesSubtrees = true
    /// Where large trees are built and, when not kept for patches, given back (nil: fresh arrays).
    var treeStorage: TreeStoragePool? = .shared
    /// Whether a body's repeated siblings are decoded as instances of the first
    /// (`LayoutWire.decodeRequest(bytes:foldsRepeats:)`), so that a feed of a few cell shapes
    /// costs per cell one node (see `answerWithInstances`). Needs `reusesSubtrees`.
    var foldsRepeats = true

    /// The answer to a request body: decoded with the configured limits, or the wire's error.
    /// `objectCount`: the body's count of `{`, when the caller has counted them already.
    func answer(body: [UInt8], ifNoneMatch: String?, objectCount: Int? = nil) -> Answer {
        do {
            let folds = foldsRepeats && reusesSubtrees
            var request = try LayoutWire.decodeRequest(bytes: body, limits: limits, objectCount: objectCount,
                                                       storage: treeStorage, foldsRepeats: folds)
            let document: BaseDocument? = bases == nil ? nil : .body(body)
            if request.tree.hasInstances {
                if let answer = answerWithInstances(&request, ifNoneMatch: ifNoneMatch, document: document) {
                    return answer
                }
                // Not answerable so: decoded again without instances, and answered as any request.
                treeStorage?.recycle(&request.tree)
                request = try LayoutWire.decodeRequest(bytes: body, limits: limits, objectCount: objectCount,
                                                       storage: treeStorage)
            }
            // `consume`: handed over, not copied. A copy held here until the call returned left
            // the tree's arrays shared, so the layout copied its layouts and measurement caches
            // (copy-on-write: ~3 % of an uncached 1,000-node request, 20 MB at 50,000 nodes).
            return answer(consume request, ifNoneMatch: ifNoneMatch, document: document, keepsTree: keepsComputedTrees)
        } catch {
            return Self.answer(ServiceError(error))
        }
    }

    /// The answer to a decoded request. `ifNoneMatch` (an `If-None-Match` field value) turns a
    /// matching answer into a 304 without a body. `pointerPrefix` goes before the warnings'
    /// pointers: where the request sits in the document it came in (a batch's `/3`). With
    /// `bases` set, a 200 or 304 keeps `document` (the request's) under the answer's ETag for
    /// patches, and the tree with it when `keepsTree` (a patch's answer, which the next patch
    /// of its chain edits in place).
    // `consuming`: the caller's last use hands the tree over, so `computeLayout` mutates it in
    // place instead of copying every array of a still-shared tree (copy-on-write).
    func answer(_ request: consuming LayoutRequest, ifNoneMatch: String?, pointerPrefix: String = "",
                document: BaseDocument? = nil, keepsTree: Bool = true) -> Answer {
        let text = request.textLeaves.isEmpty ? nil : RequestText(installingOn: &request, layouter: textLayouter, key: hashKey)
        // A tree kept for patches in place keeps its hash in parts too, so a patch rehashes
        // only the nodes it edits (the same hash: one definition, see `structuralHash`).
        var hashParts: StructuralHashParts?
        var key: StructuralHash
        if document != nil, bases != nil, keepsTree, BaseEntry.patchesInPlace(request) {
            hashParts = request.tree.structuralHashParts(root: request.root, available: request.available,
                                                         direction: request.direction, key: hashKey,
                                                         copies: request.subtreeCopies.list)
            key = hashParts!.hash
        } else {
            key = request.tree.structuralHash(root: request.root, available: request.available,
                                              direction: request.direction, key: hashKey, copies: request.subtreeCopies.list)
        }
        // Lines change the answer (not the frames): another ETag, and cache entries that also
        // keep each text leaf's content box.
        let textLines = request.textLines && text != nil
        if textLines { key.low ^= 0x7465_7874_6C69_6E65 }
        let tag = EntityTag(structure: key, ids: request.ids, printsTree: request.printsTree)
        if let ifNoneMatch, tag.matches(ifNoneMatch: ifNoneMatch) {
            // Layout is a pure function of the hashed input: the client's copy is still right.
            if let document { bases?.storeDocument(document, entityTag: tag.quoted) }
            return Answer(status: 304, body: [], cache: .notModified, entityTag: tag.quoted)
        }
        let frames: [Frame]
        let outcome: CacheOutcome
        var level: CacheLevel?
        if let cached = cache.lookup(key) {
            frames = cached
            outcome = .hit
            level = .local
        } else if let shared,
                  let stored = shared.lookup(key, frameCount: request.tree.nodeCount + (textLines ? text!.leaves.count : 0)) {
            cache.insert(stored, for: key)
            frames = stored
            outcome = .hit
            level = .shared
        } else {
            // Repeated subtrees (feed cells) are laid out once; see `SubtreeReuse`.
            if reusesSubtrees { request.tree.subtreeReuse = SubtreeReuse(key: hashKey, store: subtrees) }
            request.tree.computeLayout(root: request.root, available: request.available,
                                       direction: request.direction)
            frames = request.tree.preorderFrames(root: request.root)
                + (textLines ? text!.contentBoxes(of: request.tree) : [])
            if let overflow = Self.overflowError(frames, request) {
                return Self.answer(overflow)
            }
            cache.insert(frames, for: key)
            shared?.store(frames, for: key)
            outcome = .miss
        }
        let body: [UInt8]
        // The leaves' content boxes follow the nodes' frames (see `contentBoxes`).
        let boxCount = textLines ? text?.leaves.count ?? 0 : 0
        let printedTree = request.printsTree ? request.printedTree(frames: Array(frames.dropLast(boxCount))) : nil
        // Patches in place answer without warnings (their text is the base's): a tree whose
        // answer has them is rebuilt.
        var warned = false
        if let text {
            let boxes = frames[(frames.count - boxCount)...]
            let warnings = text.warnings.map { WireWarning(code: $0.code, message: $0.message, pointer: pointerPrefix + $0.pointer) }
            warned = !warnings.isEmpty
            let trailer: ((inout JSONWriter) -> Void)? = warnings.isEmpty ? nil : { RequestText.write(warnings, into: &$0) }
            if textLines {
                body = ResponseEncoder.encode(tree: request.tree, root: request.root, ids: request.ids,
                                              frames: PreorderFrames(frames), members: TextLineMembers(text: text, boxes: boxes),
                                              printedTree: printedTree, trailer: trailer)
            } else {
                body = ResponseEncoder.encode(tree: request.tree, root: request.root, ids: request.ids,
                                              frames: PreorderFrames(frames), members: NoNodeMembers(),
                                              printedTree: printedTree, copies: request.subtreeCopies, trailer: trailer)
            }
        } else {
            body = ResponseEncoder.encode(tree: request.tree, root: request.root, ids: request.ids, frames: frames,
                                          printedTree: printedTree, copies: request.subtreeCopies)
        }
        if let document, let bases, keepsTree {
            // Hash parts are kept exactly for the trees that patch in place (above).
            bases.store(BaseEntry(request: request, hashParts: hashParts, patchesInPlace: hashParts != nil && !warned, frames: frames,
                                  laidOut: outcome == .miss, document: document),
                        entityTag: tag.quoted)
        } else {
            if let document, let bases {
                // A request's own base keeps its body, not its tree: most are never patched, and
                // keeping the tree cost an uncached 1,000-node request 6–15 % of its server CPU
                // over HTTP (Benchmarks/load/RESULTS.md, 2026-12-03). A first patch decodes the
                // body again (`PatchComputer.materialized`).
                bases.store(BaseEntry(request: nil, frames: frames, laidOut: outcome == .miss, document: document,
                                      decodesInPlace: BaseEntry.patchesInPlace(request) && !warned),
                            entityTag: tag.quoted)
            }
            // Not kept: a large tree's arrays go to the next large tree (a kept one's go when
            // its entry does).
            treeStorage?.recycle(&request.tree)
        }
        return Answer(status: 200, body: body, cache: outcome, entityTag: tag.quoted, level: level)
    }

    /// The answer to a request whose tree has instances (see SubtreeInstances.swift), as
    /// `answer(_:ifNoneMatch:pointerPrefix:document:)` gives it for the tree they stand for:
    /// the same ETag (hash and ids of the expanded tree), frames, caches and body. Nil when it
    /// cannot be made so (the request asks for lines or a printed tree; its text has warnings,
    /// which the leaves the instances stand for would repeat with their own pointers; the
    /// layout could not lay an instance out; a frame overflows): then the caller answers the
    /// request decoded without instances. A base kept for patches keeps its document and
    /// frames, not the tree: its first patch is a rebuild.
    func answerWithInstances(_ request: inout LayoutRequest, ifNoneMatch: String?, document: BaseDocument?) -> Answer? {
        guard !request.textLines, !request.printsTree else { return nil }
        let text = request.textLeaves.isEmpty ? nil : RequestText(installingOn: &request, layouter: textLayouter, key: hashKey)
        // Leaves that warn are answered by the node-by-node decode (the copies' leaves warn with
        // their own pointers). Known from the styles alone, so found before any hash or layout;
        // only the sources' leaves are filed, so this looks at few.
        if let text, !text.warnings.isEmpty { return nil }
        let key = request.tree.structuralHash(root: request.root, available: request.available,
                                              direction: request.direction, key: hashKey)
        let tag = EntityTag(structure: key, ids: request.ids, instanceIDs: request.instanceIDs,
                            instances: request.tree.instances)
        if let ifNoneMatch, tag.matches(ifNoneMatch: ifNoneMatch) {
            if let document { bases?.storeDocument(document, entityTag: tag.quoted) }
            treeStorage?.recycle(&request.tree)
            return Answer(status: 304, body: [], cache: .notModified, entityTag: tag.quoted)
        }
        let frames: [Frame]
        let outcome: CacheOutcome
        var level: CacheLevel?
        if let cached = cache.lookup(key) {
            (frames, outcome, level) = (cached, .hit, .local)
        } else if let shared, let stored = shared.lookup(key, frameCount: request.tree.expandedNodeCount) {
            cache.insert(stored, for: key)
            (frames, outcome, level) = (stored, .hit, .shared)
        } else {
            request.tree.subtreeReuse = SubtreeReuse(key: hashKey, store: subtrees)
            request.tree.computeLayout(root: request.root, available: request.available, direction: request.direction)
            guard request.tree.instancesLaidOut else { return nil }
            frames = request.tree.preorderFrames(root: request.root)
            // The pointer of an overflow is the expanded tree's: that decode answers it.
            guard Self.overflowError(frames, request) == nil else { return nil }
            cache.insert(frames, for: key)
            shared?.store(frames, for: key)
            outcome = .miss
        }
        guard let body = ResponseEncoder.encode(tree: request.tree, root: request.root, ids: request.ids,
                                                instanceIDs: request.instanceIDs, frames: frames)
        else { return nil }
        if let document, let bases {
            bases.store(BaseEntry(request: nil, frames: frames, laidOut: outcome == .miss, document: document),
                        entityTag: tag.quoted)
        }
        treeStorage?.recycle(&request.tree)
        return Answer(status: 200, body: body, cache: outcome, entityTag: tag.quoted, level: level)
    }

    /// Extreme inputs (sizes near Float's limit) can overflow to infinity or NaN, which JSON
    /// cannot carry: answer 422 pointing at the first such node instead of a frame of nulls.
    /// `onlyAt`: the frames to check, when the others are known to be finite.
    static func overflowError(_ frames: [Frame], _ request: LayoutRequest, onlyAt moved: [MovedFrame]? = nil) -> ServiceError? {
        func overflows(_ frame: Frame) -> Bool {
            !(frame.left.isFinite && frame.top.isFinite && frame.width.isFinite && frame.height.isFinite)
        }
        let found = moved.map { $0.first { overflows(frames[$0.position]) }?.position } ?? frames.firstIndex(where: overflows)
        guard let index = found else { return nil }
        return ServiceError(status: 422, code: "layout-overflow",
                            message: "the layout overflows 32-bit floats (a frame is infinite or not a number); use smaller sizes",
                            pointer: ResponseEncoder.pointer(toPreorderIndex: index, tree: request.tree, root: request.root))
    }
}

/// One layout without a server, as `/compute` would answer it (without caching).
public enum LayoutOnce {
    /// The status and body `/compute` would answer for `body`: 200 with the frames, or an
    /// error status with the error object. `subtrees` keeps layouts of repeated subtrees for
    /// later calls (as `--subtree-cache-bytes`); nil keeps them for this call only. A large
    /// tree is built in and given back to `treeStorage` (nil: fresh arrays).
    public static func answer(body: [UInt8], limits: WireLimits = .default, subtrees: SubtreeCache? = nil,
                              treeStorage: TreeStoragePool? = .shared) -> (status: Int, body: [UInt8]) {
        var computer = LayoutComputer(cache: FrameCache(capacityBytes: 0, shardCount: 1), limits: limits)
        computer.subtrees = subtrees
        computer.treeStorage = treeStorage
        let answer = computer.answer(body: body, ifNoneMatch: nil)
        return (answer.status, answer.body)
    }
}
