import LayoutEngine

/// A whole answer (`ResponseEncoder`'s bytes) with where each node's frame is written in it,
/// so that the answer for the same tree after a relayout is the old bytes with only the frames
/// that changed written again. A chained patch that moves a few nodes of 1,000 then copies the
/// answer instead of encoding 1,000 frames (encoding was a third of such a patch's CPU). A
/// patch that adds, removes or moves nodes copies the bytes of the nodes it kept
/// (`restructured`).
public struct SplicedAnswer: Sendable {
    /// The answer, byte for byte `ResponseEncoder.encode(tree:root:ids:frames:)`.
    public private(set) var bytes: [UInt8]
    /// The frames written in `bytes`, in pre-order.
    public private(set) var frames: [Frame]
    /// Where each node's frame members (`"left":…,"height":…`) start in `bytes`, in pre-order.
    private var starts: [UInt32]
    /// Where they end.
    private var ends: [UInt32]
    /// Each node's depth (the root's is 0), in pre-order: the bytes between two frames depend
    /// only on how the depth steps from one node to the next and on the second node's id.
    private var depths: [Int32]

    /// The answer for the subtree at `root` (without a printed tree), as
    /// `ResponseEncoder.encode(tree:root:ids:frames:)` writes it, keeping each frame's place;
    /// nil when the answer is too large for 32-bit offsets.
    public init?(tree: LayoutTree, root: NodeID, ids: NodeIdentifiers, frames: [Frame]) {
        let recorder = FrameEnds(capacity: frames.count)
        let bytes = ResponseEncoder.encode(tree: tree, root: root, ids: ids, frames: PreorderFrames(frames), members: recorder)
        guard bytes.count <= Int(UInt32.max), recorder.ends.count == frames.count else { return nil }
        var starts = [UInt32](repeating: 0, count: frames.count)
        bytes.withUnsafeBufferPointer { bytes in
            for (k, end) in recorder.ends.enumerated() {
                starts[k] = UInt32(Self.frameStart(endingAt: Int(end), in: bytes.baseAddress!))
            }
        }
        self.bytes = bytes
        self.frames = frames
        self.starts = starts
        self.ends = recorder.ends
        self.depths = Self.preorderDepths(tree: tree, root: root)
    }

    private init(bytes: [UInt8], frames: [Frame], starts: [UInt32], ends: [UInt32], depths: [Int32]) {
        self.bytes = bytes
        self.frames = frames
        self.starts = starts
        self.ends = ends
        self.depths = depths
    }

    /// Where the frame members that end at `end` in `bytes` start. They hold exactly 8 quotes
    /// (the four names) and the numbers none: the eighth quote back is their first byte.
    private static func frameStart(endingAt end: Int, in bytes: UnsafePointer<UInt8>) -> Int {
        var p = end
        var quotes = 0
        while quotes < 8 {
            p -= 1
            if bytes[p] == UInt8(ascii: "\"") { quotes += 1 }
        }
        return p
    }

    /// The depth of each node under `root`, in pre-order.
    private static func preorderDepths(tree: LayoutTree, root: NodeID) -> [Int32] {
        var depths: [Int32] = []
        tree.forEachInPreorder(from: root) { _, depth in depths.append(Int32(depth)) }
        return depths
    }

