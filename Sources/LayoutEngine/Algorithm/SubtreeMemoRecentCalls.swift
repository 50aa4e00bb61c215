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

/// The snapshots that answered recent calls (their numbers in the memo), two slots per set,
/// the later call of a set kept in place of the one used less recently. Two ways rather than
/// one: a feed of ten cell shapes makes some thirty distinct calls, and in a direct-mapped
/// table a few of them would share a slot and push each other out at every cell, each miss
/// paying the keyed digest. Owned by one `SubtreeMemoState` and used by its one layout pass.
/// Raw memory: arrays here cost a uniqueness check at every write, at every restored call.
final class RecentCalls {
    static let setBits = 6
    static let setCount = 1 << setBits
    private let calls: UnsafeMutablePointer<MemoCall>
    /// Per slot: the number of the snapshot that answered its call, -1 for an empty slot.
    private let numbers: UnsafeMutablePointer<Int32>
    /// Per set: the way (0 or 1) used less recently, which the next call of the set replaces.
    private let older: UnsafeMutablePointer<UInt8>

    init() {
        let empty = MemoCall(subtree: StructuralHash(high: 0, low: 0), history: StructuralHash(high: 0, low: 0),
                             sizes: 0, ownerSizes: 0, modes: 0)
        calls = .allocate(capacity: 2 * Self.setCount)
        calls.initialize(repeating: empty, count: 2 * Self.setCount)
        numbers = .allocate(capacity: 2 * Self.setCount)
        numbers.initialize(repeating: -1, count: 2 * Self.setCount)
        older = .allocate(capacity: Self.setCount)
        older.initialize(repeating: 0, count: Self.setCount)
    }

    deinit {
        calls.deallocate()
        numbers.deallocate()
        older.deallocate()
    }

    /// The number of the snapshot that answered `call` when it was last made, if its set
    /// still holds it; else -1.
    @inline(__always) func snapshot(for call: MemoCall) -> Int32 {
        let set = call.set
        let first = 2 * set
        if numbers[first] >= 0 && calls[first] == call {
            older[set] = 1
            return numbers[first]
        }
        if numbers[first + 1] >= 0 && calls[first + 1] == call {
            older[set] = 0
            return numbers[first + 1]
        }
        return -1
    }

    /// Keeps snapshot `number` as the answer to `call`, in place of its set's call used less
    /// recently.
    @inline(__always) func remember(_ number: Int32, for call: MemoCall) {
        let set = call.set
        let way = Int(older[set])
        calls[2 * set + way] = call
        numbers[2 * set + way] = number
        older[set] = UInt8(1 - way)
    }
}
