import LayoutEngine

/// Writes the copies of repeated subtrees (a feed's cells, `LayoutRequest.subtreeCopies`) from
/// the bytes already written for their source. Frames are relative to the parent, so a copy
/// laid out like its source has the same answer but for its ids: everything from the end of
/// the copy root's own frame to the end of its subtree is the source's bytes with the copy's
/// ids put in. The encoder records where a source's ids sit as it writes it, then writes each
/// copy as a few byte ranges and ids instead of formatting every frame.
///
/// What it relies on is checked: the tree's structure is the one the decoder listed the
/// copies in (`LayoutTree.structureVersion`, so a copy is its source's shape, stored in
/// pre-order after its root), each copy's frames are its source's bit for bit, and its nodes
/// have ids where the source's have. Otherwise the copy is written node by node as any other
/// subtree.
@usableFromInline
struct CopiedSubtreeWriter {
    /// One recorded source: its nodes' ids in `ids`, its place in pre-order and in the answer.
    @usableFromInline struct Record {
        @usableFromInline var firstID: Int
        @usableFromInline var nodeCount = 0
        /// The source root's position in pre-order (the encoder's count of nodes before it).
        @usableFromInline var position: Int
        /// Just past the source root's frame (its children, or its `}`, come next).
        @usableFromInline var afterRootFrame: Int
        /// Just past the source's closing `}` (-1: not yet).
        @usableFromInline var end = -1
        /// The bytes of its ids but its root's, in the answer.
        @usableFromInline var idBytes = 0

        @inlinable init(firstID: Int, position: Int, afterRootFrame: Int) {
            self.firstID = firstID
            self.position = position
            self.afterRootFrame = afterRootFrame
        }
    }

    /// Where a recorded node's id sits in the answer (between the quotes), by its place in its
    /// source's pre-order; -1 for a node without an id.
    @usableFromInline struct IDSpan {
        @usableFromInline var start: Int
        @usableFromInline var end: Int

