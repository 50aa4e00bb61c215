import Foundation
import LayoutEngine
import LayoutServer
import LayoutWire

// `wire-bench --feed`: repeated subtrees laid out once (issue 11, item 2). A feed of 1,000
// cells built from 10 distinct cell shapes against a feed of 1,000 distinct cells of the same
// size, through the uncached service path in-process (`LayoutOnce`: decode, structural hash,
// layout, encode; no HTTP, no frame cache), in CPU time per request, same run. Two kinds of
// cell: boxes only, and boxes with two text leaves (measured with the bundled fonts). Also:
// with a warm subtree cache (as `--subtree-cache-bytes` keeps across requests), the stages
// that stay O(n) whatever repeats (decode, hash, encode), and the engine alone with reuse on
// and off. Build with `swift build -c release --product wire-bench`.

enum FeedBench {
    /// One cell of variant `v` (0..<1000: every variant differs) with ids from `i`.
    static func cell(_ i: Int, variant v: Int, text: Bool) -> String {
        let a = v % 10, b = (v / 10) % 10, c = v / 100
        if text {
            let number = String(1000 + v).dropFirst()
            return """
            {"id":"c\(i)","style":{"flexDirection":"row","padding":8,"gap":8,"alignItems":"flex-start","fontFamily":"DejaVu Sans"},"children":[\
            {"id":"a\(i)","style":{"width":40,"height":40}},\
            {"id":"b\(i)","style":{"flexGrow":1,"flexShrink":1,"gap":4},"children":[\
            {"id":"t\(i)","style":{"fontSize":16,"fontWeight":"bold"},"text":"Sender \(number)"},\
            {"id":"s\(i)","style":{"fontSize":14,"lineHeight":20},"text":"Message \(number): a line of text long enough to wrap onto a second line in the cell."}]},\
            {"id":"m\(i)","style":{"width":24,"height":24,"margin":4}}]}
            """
        }
        return """
        {"id":"c\(i)","style":{"flexDirection":"row","padding":8,"gap":8,"alignItems":"center"},"children":[\
        {"id":"a\(i)","style":{"width":\(36 + a),"height":40}},\
        {"id":"b\(i)","style":{"flexGrow":1,"gap":4},"children":[\
        {"id":"t\(i)","style":{"height":18,"width":"\(40 + 5 * b)%"}},\
        {"id":"s\(i)","style":{"height":\(12 + c),"width":"80%"}}]},\
        {"id":"m\(i)","style":{"width":24,"height":24,"margin":4}}]}
        """
    }

    /// A feed of `cells` cells, cell i of variant i % `shapes`.
    static func feed(cells: Int, shapes: Int, text: Bool) -> [UInt8] {
        let children = (0..<cells).map { cell($0, variant: $0 % shapes, text: text) }.joined(separator: ",")
        return Array("""
        {"available":{"width":375,"height":null},"root":{"id":"feed","style":{"width":375},"children":[\(children)]}}
        """.utf8)
    }

