import LayoutEngine
import Testing
@testable import LayoutWire

/// `TreeStoragePool`: large trees built in the arrays of trees done with decode and lay out as
/// trees built in fresh arrays, and the pool keeps within its bounds.
@Suite struct TreeStoragePoolTests {
    /// A feed of `cells` cells of five nodes, sizes varied by `seed`; with `text`, each cell has
    /// a text leaf of spans, which sends the request to the tape decoder.
    static func feed(cells: Int, seed: Int, text: Bool = false) -> [UInt8] {
        let items = (0..<cells).map { i in
            let leaf = text ? #"{"id":"t\#(i)","text":[{"text":"cell \#(i)"}]}"# : #"{"id":"t\#(i)","style":{"height":\#(10 + (i + seed) % 7)}}"#
            return #"{"id":"c\#(i)","style":{"flexDirection":"row","padding":\#(seed % 5)},"children":["#
                + #"{"id":"a\#(i)","style":{"width":\#(20 + (i * seed) % 13),"height":20}},"#
                + #"{"id":"b\#(i)","style":{"flexGrow":1},"children":[\#(leaf),{"id":"s\#(i)","style":{"height":8}}]}]}"#
        }
        return Array(#"{"available":{"width":\#(300 + seed)},"root":{"id":"feed","style":{"width":\#(300 + seed)},"children":[\#(items.joined(separator: ","))]}}"#.utf8)
    }

    /// Lays `request` out and returns its frames in pre-order.
    static func frames(_ request: LayoutRequest) -> [Frame] {
        var tree = request.tree
        tree.computeLayout(root: request.root, available: request.available, direction: request.direction)
        return tree.preorderFrames(root: request.root)
    }

    /// A tree is decoded in the arrays an earlier, laid-out tree gave back, and matches the same
    /// document decoded in fresh arrays: structure, ids, hash and frames. The feed of spans goes
    /// to the tape decoder after the one-pass decoder gives up: the arrays that one took go back to
    /// the pool, and the tape decoder builds in them.
    @Test(arguments: [false, true]) func aTreeBuiltInArraysGivenBackMatchesOneBuiltFresh(text: Bool) throws {
        let pool = TreeStoragePool(capacityBytes: 64 << 20)
        var earlier = try LayoutWire.decodeRequest(bytes: Self.feed(cells: 600, seed: 1, text: text), storage: pool)
        #expect(pool.statistics.misses == 1 && pool.statistics.reuses == (text ? 1 : 0),
                "the one-pass decoder gave its arrays back to the tape decoder")
        #expect(pool.statistics.storages == 0)
        #expect(earlier.tree.nodeCount == 3_001)
        earlier.tree.computeLayout(root: earlier.root, available: earlier.available)
        let capacity = earlier.tree.nodeCapacity
        pool.recycle(&earlier.tree)
        #expect(earlier.tree.nodeCount == 0 && earlier.tree.nodeCapacity == 0)
        #expect(pool.statistics.storages == 1 && pool.statistics.bytes > 0)

        let document = Self.feed(cells: 550, seed: 2, text: text)
        let pooled = try LayoutWire.decodeRequest(bytes: document, storage: pool)
        let fresh = try LayoutWire.decodeRequest(bytes: document, storage: nil)
        #expect(pool.statistics.reuses == (text ? 3 : 1) && pool.statistics.storages == 0)
        #expect(pooled.tree.nodeCapacity == capacity, "built in the storage the earlier tree gave back")
        #expect(pooled.tree.nodeCount == fresh.tree.nodeCount && pooled.ids == fresh.ids && pooled.root == fresh.root)
        #expect(pooled.tree.structuralHash(root: pooled.root, available: pooled.available)
                == fresh.tree.structuralHash(root: fresh.root, available: fresh.available))
        let frames = Self.frames(pooled)
        #expect(frames.count == 2_751)
        #expect(frames == Self.frames(fresh))
    }

    /// Small trees take no part; storages over the bound are freed; a full pool gives up its
    /// smallest storage for a larger one; a storage over twice a tree's size is not lent to it;
    /// lowering the bound frees what no longer fits.
    @Test func thePoolKeepsWithinItsBounds() throws {
        func tree(nodes: Int) -> LayoutTree {
            var tree = LayoutTree()
            tree.reserveCapacity(nodes)
            let root = try! tree.addNode()
            for _ in 1..<nodes { tree.appendChild(try! tree.addNode(), to: root) }
            return tree
        }
        let pool = TreeStoragePool(capacityBytes: 64 << 20)
        var small = tree(nodes: TreeStoragePool.minimumNodes - 1)
        pool.recycle(&small)
        #expect(small.nodeCount == TreeStoragePool.minimumNodes - 1, "a small tree is left alone")
        #expect(pool.statistics == TreeStoragePool.Statistics())

        var sizes: [Int] = []
        for k in 0..<TreeStoragePool.maxKept {
            var t = tree(nodes: 3_000 + 100 * k)
            sizes.append(t.nodeCapacity)
            pool.recycle(&t)
        }
        #expect(pool.statistics.storages == TreeStoragePool.maxKept && pool.statistics.kept == TreeStoragePool.maxKept)
        var larger = tree(nodes: 5_000)
        pool.recycle(&larger)
        #expect(pool.statistics.storages == TreeStoragePool.maxKept && pool.statistics.dropped == 1)
        // The smallest (3,000 nodes) went: a tree of 2,900 now gets the next smallest.
        let built = pool.tree(config: LayoutConfig(), reserving: 2_900)
        #expect(built.nodeCapacity == sizes[1])
        #expect(pool.statistics.reuses == 1)
        // Nothing kept is large enough for 30,000 nodes.
        #expect(pool.tree(config: LayoutConfig(), reserving: 30_000).nodeCapacity >= 30_000)
        #expect(pool.statistics.misses == 1 && pool.statistics.reuses == 1)
        // A storage of 9,000 nodes is not lent to a tree of 4,400 (over twice its room).
        let roomy = TreeStoragePool(capacityBytes: 64 << 20)
        var large = tree(nodes: 9_000)
        roomy.recycle(&large)
        #expect(roomy.tree(config: LayoutConfig(), reserving: 4_400).nodeCapacity < 9_000)
        #expect(roomy.tree(config: LayoutConfig(), reserving: 4_600).nodeCapacity >= 9_000)
        #expect(roomy.statistics.misses == 1 && roomy.statistics.reuses == 1)

        let before = pool.statistics.bytes
        var tooLarge = tree(nodes: 3_000)
        let strict = TreeStoragePool(capacityBytes: 1 << 20)
        strict.recycle(&tooLarge)
        #expect(strict.statistics.storages == 0 && strict.statistics.dropped == 1, "over the bound: freed")

        pool.capacityBytes = before / 2
        #expect(pool.statistics.bytes <= before / 2 && pool.statistics.storages < TreeStoragePool.maxKept - 1)
        pool.capacityBytes = 0
        #expect(pool.statistics.bytes == 0 && pool.statistics.storages == 0)
    }
}
