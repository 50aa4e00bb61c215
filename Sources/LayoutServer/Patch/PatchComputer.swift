import LayoutEngine
import LayoutWire

/// Answers `/compute/patch`: applies a JSON Patch to a retained earlier request and lays out
/// the result, relaying out only what changed when the patch edits nodes' own members.
///
/// Two ways to the same frames as sending the patched document whole:
/// - in place: every operation edits members of flexbox nodes (`style`, `measure`, `id`,
///   `isIncludedInLayout`) or adds, removes, replaces or moves nodes in `children` arrays
///   (`TreeEdit`); the base's laid-out tree (taken from it, see `BaseEntry`) is edited as the
///   document was, operation by operation, which marks the edited nodes and their ancestors
///   dirty (Yoga's `markDirtyAndPropagate`), and the layout pass redoes only dirty nodes,
///   answering every other node from what it answered last time while it is asked the same
///   (`LayoutTree.relayoutsExactly`). Text leaves are measured again through new hooks; a
///   leaf's `text` may be replaced by another string, leaves added or moved are resolved where
///   they land (`resolveText`), but an edit of a text style key or `direction` (on a leaf or
///   above it) is rebuilt;
/// - rebuilt: anything else (top-level members, a node copied, text added to or taken from a
///   node, other layout models, size references, answers with text lines or warnings) decodes
///   the patched document whole and answers it as `/compute` does.
struct PatchComputer: Sendable {
    /// Lays out rebuilt documents; its `bases` keeps every answer for the next patch.
    let computer: LayoutComputer
    let bases: BaseStore
    let limits: WireLimits
    let maxOperations: Int
    let maxBodyBytes: Int

    /// How a patch was answered, for `X-Patch`.
    enum Mode: String, Sendable {
        /// Applied to the kept tree, and only what the edit reaches laid out again.
        case inPlace = "in-place"
        /// Applied to the kept tree, which was laid out afresh (the first patch of a chain, or
        /// one that a relayout could not answer exactly: see `LayoutTree.relayoutsExactly`).
        case inPlaceFresh = "in-place-fresh"
        /// The patched document decoded and laid out whole.
        case rebuilt
    }

    /// A patch answered, or the part of its work left to run elsewhere (see `start`).
    enum Outcome: Sendable {
        case answered(LayoutComputer.Answer, Mode?)
        /// Work too large to run where the request arrived: the caller runs it on the compute queue.
        case queue(@Sendable () -> (LayoutComputer.Answer, Mode?))

        /// The answer, running here what was left.
        func finished() -> (LayoutComputer.Answer, Mode?) {
            switch self {
            case .answered(let answer, let mode): return (answer, mode)
            case .queue(let rest): return rest()
            }
        }
    }

    /// The patch in `body` answered now.
    func answer(body: [UInt8], ifNoneMatch: String?) -> (LayoutComputer.Answer, Mode?) {
        start(body: body, ifNoneMatch: ifNoneMatch, inPlaceUpToNodes: 0).finished()
    }

    /// The patch in `body` answered now when that is cheap: a request refused, or a patch
    /// applied in place to a kept, laid-out tree of at most `inPlaceUpToNodes` nodes (an edit
    /// costs what it reaches, less than two thread hops for a small one). Everything else —
    /// a base to lay out or parse first, a larger tree, a rebuild — is left in `.queue`.
    func start(body: [UInt8], ifNoneMatch: String?, inPlaceUpToNodes: Int) -> Outcome {
        guard body.count <= maxBodyBytes else {
            return Self.refusal(ServiceError(status: 413, code: "patch-too-large",
                                             message: "the patch request is \(body.count) bytes; the limit is \(maxBodyBytes)"))
        }
        let request: PatchRequest
        do {
            request = try PatchRequest(bytes: body, limits: limits, maxOperations: maxOperations)
        } catch {
            return Self.refusal(ServiceError(error))
        }
        guard let key = BaseKey(entityTag: request.base) else {
            return Self.refusal(ServiceError(status: 422, code: "invalid-value",
                                             message: "base must be the ETag of an earlier /compute answer of this service",
                                             pointer: "/base"))
        }
        guard let base = bases.lookup(key) else { return Self.refusal(Self.unknownBase) }
        guard base.frames.count <= inPlaceUpToNodes, !base.frames.isEmpty, case .tree = base.document else {
            return .queue { [self] in answer(request, key: key, ifNoneMatch: ifNoneMatch) }
        }
        return applied(request, to: base, key: key, ifNoneMatch: ifNoneMatch)
    }

