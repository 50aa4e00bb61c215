#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

    private final class Storage: @unchecked Sendable {
        let mutex: UnsafeMutablePointer<pthread_mutex_t>
        var blocks: [Block] = []
        init() {
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
            blocks.reserveCapacity(ScratchPool.maxBlocks)
        }
    }

    private static let storage = Storage()

    /// A block of at least `bytes` bytes: the smallest kept block that fits, or a new one.
    /// Returns the block and its real size (hand both back to `release`).
    static func take(bytes: Int) -> (UnsafeMutableRawPointer, Int) {
        let s = storage
        pthread_mutex_lock(s.mutex)
        var best = -1
        for (i, block) in s.blocks.enumerated() where block.bytes >= bytes {
            if best < 0 || block.bytes < s.blocks[best].bytes { best = i }
        }
        if best >= 0 {
            let block = s.blocks.remove(at: best)
            pthread_mutex_unlock(s.mutex)
            return (block.base, block.bytes)
        }
        pthread_mutex_unlock(s.mutex)
        return (.allocate(byteCount: bytes, alignment: alignment), bytes)
    }

    /// Gives a block from `take` back: kept for the next request when there is room,
    /// otherwise freed. When the pool is full, a larger block replaces its smallest one.
    static func release(_ base: UnsafeMutableRawPointer, bytes: Int) {
        guard bytes <= maxBlockBytes else { base.deallocate(); return }
        let s = storage
        var evicted: UnsafeMutableRawPointer? = base
        pthread_mutex_lock(s.mutex)
        if s.blocks.count < maxBlocks {
            s.blocks.append(Block(base: base, bytes: bytes))
            evicted = nil
        } else if let smallest = s.blocks.indices.min(by: { s.blocks[$0].bytes < s.blocks[$1].bytes }),
                  s.blocks[smallest].bytes < bytes {
            evicted = s.blocks[smallest].base
            s.blocks[smallest] = Block(base: base, bytes: bytes)
        }
        pthread_mutex_unlock(s.mutex)
        evicted?.deallocate()
    }

    /// Blocks kept now (for tests).
    static var keptBlocks: Int {
        let s = storage
        pthread_mutex_lock(s.mutex)
        defer { pthread_mutex_unlock(s.mutex) }
        return s.blocks.count
    }
}
