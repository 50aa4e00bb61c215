// The recent calls of the subtree memo (see SubtreeMemo.swift): a small two-way table from
// a call's exact arguments to the snapshot that answered it. The memo key of a call is a keyed
// digest of those arguments, and finding it in the memo's table hashes it again; a feed's
// repeated cells get the same few calls one cell after another, and comparing their arguments
// word for word costs a tenth of that. Exact: a slot answers only a call equal to the one it
// holds in every word, and equal arguments have one memo key.

/// The arguments of one computation of a candidate node: everything its memo key digests
/// besides the memo's prefix.
struct MemoCall: Equatable {
    /// The node's subtree hash and its history (see `SubtreeMemoState`).
    var subtree: StructuralHash
    var history: StructuralHash
    /// Available and owner sizes, two floats' bits each; sizing modes, owner direction and
    /// whether the call lays out.
    var sizes: UInt64
    var ownerSizes: UInt64
    var modes: UInt64

    /// The set of slots the call may sit in, among `RecentCalls.setCount`.
    @inline(__always) var set: Int {
        var h = subtree.low ^ history.low ^ (sizes &* 0x9E37_79B9_7F4A_7C15) ^ (ownerSizes &* 0xC2B2_AE3D_27D4_EB4F) ^ modes
        h = (h ^ (h >> 31)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: h >> (64 - RecentCalls.setBits))
    }
}

/// The snapshots that answered recent calls, two slots per set, the later call of a set kept
/// in place of the one used less recently. Two ways rather than one: a feed of ten cell shapes
/// makes some thirty distinct calls, and in a direct-mapped table a few of them would share a
/// slot and push each other out at every cell, each miss paying the keyed digest.
/// Owned by one `SubtreeMemoState` and used by its one layout pass.
final class RecentCalls {
    static let setBits = 6
    static let setCount = 1 << setBits
    // Unchecked: as the memo's table (see `SubtreeMemoState`).
    @exclusivity(unchecked) private var calls: [MemoCall?]
    @exclusivity(unchecked) private var snapshots: [SubtreeSnapshot?]
    /// Per set: the way (0 or 1) used less recently, which the next call of the set replaces.
    @exclusivity(unchecked) private var older: [UInt8]

    init() {
        calls = Array(repeating: nil, count: 2 * Self.setCount)
        snapshots = Array(repeating: nil, count: 2 * Self.setCount)
        older = Array(repeating: 0, count: Self.setCount)
    }

    /// The snapshot that answered `call` when it was last made, if its set still holds it.
    @inline(__always) func snapshot(for call: MemoCall) -> SubtreeSnapshot? {
        let set = call.set
        let first = 2 * set
        if calls[first] == call {
            older[set] = 1
            return snapshots[first]
        }
        if calls[first + 1] == call {
            older[set] = 0
            return snapshots[first + 1]
        }
        return nil
    }

    /// Keeps `snapshot` as the answer to `call`, in place of its set's call used less recently.
    @inline(__always) func remember(_ snapshot: SubtreeSnapshot, for call: MemoCall) {
        let set = call.set
        let way = Int(older[set])
        calls[2 * set + way] = call
        snapshots[2 * set + way] = snapshot
        older[set] = UInt8(1 - way)
    }
}