    private static func refusal(_ error: ServiceError) -> Outcome {
        .answered(LayoutComputer.Answer(status: error.status, body: error.jsonBytes, cache: nil, entityTag: nil), nil)
    }

    private static let unknownBase = ServiceError(
        status: 412, code: "unknown-base",
        message: "this server no longer has the tree of that ETag (or never had it); "
            + "send the whole tree to /compute, then patch the ETag of that answer",
        pointer: "/base")

    /// `request` answered on the base under `key`, laid out first when it is kept without its
    /// frames or document tree.
    private func answer(_ request: PatchRequest, key: BaseKey, ifNoneMatch: String?) -> (LayoutComputer.Answer, Mode?) {
        guard let base = materialized(key) else { return Self.refusal(Self.unknownBase).finished() }
        return applied(request, to: base, key: key, ifNoneMatch: ifNoneMatch).finished()
    }

    /// The patch applied to the document of `base` (materialized: a document tree and frames)
    /// and answered in place, or else its rebuild, left in `.queue`.
    private func applied(_ request: PatchRequest, to base: BaseEntry, key: BaseKey, ifNoneMatch: String?) -> Outcome {
        guard case .tree(var original, var valueCount, let baseBytes, let measuredBytes) = base.document else {
            return Self.refusal(Self.unknownBase)
        }
        // The containers the patch reaches, parsed once for the base's document and the patched
        // one alike (the in-place path reads the edited nodes in both); once parsed, a path is
        // left alone (expanding copies the containers on it, shared with the base).
        for operation in request.patch.operations where original.meetsRawContainer(along: operation.path) {
            original.expandContainers(along: operation.path)
        }
        var document = original
        let maxValues = limits.maxDocumentBytes / 2
        do {
            try request.patch.apply(to: &document, valueCount: &valueCount, maxValues: maxValues, maxNesting: limits.maxNesting)
        } catch {
            return Self.refusal(ServiceError(error.prefixed(by: "/patch")))
        }
        // Charged what the patch brings in; copies and moves share storage already charged.
        // Values removed stay charged (bytes and values both), so a long chain that adds and
        // removes nodes (a chat that scrolls) is measured again once its charge doubles what
        // was measured, or its values reach half the limit.
        let charged = baseBytes + request.patch.operations.reduce(0) { $0 + ($1.value?.heapBytes ?? 0) }
        let patched = charged > 2 * measuredBytes + (64 << 10) || valueCount > maxValues / 2 ? BaseDocument.measured(document)
            : BaseDocument.tree(document, valueCount: valueCount, heapBytes: charged, measuredBytes: measuredBytes)
        let changes = request.changesOnly ? request.changesBy : nil
        if let (answer, mode) = inPlace(base, key: key, original: original, document: document, patched: patched, patch: request.patch,
                                        changes: changes, ifNoneMatch: ifNoneMatch) {
            return .answered(answer, mode)
        }
        let keepsNodes = Self.keepsNodes(request.patch)
        return .queue { [self, document] in
            (rebuilt(base, document: document, patched: patched, changes: changes, keepsNodes: keepsNodes,
                     ifNoneMatch: ifNoneMatch), .rebuilt)
        }
    }

