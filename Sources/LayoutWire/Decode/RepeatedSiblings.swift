#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sibling subtrees met again, for the one-pass decoder: a feed's 1,000 cells are often a few
/// shapes with other ids. A child whose bytes equal an earlier sibling's, but for the values of
/// their `id`s, is the same subtree: its nodes are copied from that sibling's instead of being
/// decoded (`OnePassDecoder.cloneEarlierSibling`).
///
/// A comparison stops at the first byte that differs, and the children of a parent whose
/// first `triesWithoutRepeat` children repeat nothing are not compared any more: trees without
/// repeats pay little for it.
struct RepeatedSiblings {
    /// Where a child starts: its `{`, its first node, and how much text had been filed before it.
    struct Start {
        var byte: Int
        var node: Int
        var declarations: Int
        var leaves: Int
    }

    /// A decoded child of two nodes or more that later siblings may repeat.
    struct Source {
        var start: Start
        /// Just past its closing `}`, and past its last node, declaration and leaf.
        var byteEnd: Int
        var nodeEnd: Int
        var declarationEnd: Int
        var leafEnd: Int
        /// The length of its own JSON pointer (its leaves' pointers start with it); 0 without leaves.
        var pointerLength: Int
        /// The source (index in `sources`) the child after the last child like this one was
        /// like: tried first for the child after the next one like it, since lists often take
        /// turns (-1: none yet).
        var successor = -1
    }

    /// One parent whose children are being decoded.
    private struct Level {
        /// Its children that may be repeated: `sources[firstSource...]` while it is the innermost.
        var firstSource: Int
        var children = 0
        var repeats = 0
        /// The source (index in `sources`) the last child was, or repeated; -1: neither.
        var last = -1
        /// The parent's own start (it completes when its children end).
        var start: Start
        /// Whether its children are still compared: until `triesWithoutRepeat` of them repeated
        /// none, for good once one has.
        var armed: Bool { repeats > 0 || children < RepeatedSiblings.triesWithoutRepeat }
    }

    /// The fewest nodes (as the decoder estimates them) of a tree whose siblings are compared:
    /// the comparisons and the bookkeeping cost a smaller tree a few percent of its decode, and
    /// the trees where repeats pay (feeds of hundreds of cells) are larger.
    static let minimumNodes = 2_048

    /// The children a child is compared with, at most, latest first.
    static let sourcesPerParent = 12
    /// Children of one parent compared before giving up on it when none repeated an earlier one.
    static let triesWithoutRepeat = 12

    private var sources: [Source] = []
    /// The innermost parent, and those around it.
    private var top: Level
    private var outer: [Level] = []
    /// Per node (by index): where its id's string starts (its opening quote) and ends (past
    /// the closing quote) in the input, as `start << 32 | end`; -1 for a node without an id.
    private var idSpans: [Int64] = []
    /// One id string of a repeat: where it starts (its opening quote) and, when it is plain
    /// (valid UTF-8 without escapes or control characters, as the decoder would read it), where
    /// it ends (past its closing quote); `end` is -1 otherwise (the decoder reads it again).
    struct CloneID {
        var start: Int32
        var end: Int32
    }

    /// The repeat's id strings found by the last `findRepeat`, one per source node with an id
    /// (the entries after those are stale).
    private(set) var cloneIDs: [CloneID] = []
    /// Children copied from an earlier sibling so far.
    private(set) var copies = 0

    /// Tracks the children of the root (at `root`), with room for `nodes` nodes.
    init(root: Start, reservingNodes nodes: Int) {
        top = Level(firstSource: 0, start: root)
        idSpans.reserveCapacity(nodes)
    }

    /// Notes the id string of the node just added (`start..<end`, or nil).
    @inline(__always) mutating func noteID(_ span: Range<Int>?) {
        idSpans.append(span.map { Int64($0.lowerBound) << 32 | Int64($0.upperBound) } ?? -1)
    }

    /// Whether the node at `index` has an id.
    @inline(__always) func hasID(_ index: Int) -> Bool { idSpans[index] >= 0 }

    /// A child starting at `start`, whose children come next.
    mutating func openChildren(of start: Start) {
        outer.append(top)
        top = Level(firstSource: sources.count, start: start)
    }

    /// The innermost parent's children ended; returns its start. Its children are forgotten.
    mutating func closeChildren() -> Start {
        let start = top.start
        sources.removeSubrange(top.firstSource...)
        // The root's children have no parent level around them.
        top = outer.popLast() ?? Level(firstSource: 0, start: start)
        return start
    }

    /// A leaf child of the innermost parent is decoded (a leaf is never a source), or a child
    /// that may not be one.
    mutating func completedLeaf() {
        top.children += 1
        top.last = -1
    }

