import Foundation
import LayoutEngine
import SyncSupport
@testable import LayoutServer
import Testing

// Repeated subtrees through the service: answers with reuse (within a request, and across
// requests through the subtree cache) are byte for byte those of computing every node.
@Suite struct SubtreeReuseServiceTests {
    /// A feed of `cells` cells of `shapes` shapes: text leaves (wrapping), boxes, percentages.
    static func feed(cells: Int, shapes: Int, width: Int = 320, textLines: Bool = false) -> [UInt8] {
        let children = (0..<cells).map { i -> String in
            let v = i % shapes
            return """
            {"id":"c\(i)","style":{"flexDirection":"row","padding":\(6 + v % 3),"gap":8,"alignItems":"flex-start"},"children":[\
            {"id":"a\(i)","style":{"width":\(30 + v),"height":"\(10 + v)%"}},\
            {"id":"b\(i)","style":{"flexGrow":1,"flexShrink":1,"gap":4},"children":[\
            {"id":"t\(i)","style":{"fontSize":\(14 + v % 4),"fontWeight":"bold"},"text":"Title \(v)"},\
            {"id":"s\(i)","style":{"fontSize":13,"lineHeight":18,"maxLines":2,"textOverflow":"ellipsis"},"text":"Shape \(v) has a body long enough to wrap, maybe even twice or three times when narrow."}]}]}
            """
        }.joined(separator: ",")
        return Array("""
        {"available":{"width":\(width),"height":null},"textLines":\(textLines),"root":{"id":"feed","style":{"width":\(width)},"children":[\(children)]}}
        """.utf8)
    }

    static func computer(reuse: Bool, subtrees: SubtreeCache? = nil) -> LayoutComputer {
        var computer = LayoutComputer(cache: FrameCache(capacityBytes: 0, shardCount: 1), limits: .default)
        computer.reusesSubtrees = reuse
        computer.subtrees = subtrees
        computer.hashKey = StructuralHashKey(k0: 1, k1: 2)
        return computer
    }

    @Test(arguments: [(120, 3, 320, false), (60, 7, 180, true), (40, 40, 250, false)])
    func answersEqualComputingEveryNode(cells: Int, shapes: Int, width: Int, textLines: Bool) {
        let body = Self.feed(cells: cells, shapes: shapes, width: width, textLines: textLines)
        let plain = Self.computer(reuse: false).answer(body: body, ifNoneMatch: nil)
        #expect(plain.status == 200)
        let reused = Self.computer(reuse: true).answer(body: body, ifNoneMatch: nil)
        #expect(reused.body == plain.body)
        #expect(reused.entityTag == plain.entityTag)
        let cache = SubtreeCache(capacityBytes: 1 << 20)
        let shared = Self.computer(reuse: true, subtrees: cache)
        for _ in 0..<2 { #expect(shared.answer(body: body, ifNoneMatch: nil).body == plain.body) }
        if shapes < cells {
            #expect(cache.statistics.entries > 0 && cache.statistics.hits > 0, "\(cache.statistics)")
        }
    }

    /// Feeds sharing cell shapes but not their order or count, from many threads at once on one
    /// cache: every answer is the one computed without reuse.
    @Test func concurrentRequestsShareTheCache() async {
        let cache = SubtreeCache(capacityBytes: 256 << 10, shardCount: 2)
        let bodies = (0..<6).map { Self.feed(cells: 20 + 7 * $0, shapes: 2 + $0 % 3, width: 200 + 20 * ($0 % 2)) }
        let expected = bodies.map { Self.computer(reuse: false).answer(body: $0, ifNoneMatch: nil).body }
        let results = await withTaskGroup(of: Bool.self) { group in
            for round in 0..<24 {
                let index = round % bodies.count
                let body = bodies[index], want = expected[index]
                group.addTask { Self.computer(reuse: true, subtrees: cache).answer(body: body, ifNoneMatch: nil).body == want }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 24 && results.allSatisfy { $0 })
        let statistics = cache.statistics
        #expect(statistics.hits > 0)
        #expect(statistics.bytes <= cache.capacityBytes)
    }

    /// The budget holds: a small cache evicts instead of growing.
    @Test func cacheStaysWithinItsBudget() {
        let cache = SubtreeCache(capacityBytes: 16 << 10, shardCount: 1)
        let computer = Self.computer(reuse: true, subtrees: cache)
        for shapes in 2...12 {
            _ = computer.answer(body: Self.feed(cells: 2 * shapes, shapes: shapes, width: 150 + 10 * shapes), ifNoneMatch: nil)
        }
        let statistics = cache.statistics
        #expect(statistics.evictions > 0)
        #expect(statistics.bytes <= 16 << 10 && statistics.entries > 0)
    }
}