    /// The entry under `key` with its frames known and its document a tree, making them from
    /// what is kept when needed (and keeping the result), and a request's own base with the
    /// tree decoded from its body; nil when nothing is kept.
    private func materialized(_ key: BaseKey) -> BaseEntry? {
        guard var entry = bases.lookup(key) else { return nil }
        if entry.frames.isEmpty {
            // Kept without a layout (answered from a cache): lay it out as /compute would, which
            // keeps it, with the laid-out tree this patch edits (not decoded twice below).
            var computer = self.computer
            computer.keepsComputedTrees = true
            let answer = computer.answer(body: entry.documentBytes, ifNoneMatch: nil)
            guard answer.status == 200, let found = bases.lookup(key), !found.frames.isEmpty else { return nil }
            entry = found
        }
        if case .body(let body) = entry.document {
            // Read where a patch reaches into it: the body decoded once already, so it is JSON.
            guard let document = BaseDocument.unparsed(body) else { return nil }
            var hashParts: StructuralHashParts?
            var taken = entry.takeRequest(hashParts: &hashParts)
            var patchesInPlace = entry.patchesInPlace
            let decodes = taken == nil && entry.decodesInPlace
            if decodes, let decoded = decodedAsComputed(body) {
                taken = decoded
                patchesInPlace = true
            }
            var replacement = BaseEntry(request: taken, hashParts: hashParts, patchesInPlace: patchesInPlace,
                                        frames: entry.frames,
                                        laidOut: entry.laidOut, document: document,
                                        answer: entry.answer)
            // A tree too large to keep is patched by rebuilding, as when it was kept whole.
            if decodes && !bases.keepsTree(of: replacement) { replacement = replacement.withoutRequest() }
            bases.store(replacement, key: key)
            entry = replacement
        }
        return entry
    }

    /// `body` decoded as `/compute` decodes a request it lays out, its text leaves tagged as
    /// it tags them: the tree a base kept without it stands for (nil: it no longer decodes).
    private func decodedAsComputed(_ body: [UInt8]) -> LayoutRequest? {
        guard var request = try? LayoutWire.decodeRequest(bytes: body, limits: limits) else { return nil }
        if !request.textLeaves.isEmpty {
            _ = RequestText(installingOn: &request, layouter: computer.textLayouter, key: computer.hashKey)
        }
        return request
    }

    // MARK: In place

