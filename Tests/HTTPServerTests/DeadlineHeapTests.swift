import Testing
@testable import HTTPServer

@Suite struct DeadlineHeapTests {
    /// Random sets, moves, removals and pops against a dictionary: the heap always yields the
    /// earliest deadline, knows each slot's deadline, and forgets removed slots.
    @Test(arguments: [1, 2, 3])
    func matchesASimpleModel(seed: UInt64) {
        var generator = SplitMix(seed: seed)
        var heap = DeadlineHeap()
        var model: [Int: UInt64] = [:]
        for _ in 0..<5000 {
            let slot = Int(generator.next() % 64)
            switch generator.next() % 4 {
            case 0, 1:
                let deadline = generator.next() % 1000
                heap.set(slot: slot, deadline: deadline)
                model[slot] = deadline
            case 2:
                heap.remove(slot: slot)
                model[slot] = nil
            default:
                if let earliest = heap.earliest {
                    #expect(earliest.deadline == model.values.min())
                    #expect(model[earliest.slot] == earliest.deadline)
                    heap.remove(slot: earliest.slot)
                    model[earliest.slot] = nil
                } else {
                    #expect(model.isEmpty)
                }
            }
            #expect(heap.count == model.count)
            #expect(heap.deadline(of: slot) == model[slot])
        }
        var last: UInt64 = 0
        while let earliest = heap.earliest {
            #expect(earliest.deadline >= last)
            last = earliest.deadline
            heap.remove(slot: earliest.slot)
            model[earliest.slot] = nil
        }
        #expect(model.isEmpty)
    }
}

/// A small deterministic generator for reproducible test sequences.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
