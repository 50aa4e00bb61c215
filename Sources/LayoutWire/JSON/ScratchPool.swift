import SyncSupport

/// Raw memory blocks kept across requests for the parser's tape and string buffers and the
/// writer's output. A fresh block of a few hundred kilobytes comes from `mmap` and is paid
/// for again in page faults on every request (about a third of an uncached request's decode);
/// a reused one is already mapped. Thread-safe: requests parse concurrently.
///
/// Bounded: at most `maxBlocks` blocks of at most `maxBlockBytes` each (8 MiB in all) are
/// kept; anything else is freed as before. A 1,000-node request uses four blocks (tape
/// ~220 KB, output ~70 KB, two small ones); a tape over 1 MiB (a document over ~380 KB) is
/// not kept.
enum ScratchPool {
    static let maxBlocks = 8
    static let maxBlockBytes = 1 << 20
    /// Alignment of every block: enough for any trivial element the buffers hold.
    static let alignment = 16

    private struct Block {
        var base: UnsafeMutableRawPointer
        var bytes: Int
    }

    /// The blocks kept for reuse, in no order.
    private static let kept = Locked<[Block]>({
        var blocks: [Block] = []
        blocks.reserveCapacity(ScratchPool.maxBlocks)
        return blocks
    }())

    /// A block of at least `bytes` bytes: the smallest kept block that fits, or a new one.
    /// Returns the block and its real size (hand both back to `release`).
    static func take(bytes: Int) -> (UnsafeMutableRawPointer, Int) {
        let reused = kept.withLock { blocks -> Block? in
            var best = -1
            for (i, block) in blocks.enumerated() where block.bytes >= bytes {
                if best < 0 || block.bytes < blocks[best].bytes { best = i }
            }
            return best >= 0 ? blocks.remove(at: best) : nil
        }
        if let reused { return (reused.base, reused.bytes) }
        return (.allocate(byteCount: bytes, alignment: alignment), bytes)
    }

    /// Gives a block from `take` back: kept for the next request when there is room,
    /// otherwise freed. When the pool is full, a larger block replaces its smallest one.
    static func release(_ base: UnsafeMutableRawPointer, bytes: Int) {
        guard bytes <= maxBlockBytes else { base.deallocate(); return }
        let evicted = kept.withLock { blocks -> UnsafeMutableRawPointer? in
            if blocks.count < maxBlocks {
                blocks.append(Block(base: base, bytes: bytes))
                return nil
            }
            if let smallest = blocks.indices.min(by: { blocks[$0].bytes < blocks[$1].bytes }),
               blocks[smallest].bytes < bytes {
                defer { blocks[smallest] = Block(base: base, bytes: bytes) }
                return blocks[smallest].base
            }
            return base
        }
        evicted?.deallocate()
    }

    /// Blocks kept now (for tests).
    static var keptBlocks: Int {
        kept.withLock { $0.count }
    }
}