    /// The answer computed on the base's tree, taken from it, and whether the tree was laid out
    /// afresh; nil when an operation is none of the edits `TreeEdit` maps, another patch has the
    /// tree, a node's members do not decode (the rebuild then gives the error with its
    /// pointer), an edit changes text other than by a string for a string or a text style above
    /// a leaf (`original`: the base's document, to compare with), or the edited tree passes the
    /// limits or holds too many removed nodes.
    private func inPlace(_ base: BaseEntry, key baseKey: BaseKey, original: JSONTree, document: JSONTree, patched: BaseDocument,
                         patch: JSONPatch, changes: PatchRequest.ChangePairing?, ifNoneMatch: String?) -> (LayoutComputer.Answer, Mode)? {
        let changesOnly = changes != nil
        guard base.patchesInPlace else { return nil }
        var hashParts: StructuralHashParts?
        guard var request = base.takeRequest(hashParts: &hashParts) else { return nil }
        // What each operation does to the tree, worked out before any of it is done.
        var edits: [TreeEdit] = []
        for operation in patch.operations {
            guard let more = TreeEdit.edits(of: operation, config: request.tree.config, limits: limits) else {
                base.putBack(request, hashParts: hashParts)
                return nil
            }
            edits += more
        }
        let changesStructure = edits.contains { $0.changesStructure }
        // Children are added, removed and moved in place in flexbox trees only: other models
        // lay out nodes their own way (their kinds are kept per node).
        if changesStructure && !request.paint.modelKinds.isEmpty {
            base.putBack(request, hashParts: hashParts)
            return nil
        }
        // The base's structure, for the changes of a patch that edits it, and to find a node's
        // object before the patch.
        let baseSide = changesStructure && changesOnly
            ? ChangesEncoder.Side(tree: request.tree, root: request.root, frames: base.frames) : nil
        let baseLinks = changesStructure ? request.tree.links : nil
        // Where the last whole answer has each node, for the new one to copy its bytes from.
        var answerPositions = changesStructure && !changesOnly && base.answer != nil
            ? request.tree.preorderPositions(root: request.root) : nil
        let baseRoot = request.root
        var editor = TreeEditor(limits: limits)
        // After the first structural edit the tree cannot be put back: the base keeps its
        // document only.
        func giveUp(_ request: consuming LayoutRequest) -> (LayoutComputer.Answer, Mode)? {
            if editor.changedStructure {
                bases.storeTaken(base, key: baseKey)
            } else {
                base.putBack(request, hashParts: hashParts)
            }
            return nil
        }
        for edit in edits where !editor.apply(edit, to: &request) { return giveUp(request) }
        // Nodes removed stay in storage (`removeChild`), and are charged: past half as many as
        // the live nodes, the patch is rebuilt, which keeps the tree compacted.
        let liveNodes = base.frames.count + editor.nodeBalance
        if liveNodes > limits.maxNodes || request.tree.nodeCount > liveNodes + liveNodes / 2 + 64 { return giveUp(request) }
        guard let (changed, retexted) = editedMembers(editor.editedNodes, of: request, document: document, original: original,
                                                      baseLinks: baseLinks, baseRoot: baseRoot)
        else { return giveUp(request) }
        // The tree now belongs to this patch: the base stays, charged without it.
        bases.storeTaken(base, key: baseKey)
        let baseIds = changed.map { request.ids[Int($0.0.index)] }
        // A node given another id is written anew.
        for ((node, members), before) in zip(changed, baseIds)
        where members.id != before && Int(node.index) < answerPositions?.count ?? 0 {
            answerPositions?[Int(node.index)] = -1
        }
        for (index, leaf) in retexted { request.textLeaves[index] = leaf }
        for (id, members) in changed {
            // Validated above (style) and by the decoder (content): these do not throw.
            if request.tree.style(of: id) != members.style { try? request.tree.setStyle(members.style, for: id) }
            if request.tree.content(of: id) != members.content { try? request.tree.setContent(members.content, for: id) }
            request.ids[Int(id.index)] = members.id
            request.paint.nodes[id.index] = members.paint
        }
        if changesStructure && (!request.textLeaves.isEmpty || !editor.placedWithText.isEmpty) {
            guard resolveText(placedAt: editor.placedWithText, in: &request, document: document) else { return giveUp(request) }
        }
        // Only the chunks that hold an edit are hashed again: edited nodes, parents whose
        // children changed, nodes placed (the first patch of a base kept without parts hashes it
        // whole once); ids untouched keep the base's ids hash.
        let keptParts = hashParts.take()
        var parts = keptParts ?? request.tree.structuralHashParts(root: request.root, available: request.available,
                                                                  direction: request.direction, key: computer.hashKey)
        let key = changesStructure && keptParts != nil
            ? request.tree.rehash(&parts, changed: changed.map(\.0) + editor.parentsEdited,
                                  placed: editor.placedRoots,
                                  available: request.available, direction: request.direction, key: computer.hashKey)
            : request.tree.rehash(&parts, changed: changed.map(\.0), available: request.available,
                                  direction: request.direction, key: computer.hashKey)
        // Ids hashed again in pre-order: after a patch that added or removed nodes, the order of
        // their indices is not the tree's.
        let idsEdited = changesStructure || zip(changed, baseIds).contains { $0.1 != $0.0.1.id }
        let tag = idsEdited ? EntityTag(structure: key, ids: request.ids, order: request.tree.preorderNodes(root: request.root))
            : EntityTag(structure: key, idsHash: baseKey.ids)
        // Chained patches relayout this tree again and again: round only the nodes that moved.
        request.tree.memoizesPixelRounding = true
        // The frames must be those of the patched tree laid out whole, which Yoga's relayout
        // does not promise (RequestLog.swift). The first patch of a chain lays out afresh.
        // Subtree reuse copies results past the logs that make it exact: only the first layout
        // of a tree uses it anyway.
        request.tree.subtreeReuse = nil
        request.tree.relayoutsExactly = true
        // Text leaves are measured through hooks, which a kept tree loses (`BaseEntry`); they
        // hold the `RequestText` until the entry made below takes them off again.
        if !request.textLeaves.isEmpty {
            _ = RequestText(installingOn: &request, layouter: computer.textLayouter, key: computer.hashKey, tagging: false)
        }
        request.tree.computeLayout(root: request.root, available: request.available, direction: request.direction)
        let mode: Mode = request.tree.lastLayoutStartedFresh ? .inPlaceFresh : .inPlace
        // Node edits keep the base's pre-order: its frames are brought up to date where the
        // layout rounded anew (a few of thousands), not read again node by node.
        var frames = changesStructure ? request.tree.preorderFrames(root: request.root) : base.frames
        let moved = changesStructure ? nil : request.tree.updatePreorderFrames(&frames, root: request.root)
        // The base's frames passed this check: only those that moved are checked again.
        if let overflow = LayoutComputer.overflowError(frames, request, onlyAt: moved) {
            return (LayoutComputer.Answer(status: overflow.status, body: overflow.jsonBytes, cache: nil, entityTag: nil), mode)
        }
        computer.cache.insert(frames, for: key)
        let notModified = ifNoneMatch.map { tag.matches(ifNoneMatch: $0) } ?? false
        let body: [UInt8]
        // The whole answer last encoded in this chain, while its ids are still the tree's.
        var answer = idsEdited ? nil : base.answer
        if notModified {
            body = []
        } else if changesOnly, let baseSide {
            let newSide = ChangesEncoder.Side(tree: request.tree, root: request.root, frames: frames)
            body = changes == .node ? ChangesEncoder.encode(following: baseSide, new: newSide, ids: request.ids)
                : ChangesEncoder.encode(base: baseSide, new: newSide, ids: request.ids)
        } else if changesOnly, let moved {
            // Node edits keep the structure: the base's nodes are the new tree's, at the same positions.
            body = ChangesEncoder.encode(tree: request.tree, root: request.root, ids: request.ids,
                                         baseFrames: base.frames, frames: frames, moved: moved)
        } else if changesStructure {
            // A new structure: the last whole answer's bytes are copied for the nodes it shares
            // with this one, the rest written.
            answer = answerPositions.flatMap { positions in
                base.answer?.restructured(tree: request.tree, root: request.root, ids: request.ids, frames: frames, positions: positions)
            } ?? SplicedAnswer(tree: request.tree, root: request.root, ids: request.ids, frames: frames)
            body = answer?.bytes
                ?? ResponseEncoder.encode(tree: request.tree, root: request.root, ids: request.ids, frames: frames, printedTree: nil)
        } else {
            // Node edits keep the structure and (answer kept) the ids: only moved frames are written again.
            // Compared frame by frame: a kept answer may be older than the base (`BaseEntry.answer`).
            answer = answer?.updated(to: frames)
                ?? SplicedAnswer(tree: request.tree, root: request.root, ids: request.ids, frames: frames)
            body = answer?.bytes
                ?? ResponseEncoder.encode(tree: request.tree, root: request.root, ids: request.ids, frames: frames, printedTree: nil)
        }
        // Still patchable: the edits above set no size reference or text leaf.
        bases.store(BaseEntry(request: request, hashParts: parts, patchesInPlace: true, frames: frames, laidOut: true,
                              document: patched, answer: answer, idsCost: idsEdited ? nil : base.idsCost),
                    entityTag: tag.quoted)
        return (LayoutComputer.Answer(status: notModified ? 304 : 200, body: body,
                                      cache: notModified ? .notModified : .miss, entityTag: tag.quoted), mode)
    }