    /// This answer with `frames` (of the same tree, same ids, same order): the bytes between
    /// frames that differ are copied, those frames written again. nil when `frames` has
    /// another count, or the answer would outgrow 32-bit offsets.
    public func updated(to frames: [Frame]) -> SplicedAnswer? {
        guard frames.count == self.frames.count else { return nil }
        // The frames that moved, usually a few of many: found in one pass over both lists,
        // without a bounds check or a copy-on-write check per frame.
        let moved: [Int] = frames.withUnsafeBufferPointer { new in
            self.frames.withUnsafeBufferPointer { old in
                var moved: [Int] = []
                for k in 0..<new.count where !Self.same(new[k], old[k]) { moved.append(k) }
                return moved
            }
        }
        var updated = self
        updated.frames = frames
        guard !moved.isEmpty else { return updated }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 256)
        var copied = 0  // bytes of the old answer copied so far
        var shift = 0   // new offset less old offset past the last rewritten frame
        var unplaced = 0  // the first frame whose offsets are not set yet
        // The frames between two rewritten ones keep their bytes, moved by `shift`.
        func shiftUnplaced(upTo end: Int) {
            if shift != 0 {
                for j in unplaced..<end {
                    updated.starts[j] = UInt32(Int(starts[j]) + shift)
                    updated.ends[j] = UInt32(Int(ends[j]) + shift)
                }
            }
        }
        let written: Bool = bytes.withUnsafeBufferPointer { old in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONWriter.frameRoom) { scratch in
                let p = scratch.baseAddress!
                for k in moved {
                    shiftUnplaced(upTo: k)
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: old[copied..<Int(starts[k])]))
                    // The bytes `JSONWriter.openNode` writes after the id.
                    let n = JSONWriter.frameMembers(frames[k], at: p, afterMember: false)
                    guard out.count + n <= Int(UInt32.max) else { return false }
                    updated.starts[k] = UInt32(out.count)
                    out.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
                    updated.ends[k] = UInt32(out.count)
                    copied = Int(ends[k])
                    shift = out.count - copied
                    unplaced = k + 1
                }
                shiftUnplaced(upTo: frames.count)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: old[copied...]))
                return out.count <= Int(UInt32.max)
            }
        }
        guard written else { return nil }
        updated.bytes = out
        return updated
    }

    /// The answer for `tree` after a patch added, removed or moved nodes of this answer's tree:
    /// `ResponseEncoder.encode(tree:root:ids:frames:)`'s bytes, made by copying this answer's
    /// bytes for every node that keeps its id, its frame and the step in depth from the node
    /// before it, and writing the others. `positions[n]` is the pre-order position in this
    /// answer of the node with index n, when it is that node with the same id; -1 (or no entry)
    /// for a node added, or whose id changed. nil when `frames` does not hold one frame per node
    /// or the answer would outgrow 32-bit offsets.
    public func restructured(tree: LayoutTree, root: NodeID, ids: NodeIdentifiers, frames: [Frame],
                             positions: [Int]) -> SplicedAnswer? {
        guard !frames.isEmpty, !self.frames.isEmpty else { return nil }
        var builder = Restructuring(capacity: bytes.count + 256, nodes: frames.count)
        let complete: Bool = bytes.withUnsafeBufferPointer { old in
            ids.withView { ids in
                builder.walk(tree: tree, root: root, ids: ids, frames: frames, positions: positions, from: self, bytes: old)
            }
        }
        guard complete, builder.ends.count == frames.count, let last = builder.depths.last else { return nil }
        var writer = builder.writer
        writer.endObject()
        for _ in 0..<last {
            writer.endArray()
            writer.endObject()
        }
        writer.endObject()
        guard writer.out.count <= Int(UInt32.max) else { return nil }
        return SplicedAnswer(bytes: writer.bytes, frames: frames, starts: builder.starts, ends: builder.ends,
                             depths: builder.depths)
    }

    /// A restructured answer being written: old bytes copied in runs, new ones written, and
    /// where each frame lands. A value with mutating methods, not closures over local variables,
    /// which Swift checks for exclusive access at every call.
    private struct Restructuring {
        var writer: JSONWriter
        var starts: [UInt32] = [], ends: [UInt32] = [], depths: [Int32] = []
        /// Old bytes still to copy: one copy per run of nodes kept.
        var pending = 0..<0

        init(capacity: Int, nodes: Int) {
            writer = JSONWriter(capacity: capacity)
            starts.reserveCapacity(nodes)
            ends.reserveCapacity(nodes)
            depths.reserveCapacity(nodes)
        }

        /// Every node of `tree` in pre-order, from `answer` (whose bytes are `old`) where it can;
        /// false when `frames` runs out first.
        mutating func walk(tree: LayoutTree, root: NodeID, ids: NodeIdentifiers.View, frames: [Frame], positions: [Int],
                           from answer: SplicedAnswer, bytes old: UnsafeBufferPointer<UInt8>) -> Bool {
            var complete = true
            tree.forEachInPreorder(from: root) { node, depth in
                let j = depths.count
                guard complete, j < frames.count else { complete = false; return }
                let index = Int(node.index)
                let k = index < positions.count ? positions[index] : -1
                let step = j == 0 ? 0 : depth - Int(depths[j - 1])
                if k >= 0 && k < answer.frames.count
                    && (j == 0 ? k == 0 : k > 0 && Int(answer.depths[k]) - Int(answer.depths[k - 1]) == step) {
                    copy(old, (k == 0 ? 0 : Int(answer.ends[k - 1]))..<Int(answer.starts[k]),
                         frame: frames[j], old: answer.frames[k], at: Int(answer.starts[k])..<Int(answer.ends[k]))
                } else {
                    write(frames[j], id: index < ids.count ? ids[index] : nil, first: j == 0, step: step, old: old)
                }
                depths.append(Int32(depth))
            }
            flush(old)
            return complete
        }

        /// Where the next byte lands in the new answer.
        var position: Int { writer.out.count + pending.count }

        mutating func flush(_ old: UnsafeBufferPointer<UInt8>) {
            if !pending.isEmpty { writer.copied(UnsafeBufferPointer(rebasing: old[pending])) }
            pending = 0..<0
        }

        mutating func take(_ old: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            if pending.upperBound == range.lowerBound && !pending.isEmpty {
                pending = pending.lowerBound..<range.upperBound
            } else {
                flush(old)
                pending = range
            }
        }

        /// A node whose bytes before its frame (`gap`) are the old ones; its frame's too when
        /// it did not change.
        mutating func copy(_ old: UnsafeBufferPointer<UInt8>, _ gap: Range<Int>, frame: Frame, old oldFrame: Frame,
                           at oldPlace: Range<Int>) {
            take(old, gap)
            starts.append(UInt32(truncatingIfNeeded: position))
            if SplicedAnswer.same(frame, oldFrame) {
                take(old, oldPlace)
            } else {
                flush(old)
                writer.frameMembersAfterOpening(frame)
            }
            ends.append(UInt32(truncatingIfNeeded: position))
        }

        /// A node written anew, with what `ResponseEncoder` writes between the last frame and
        /// its own: the answer's opening, `children` of the node before, or the closing of
        /// `-step` levels.
        mutating func write(_ frame: Frame, id: UnsafeBufferPointer<UInt8>?, first: Bool, step: Int,
                            old: UnsafeBufferPointer<UInt8>) {
            flush(old)
            if first {
                writer.beginObject()
                writer.key("root" as StaticString)
            } else if step == 1 {
                writer.key("children" as StaticString)
                writer.beginArray()
            } else {
                writer.endObject()
                for _ in 0..<max(0, -step) {
                    writer.endArray()
                    writer.endObject()
                }
            }
            writer.openNode(idUTF8: id, frame: frame)
            let end = writer.out.count
            starts.append(UInt32(truncatingIfNeeded: SplicedAnswer.frameStart(endingAt: end, in: writer.out.base)))
            ends.append(UInt32(truncatingIfNeeded: end))
        }
    }

    /// What the answer holds on the heap (its arrays' storage, headers included).
    public var heapBytes: Int {
        HeapCharge.array(bytes) + HeapCharge.array(frames) + HeapCharge.array(starts) + HeapCharge.array(ends)
            + HeapCharge.array(depths)
    }

    @inline(__always) private static func same(_ a: Frame, _ b: Frame) -> Bool {
        a.left.bitPattern == b.left.bitPattern && a.top.bitPattern == b.top.bitPattern
            && a.width.bitPattern == b.width.bitPattern && a.height.bitPattern == b.height.bitPattern
    }
}

/// Records where each node's frame ends as `ResponseEncoder` writes it (its members come
/// right after the frame).
// A class: `ResponseNodeMembers.write` is not mutating, and the encoder holds its members by value.
private final class FrameEnds: ResponseNodeMembers {
    var ends: [UInt32] = []

    init(capacity: Int) { ends.reserveCapacity(capacity) }

    func write(_ node: NodeID, in tree: LayoutTree, to writer: inout JSONWriter) {
        ends.append(UInt32(truncatingIfNeeded: writer.out.count))
    }
}
