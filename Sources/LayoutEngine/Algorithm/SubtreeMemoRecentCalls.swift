// The recent calls of the subtree memo (see SubtreeMemo.swift): a small direct-mapped table from
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

    /// Where the call's slot is, among `RecentCalls.slotCount`.
    @inline(__always) var slot: Int {
        var h = subtree.low ^ history.low ^ (sizes &* 0x9E37_79B9_7F4A_7C15) ^ (ownerSizes &* 0xC2B2_AE3D_27D4_EB4F) ^ modes
        h = (h ^ (h >> 31)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: h >> (64 - RecentCalls.slotBits))
    }
}

/// The snapshots that answered recent calls, one per slot, the latest call of a slot kept.
/// Owned by one `SubtreeMemoState` and used by its one layout pass.
final class RecentCalls {
    static let slotBits = 6
    static let slotCount = 1 << slotBits
    // Unchecked: as the memo's table (see `SubtreeMemoState`).
    @exclusivity(unchecked) private var calls: [MemoCall?]
    @exclusivity(unchecked) private var snapshots: [SubtreeSnapshot?]

    init() {
        calls = Array(repeating: nil, count: Self.slotCount)
        snapshots = Array(repeating: nil, count: Self.slotCount)
    }

    /// The snapshot that answered `call` when it was last made, if its slot still holds it.
    @inline(__always) func snapshot(for call: MemoCall) -> SubtreeSnapshot? {
        let slot = call.slot
        return calls[slot] == call ? snapshots[slot] : nil
    }

    /// Keeps `snapshot` as the answer to `call`, in place of its slot's last call.
    @inline(__always) func remember(_ snapshot: SubtreeSnapshot, for call: MemoCall) {
        let slot = call.slot
        calls[slot] = call
        snapshots[slot] = snapshot
    }
}