    /// The new members of `edited` nodes (those still in `request`'s tree), read from the
    /// patched `document`, and the text leaves given a new text (by index in
    /// `request.textLeaves`); nil when one cannot be applied in place: it is not a flexbox node,
    /// does not decode, edits a text style key above a text leaf, or adds, removes or reshapes a
    /// text. `baseLinks` (the base's structure, when the patch changed it) and `baseRoot` find a
    /// node's object in the `original` document; a node the patch added has none, and its text
    /// leaves get their content from `resolveText`.
    private func editedMembers(_ edited: [NodeID], of request: LayoutRequest, document: JSONTree, original: JSONTree,
                               baseLinks: LayoutTree.Links?, baseRoot: NodeID)
        -> (changed: [(NodeID, FlexNodeMembers)], retexted: [(index: Int, leaf: TextLeaf)])? {
        var changed: [(NodeID, FlexNodeMembers)] = []
        var retexted: [(index: Int, leaf: TextLeaf)] = []
        for id in edited {
            // A node edited, then removed: nothing of it is left to lay out.
            guard let path = TreeEditor.path(of: id, in: request) else { continue }
            guard let node = Self.flexNode(at: path, in: request.tree, root: request.root, document: document),
                  node.id == id,
                  var members = members(of: node.object, config: request.tree.config),
                  (try? members.style.validate()) != nil
            else { return nil }
            if let basePath = baseLinks.map({ $0.path(to: id, from: baseRoot) }) ?? path {
                guard let before = Self.nodeObject(at: basePath, in: original),
                      request.textLeaves.isEmpty || FlexNodeMembers.sameTextStyle(before, node.object) else { return nil }
                if before["text"] != nil || node.object["text"] != nil {
                    // A text leaf stays one, measured by its text: it keeps its content, or gets that
                    // of its new text when a string replaces a string.
                    guard members.content == .none,
                          let index = request.textLeaves.firstIndex(where: { $0.node == node.id }) else { return nil }
                    if before["text"] == node.object["text"] {
                        members.content = request.tree.content(of: node.id)
                    } else if case .string? = before["text"], case .string(let text)? = node.object["text"] {
                        let leaf = request.textLeaves[index].replacingPlainText(with: text)
                        members.content = RequestText.content(leaf.content, layouter: computer.textLayouter, key: computer.hashKey)
                        retexted.append((index, leaf))
                    } else {
                        return nil
                    }
                }
            } else if node.object["text"] != nil {
                // A node this patch added, with a text (given by the operation that added it or
                // a later one): its members are read without the text, and it is not placed as
                // a text leaf here, so it is rebuilt.
                return nil
            }
            changed.append((node.id, members))
        }
        return (changed, retexted)
    }