    /// The innermost parent's child that started at `source.start` is decoded, up to `source`'s
    /// ends.
    mutating func completed(_ source: Source) {
        top.children += 1
        guard top.armed else {
            top.last = -1
            return
        }
        if sources.count - top.firstSource == Self.sourcesPerParent { forgetOldestSource() }
        sources.append(source)
        let index = sources.count - 1
        if top.last >= 0 { sources[top.last].successor = index }
        top.last = index
    }

    /// Drops the innermost parent's oldest source, moving the links to the others down.
    private mutating func forgetOldestSource() {
        let first = top.firstSource
        @inline(__always) func moved(_ i: Int) -> Int { i == first ? -1 : i > first ? i - 1 : i }
        sources.remove(at: first)
        for i in first..<sources.count { sources[i].successor = moved(sources[i].successor) }
        top.last = moved(top.last)
    }

    /// Whether the innermost parent's next child may repeat an earlier one (cheap, and false
    /// for most trees). Not before its fourth child: a parent of a few children gains little,
    /// and such parents are most of a tree.
    var mayRepeat: Bool { top.children >= 3 && top.armed && top.firstSource < sources.count }

    /// The earlier child of the innermost parent that the child at `child` repeats, and the end of
    /// the repeat; noted as a repeat. The ids of the repeat are then in `cloneIDs`.
    mutating func findRepeat(at child: Int, in input: UnsafeBufferPointer<UInt8>) -> (Source, end: Int)? {
        // The successor of the last child's source first, then the latest first.
        let predicted = top.last >= 0 ? sources[top.last].successor : -1
        var found = -1, end = 0
        if predicted >= 0, let e = match(sources[predicted], at: child, in: input) {
            (found, end) = (predicted, e)
        } else {
            var i = sources.count - 1
            while i >= top.firstSource {
                if i != predicted, let e = match(sources[i], at: child, in: input) {
                    (found, end) = (i, e)
                    break
                }
                i -= 1
            }
        }
        guard found >= 0 else { return nil }  // decoded instead; `completed` notes it
        if top.last >= 0 { sources[top.last].successor = found }
        top.children += 1
        top.repeats += 1
        top.last = found
        copies += 1
        return (sources[found], end)
    }

    /// Whether the bytes at `child` repeat `source`'s but for its ids' values; then the end of the
    /// repeat, its id strings in `cloneIDs`. An id of the repeat is any JSON string token the
    /// decoder would take: one with an escape it reads when it copies the nodes; one it would
    /// refuse (a control character, bad UTF-8) makes the child no repeat, so that it is decoded,
    /// and refused, as any child.
    private mutating func match(_ source: Source, at child: Int, in input: UnsafeBufferPointer<UInt8>) -> Int? {
        // Room for an id per source node, then written in place through buffers (entries past
        // the source's ids are stale): each append or write was a uniqueness check.
        let most = source.nodeEnd - source.start.node
        if cloneIDs.count < most {
            cloneIDs.append(contentsOf: repeatElement(CloneID(start: -1, end: -1), count: most - cloneIDs.count))
        }
        return idSpans.withUnsafeBufferPointer { spans in
            cloneIDs.withUnsafeMutableBufferPointer { found in
                Self.match(source, at: child, in: input, spans: spans, into: found)
            }
        }
    }

    /// `match`, given the per-node id spans and where to write the repeat's ids.
    private static func match(_ source: Source, at child: Int, in input: UnsafeBufferPointer<UInt8>,
                              spans: UnsafeBufferPointer<Int64>, into found: UnsafeMutableBufferPointer<CloneID>) -> Int? {
        guard let base = input.baseAddress else { return nil }
        var count = 0
        var p = source.start.byte, q = child
        for node in source.start.node..<source.nodeEnd where spans[node] >= 0 {
            let idStart = Int(spans[node] >> 32)
            // The bytes up to this id's string, then the repeat's own string.
            let run = idStart - p
            guard q + run < input.count, memcmp(base + p, base + q, run) == 0 else { return nil }
            q += run
            guard input[q] == UInt8(ascii: "\"") else { return nil }
            let start = q
            // The string read as the decoder reads it (a word at a time), so that a plain one
            // need not be read again; one with an escape is only skipped.
            guard var end = try? OnePassDecoder.plainRun(input, from: q + 1), end < input.count else { return nil }
            var plain = true
            if input[end] == UInt8(ascii: "\\") {
                plain = false
                while end < input.count && input[end] != UInt8(ascii: "\"") {
                    end += input[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard end < input.count else { return nil }
            } else if input[end] != UInt8(ascii: "\"") {
                return nil  // a control character: decoded as a child, the decoder refuses it
            }
            q = end + 1
            found[count] = CloneID(start: Int32(start), end: plain ? Int32(q) : -1)
            count += 1
            p = Int(spans[node] & 0xFFFF_FFFF)
        }
        let rest = source.byteEnd - p
        guard q + rest <= input.count, memcmp(base + p, base + q, rest) == 0 else { return nil }
        return q + rest
    }
}
