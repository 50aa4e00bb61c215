import TestSupport
import Testing
@testable import HTTPServer

@Suite struct DeadlineHeapTests {
    /// Random sets, moves, removals and pops against a dictionary: the heap always yields the
    /// earliest deadline, knows each slot's deadline, and forgets removed slots.
    @Test(arguments: [1, 2, 3])
    func matchesASimpleModel(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
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