        @inlinable init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }
    }

    /// The copies, in increasing order of their roots (as the decoder makes them); the next one
    /// the walk may meet.
    @usableFromInline let copies: [CopiedSubtree]
    @usableFromInline var nextCopy = 0
    /// Per node (by index): the record of the source rooted there, -1 for a source not
    /// recorded (yet), -2 for a node that is no source.
    @usableFromInline var recordOfSource: [Int32]
    @usableFromInline var records: [Record] = []
    @usableFromInline var ids: [IDSpan] = []
    /// The source being recorded (-1: none) and the encoder's stack depth at its root.
    @usableFromInline var recording: Int32 = -1
    @usableFromInline var recordingDepth = 0
    /// With instances for copies (`LayoutTree.instances`): their descendants' ids
    /// (`LayoutRequest.instanceIDs`), and where each copy's start (by copy).
    @usableFromInline var instanceIDs: NodeIdentifiers.View?
    @usableFromInline var instanceIDStarts: [Int] = []

    /// Ready for `copies` of a tree of `nodeCount` nodes (pass none when they do not describe
    /// the tree, or when the answer writes members beyond frames, whose bytes these records do
    /// not cover).
    @inlinable init(copies: [CopiedSubtree], nodeCount: Int) {
        self.copies = copies
        recordOfSource = copies.isEmpty ? [] : [Int32](repeating: -2, count: nodeCount)
        for copy in copies where copy.source.index >= 0 && Int(copy.source.index) < nodeCount {
            recordOfSource[Int(copy.source.index)] = -1
        }
    }

    /// The copy whose root is `node`, when it is the next one (the walk meets roots in
    /// increasing order in the decoder's tree).
    @inlinable mutating func copy(at node: NodeID) -> CopiedSubtree? {
        while nextCopy < copies.count && copies[nextCopy].copy.index < node.index { nextCopy += 1 }
        guard nextCopy < copies.count, copies[nextCopy].copy == node else { return nil }
        nextCopy += 1
        return copies[nextCopy - 1]
    }

    /// Where the ids of the copy `copy(at:)` returned last start in `instanceIDs`, when it is an
    /// instance (nil for a copy of stored nodes).
    @inlinable var instanceIDStartOfLastCopy: Int? {
        instanceIDs == nil || nextCopy == 0 ? nil : instanceIDStarts[nextCopy - 1]
    }

    /// Whether `node` is a source to record from now on (none is recorded inside another).
    @inlinable func startsSource(_ node: NodeID) -> Bool {
        recording < 0 && node.index >= 0 && Int(node.index) < recordOfSource.count && recordOfSource[Int(node.index)] == -1
    }

    /// Notes a node of the source being recorded (its root first, at pre-order `position` and
    /// encoder stack depth `depth`), written from `start` (before its separator) to the
    /// writer's end. `escapeFree`: the id is known to need no escapes.
    @inlinable mutating func record(_ node: NodeID, root: Bool, position: Int, depth: Int,
                                    id: UnsafeBufferPointer<UInt8>?, escapeFree: Bool, start: Int, comma: Bool,
                                    writer: JSONWriter) {
        if root {
            recording = Int32(records.count)
            recordingDepth = depth
            recordOfSource[Int(node.index)] = recording
            records.append(Record(firstID: ids.count, position: position, afterRootFrame: writer.out.count))
        }
        var span = IDSpan(start: -1, end: -1)
        if let id {
            // `openNode` wrote `{"id":"` and the bytes as they are, unless they needed escapes
            // (then this source is not used: its id's length in the answer is another).
            guard JSONWriter.needsNoEscapes(id, known: escapeFree) else { return abandonRecording() }
            span.start = start + (comma ? 1 : 0) + 7
            span.end = span.start + id.count
        }
        ids.append(span)
        if !root { records[Int(recording)].idBytes += span.end - span.start }
        records[Int(recording)].nodeCount += 1
    }

    /// The recorded source closed (the encoder's stack is back to `depth`) at `end`.
    @inlinable mutating func closed(depth: Int, at end: Int) {
        guard recording >= 0, depth == recordingDepth else { return }
        records[Int(recording)].end = end
        recording = -1
    }

    /// Stops recording the current source; it stays unfinished, so no copy is written from it.
    @inlinable mutating func abandonRecording() {
        recording = -1
    }

    /// Ready for the instances of a tree (`LayoutTree.instances`), written as copies of their
    /// sources, their descendants' ids from `instanceIDs`.
    @inlinable init(instances: SubtreeInstances, instanceIDs: NodeIdentifiers.View, nodeCount: Int) {
        var copies: [CopiedSubtree] = []
        var starts: [Int] = []
        copies.reserveCapacity(instances.nodes.count)
        starts.reserveCapacity(instances.nodes.count)
        var start = 0
        for k in instances.nodes.indices {
            copies.append(CopiedSubtree(copy: NodeID(instances.nodes[k]), source: NodeID(instances.sources[k]),
                                        nodeCount: instances.sizes[k]))
            starts.append(start)
            start += Int(instances.sizes[k]) - 1
        }
        self.init(copies: copies, nodeCount: nodeCount)
        self.instanceIDs = instanceIDs
        instanceIDStarts = starts
    }

    /// Writes the subtree of `copy`, whose root is at pre-order `position`, from its recorded
    /// source, and returns true; false (and nothing written or read) when its frames are not
    /// the source's or its ids are not where the source's are.
    @inlinable func write<Frames: ResponseFrames>(_ copy: CopiedSubtree, at position: Int, tree: LayoutTree,
                                                 ids nodeIDs: NodeIdentifiers.View, frames: inout Frames,
                                                 to writer: inout JSONWriter) -> Bool {
        let source = Int(copy.source.index)
        guard source >= 0, source < recordOfSource.count, recordOfSource[source] >= 0 else { return false }
        let record = records[Int(recordOfSource[source])]
        let count = Int(copy.nodeCount)
        // An instance's descendants' ids follow each other in `instanceIDs`; a copy's nodes
        // follow its root in storage, in pre-order.
        let instanceIDs = self.instanceIDs
        // The k-th node's id (k from 1) is at `firstInstanceID + k`.
        let firstInstanceID = (instanceIDStartOfLastCopy ?? 1) - 1
        @inline(__always) func id(_ k: Int) -> UnsafeBufferPointer<UInt8>? {
            instanceIDs.map { $0[firstInstanceID + k] } ?? nodeIDs[Int(copy.copy.index) + k]
        }
        let idsInRange = if let instanceIDs { firstInstanceID + count <= instanceIDs.count }
                         else { Int(copy.copy.index) + count <= nodeIDs.count }
        guard record.end >= 0, record.nodeCount == count, idsInRange,
              frames.sameFrames(copy.copy, copy.source, atPreorder: position, record.position, count: count, in: tree)
        else { return false }
        let first = Int(copy.copy.index)
        let escapeFree = instanceIDs?.escapeFree ?? nodeIDs.escapeFree
        var idBytes = 0
        for k in 1..<count {
            let id = id(k)
            guard (id != nil) == (ids[record.firstID + k].start >= 0) else { return false }
            if let id {
                guard JSONWriter.needsNoEscapes(id, known: escapeFree) else { return false }
                idBytes += id.count
            }
        }
        writer.openNode(idUTF8: nodeIDs[first], frame: frames.next(copy.copy, in: tree), escapeFree: nodeIDs.escapeFree)
        frames.skip(count - 1, in: tree)
        // The source's bytes after its root's frame, its ids replaced by the copy's: one
        // capacity check, then copies between the ids.
        let length = record.end - record.afterRootFrame - record.idBytes + idBytes
        var p = writer.reserve(length)
        let written = writer.out.base
        var from = record.afterRootFrame
        for k in 1..<count {
            let span = ids[record.firstID + k]
            guard span.start >= 0, let id = id(k) else { continue }
            let run = span.start - from
            p.update(from: written + from, count: run)
            p += run
            // An empty id may have no address.
            if let bytes = id.baseAddress {
                p.update(from: bytes, count: id.count)
                p += id.count
            }
            from = span.end
        }
        p.update(from: written + from, count: record.end - from)
        writer.out.count += length
        writer.needsComma = true
        return true
    }
}

/// Whether `ResponseEncoder` looks for copies, as a type: the answers without copies get an
/// encoder without a trace of them.
@usableFromInline protocol CopiesSwitch {
    static var on: Bool { get }
}

@usableFromInline enum CopiesOn: CopiesSwitch {
    @inlinable static var on: Bool { true }
}

@usableFromInline enum CopiesOff: CopiesSwitch {
    @inlinable static var on: Bool { false }
}