    @MainActor
    static func run() {
        let malloc = MallocTuning.apply(environment: ProcessInfo.processInfo.environment)
        print("malloc: " + malloc.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        func row(_ name: String, _ ns: Double, _ note: String = "") {
            print(name.padding(toLength: 46, withPad: " ", startingAt: 0) + String(format: "%9.1f µs", ns / 1_000) + note)
        }
        for text in [false, true] {
            let repeated = feed(cells: 1_000, shapes: 10, text: text)
            let distinct = feed(cells: 1_000, shapes: 1_000, text: text)
            let kind = text ? "text cells" : "box cells"
            precondition(LayoutOnce.answer(body: repeated).body == LayoutOnce.answer(body: repeated).body)
            let nodes = (try? LayoutWire.decodeRequest(bytes: repeated))?.tree.nodeCount ?? 0
            print("\n== \(kind): 1,000 cells, \(nodes) nodes, \(repeated.count) / \(distinct.count) bytes")
            var service: [Double] = []
            for (name, body) in [("10 shapes", repeated), ("1,000 distinct", distinct)] {
                precondition(LayoutOnce.answer(body: body).status == 200)
                let ns = measure { sink &+= LayoutOnce.answer(body: body).body.count }
                service.append(ns)
                row("service path, \(name)", ns)
            }
            print(String(format: "  ratio distinct / 10 shapes: %.2fx (target >= 10x)", service[1] / service[0]))
            pairedRatio("  distinct / 10 shapes (target >= 10x)", first: { sink &+= LayoutOnce.answer(body: repeated).body.count },
                        second: { sink &+= LayoutOnce.answer(body: distinct).body.count })
            let cache = SubtreeCache(capacityBytes: 4 << 20)
            _ = LayoutOnce.answer(body: repeated, subtrees: cache)
            let warm = measure { sink &+= LayoutOnce.answer(body: repeated, subtrees: cache).body.count }
            row("service path, 10 shapes, warm subtree cache", warm,
                String(format: "  → distinct / this %.2fx", service[1] / warm))
            // The O(n) stages, on the 10-shape feed.
            let decoded = try! LayoutWire.decodeRequest(bytes: repeated)
            row("  decode", measure {
                // Its arrays given back, as the service gives them back (`TreeStoragePool`).
                guard var request = try? LayoutWire.decodeRequest(bytes: repeated) else { return }
                sink &+= request.tree.nodeCount
                TreeStoragePool.shared.recycle(&request.tree)
            })
            row("  structural hash (whole tree, streamed; copies' chunks reused)", measure {
                sink &+= Int(truncatingIfNeeded: decoded.tree.structuralHash(root: decoded.root, available: decoded.available,
                                                                             copies: decoded.subtreeCopies.list).low)
            })
            row("  subtree hashes (per node, Merkle)", measure {
                sink &+= Int(truncatingIfNeeded: decoded.tree.subtreeHashes(root: decoded.root, key: .processRandom)[0].low)
            })
            var laidOut = decoded
            laidOut.tree.computeLayout(root: decoded.root, available: decoded.available)
            row("  encode (frames + JSON; copies from their sources' bytes)", measure {
                let frames = laidOut.tree.preorderFrames(root: laidOut.root)
                sink &+= ResponseEncoder.encode(tree: laidOut.tree, root: laidOut.root, ids: laidOut.ids, frames: frames,
                                                copies: laidOut.subtreeCopies).count
            })
            // The same stages with the repeats decoded as instances, as the service decodes them.
            var folded = try! LayoutWire.decodeRequest(bytes: repeated, foldsRepeats: true)
            row("  decode, repeats as instances (\(folded.tree.instances.nodes.count) of them)", measure {
                guard var request = try? LayoutWire.decodeRequest(bytes: repeated, foldsRepeats: true) else { return }
                sink &+= request.tree.nodeCount
                TreeStoragePool.shared.recycle(&request.tree)
            })
            row("  structural hash, with instances", measure {
                sink &+= Int(truncatingIfNeeded: folded.tree.structuralHash(root: folded.root, available: folded.available).low)
            })
            if !text {
                folded.tree.subtreeReuse = SubtreeReuse(key: .processRandom)
                folded.tree.computeLayout(root: folded.root, available: folded.available)
                let foldedFrames = folded.tree.preorderFrames(root: folded.root)
                row("  encode, with instances", measure {
                    sink &+= ResponseEncoder.encode(tree: folded.tree, root: folded.root, ids: folded.ids,
                                                    instanceIDs: folded.instanceIDs, frames: foldedFrames)?.count ?? 0
                })
            }
            if !text {
                // The engine alone (text leaves need the service's hooks, so box cells only).
                for (name, body) in [("10 shapes", repeated), ("1,000 distinct", distinct)] {
                    let request = try! LayoutWire.decodeRequest(bytes: body)
                    for reuse in [false, true] {
                        var probe = request.tree
                        probe.subtreeReuse = reuse ? SubtreeReuse(key: .processRandom) : nil
                        probe.computeLayout(root: request.root, available: request.available)
                        let s = probe.subtreeReuseStatistics
                        row("  engine layout, \(name), reuse \(reuse ? "on" : "off")", measure {
                            var tree = request.tree
                            tree.subtreeReuse = reuse ? SubtreeReuse(key: .processRandom) : nil
                            tree.computeLayout(root: request.root, available: request.available)
                            sink &+= Int(tree.frame(of: request.root).height)
                        }, reuse ? "  (candidates \(s.candidates), computed \(s.recorded), copied \(s.localHits))" : "")
                    }
                }
            }
        }
        // The whole-request key (the ETag's) against a Merkle hash per node, and what a patch
        // pays for it: the hash kept in parts, and one node's chunk rehashed after an edit.
        let tree1k = try! LayoutWire.decodeRequest(bytes: Documents.generatedTree(nodes: 1_000))
        print("\n== hashes of the generated 1,000-node tree (\(tree1k.tree.nodeCount) nodes)")
        row("structural hash (32-node chunks, the ETag's)", measure {
            sink &+= Int(truncatingIfNeeded: tree1k.tree.structuralHash(root: tree1k.root).low)
        })
        row("structural hash kept in parts (a tree kept for patches)", measure {
            sink &+= Int(truncatingIfNeeded: tree1k.tree.structuralHashParts(root: tree1k.root).hash.low)
        })
        var parts = tree1k.tree.structuralHashParts(root: tree1k.root)
        let edited = NodeID(tree1k.tree.nodeCount / 2)
        row("rehash after one node's style edit (a patch)", measure {
            sink &+= Int(truncatingIfNeeded: tree1k.tree.rehash(&parts, changed: [edited]).low)
        })
        row("subtree hashes (one per node, Merkle)", measure {
            sink &+= Int(truncatingIfNeeded: tree1k.tree.subtreeHashes(root: tree1k.root, key: .processRandom)[0].low)
        })
    }
}