    /// The child indices from the root to the node whose own members `path` edits
    /// (`/root/children/2/style/width` → [2]), or nil when the path edits anything else: a
    /// whole node, a `children` array, a span of a text, a node's `type`, or the request's
    /// members.
    static func editedNode(_ path: [String]) -> [Int]? {
        guard path.first == "root" else { return nil }
        var nodes: [Int] = []
        var k = 1
        while k + 1 < path.count, path[k] == "children", let index = JSONPointer.arrayIndex(path[k + 1]) {
            nodes.append(index)
            k += 2
        }
        guard k < path.count else { return nil }
        switch path[k] {
        case "style", "measure", "id", "isIncludedInLayout": return nodes
        // A text leaf's whole text (not a span in it).
        case "text": return k + 1 == path.count ? nodes : nil
        default: return nil
        }
    }

    /// A node object's own members as a whole decode reads them; a text leaf's without its
    /// text, whose content `inPlace` takes from the tree's leaf.
    private func members(of object: JSONTree, config: LayoutConfig) -> FlexNodeMembers? {
        object["text"] == nil ? FlexNodeMembers.decode(object, config: config, limits: limits)
            : FlexNodeMembers.decode(textLeaf: object, config: config, limits: limits)
    }

    /// The node object at child indices `path` in `document`, whatever its kind (`expanded`).
    static func nodeObject(at path: [Int], in document: JSONTree) -> JSONTree? {
        var object = document["root"]
        for index in path {
            guard case .array(let children)? = object?["children"], index < children.count else { return nil }
            object = children[index].expanded
        }
        return object
    }

