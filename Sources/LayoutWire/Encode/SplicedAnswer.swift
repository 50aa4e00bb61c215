import LayoutEngine

/// A whole answer (`ResponseEncoder`'s bytes) with where each node's frame is written in it,
/// so that the answer for the same tree after a relayout is the old bytes with only the frames
/// that changed written again. A chained patch that moves a few nodes of 1,000 then copies the
/// answer instead of encoding 1,000 frames (encoding was a third of such a patch's CPU).
public struct SplicedAnswer: Sendable {
    /// The answer, byte for byte `ResponseEncoder.encode(tree:root:ids:frames:)`.
    public private(set) var bytes: [UInt8]
    /// The frames written in `bytes`, in pre-order.
    public private(set) var frames: [Frame]
    /// Where each node's frame members (`"left":…,"height":…`) start in `bytes`, in pre-order.
    private var starts: [UInt32]
    /// Where they end.
    private var ends: [UInt32]

    /// The answer for the subtree at `root` (without a printed tree), as
    /// `ResponseEncoder.encode(tree:root:ids:frames:)` writes it, keeping each frame's place;
    /// nil when the answer is too large for 32-bit offsets.
    public init?(tree: LayoutTree, root: NodeID, ids: NodeIdentifiers, frames: [Frame]) {
        let recorder = FrameEnds(capacity: frames.count)
        let bytes = ResponseEncoder.encode(tree: tree, root: root, ids: ids, frames: PreorderFrames(frames), members: recorder)
        guard bytes.count <= Int(UInt32.max), recorder.ends.count == frames.count else { return nil }
        // A frame's members hold exactly 8 quotes (its four names) and its numbers none: the
        // eighth quote back from its end is where it starts.
        var starts = [UInt32](repeating: 0, count: frames.count)
        bytes.withUnsafeBufferPointer { bytes in
            for (k, end) in recorder.ends.enumerated() {
                var p = Int(end)
                var quotes = 0
                while quotes < 8 {
                    p -= 1
                    if bytes[p] == UInt8(ascii: "\"") { quotes += 1 }
                }
                starts[k] = UInt32(p)
            }
        }
        self.bytes = bytes
        self.frames = frames
        self.starts = starts
        self.ends = recorder.ends
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

    /// What the answer holds on the heap (its arrays' storage, headers included).
    public var heapBytes: Int {
        HeapCharge.array(bytes) + HeapCharge.array(frames) + HeapCharge.array(starts) + HeapCharge.array(ends)
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