    /// The tree's node at child indices `path` and its object in `document`, when it and every
    /// node above it are flexbox nodes (their children in the tree are their `children` array).
    static func flexNode(at path: [Int], in tree: LayoutTree, root: NodeID,
                         document: JSONTree) -> (id: NodeID, object: JSONTree)? {
        func isFlex(_ object: JSONTree) -> Bool {
            guard case .object = object else { return false }
            guard let type = object["type"] else { return true }
            if case .string("flex") = type { return true }
            return false
        }
        guard var object = document["root"], isFlex(object) else { return nil }
        var node = root
        for index in path {
            guard case .array(let children)? = object["children"], index < children.count,
                  index < tree.childCount(of: node) else { return nil }
            object = children[index].expanded
            guard isFlex(object) else { return nil }
            node = tree.firstChild(of: node)
            for _ in 0..<index { node = tree.nextSibling(of: node) }
        }
        return (node, object)
    }

    // MARK: Rebuilt

    /// Whether every operation of `patch` leaves each node at its pointer: none adds, removes,
    /// moves or copies a node (each tests something, or edits a node's own members or the
    /// request's). Then the nodes of a rebuilt tree pair with the base's by pointer, whatever
    /// `changesBy` says.
    static func keepsNodes(_ patch: JSONPatch) -> Bool {
        patch.operations.allSatisfy { operation in
            operation.kind == .test
                || (operation.kind != .move && operation.kind != .copy
                    && (operation.path.first != "root" || editedNode(operation.path) != nil))
        }
    }

    /// The patched document decoded whole and answered as `/compute` answers it (kept as the
    /// next base); with `changes`, compared with the base: by pointer, or by node when
    /// `keepsNodes` (every node at its pointer), else every node listed (a decode does not tell
    /// which node was which).
    private func rebuilt(_ base: BaseEntry, document: JSONTree, patched: BaseDocument, changes: PatchRequest.ChangePairing?,
                         keepsNodes: Bool, ifNoneMatch: String?) -> LayoutComputer.Answer {
        let request: LayoutRequest
        do {
            request = try LayoutWire.decodeRequest(bytes: document.jsonBytes(), limits: limits)
        } catch {
            var failure = ServiceError(error)
            failure.message = "the patched document: " + failure.message
            return LayoutComputer.Answer(status: failure.status, body: failure.jsonBytes, cache: nil, entityTag: nil)
        }
        var answer = computer.answer(request, ifNoneMatch: ifNoneMatch, document: patched)
        // The structures of both trees: kept, or decoded again (a tree that costs more than a
        // shard keeps its document and frames alone), so that changes are answered either way.
        guard let changes, answer.status == 200, let tag = answer.entityTag, let key = BaseKey(entityTag: tag),
              let new = bases.lookup(key), !new.frames.isEmpty,
              let newRequest = new.copyOfRequest() ?? (try? LayoutWire.decodeRequest(bytes: document.jsonBytes(), limits: limits))
        else { return answer }
        let newSide = ChangesEncoder.Side(tree: newRequest.tree, root: newRequest.root, frames: new.frames)
        if changes == .node && !keepsNodes {
            answer.body = ChangesEncoder.encode(following: nil, new: newSide, ids: newRequest.ids)
            return answer
        }
        guard let baseRequest = base.copyOfRequest() ?? (try? LayoutWire.decodeRequest(bytes: base.documentBytes, limits: limits))
        else { return answer }
        answer.body = ChangesEncoder.encode(base: ChangesEncoder.Side(tree: baseRequest.tree, root: baseRequest.root, frames: base.frames),
                                            new: newSide, ids: newRequest.ids)
        return answer
    }
}
