// Exact relayouts (`LayoutTree.relayoutsExactly`): a relayout that gives the frames of a fresh
// layout of the edited tree.
//
// Why Yoga's relayout cannot promise that: within one layout call a node is asked for its size
// several times, and an answer may come loosely from an earlier one (`canUseCachedMeasurement`:
// a result measured in more room that still fits, a max-content size that fits). So what a
// node answers depends on the order of the questions it was asked in that call. A relayout
// answers the untouched nodes from the caches of earlier calls, whose questions came in
// another order; on random trees about one edit in seven then gives other frames than laying
// the edited tree out whole (`ExactRelayoutTests`).
//
// What this does instead: each node keeps the questions of the last call that computed it, in
// order, with its answers and which of them it stored. A relayout answers an untouched node
// from that log while it is asked the same questions in the same order: a fresh call would
// compute the same answers, since the node's subtree and the questions are the same, and
// leave its subtree as the last computation did. When a node is asked something else:
// - a leaf gets the cache a fresh call would hold at that point (the entries stored by the
//   questions replayed so far) and goes on under the usual rules;
// - a node with children forgets its answers and is asked the questions replayed so far
//   again, computing them (`recomputeFromFresh`): that sets its subtree to where a fresh call
//   has it, since its children answer as any untouched node does (from their own logs while
//   asked the same, and by these rules when not). The answers must be those already handed
//   out; if one is not, the call is laid out again from a fresh state (`relayoutDiverged`).
//   So an edit that asks a sibling something new (a message column beside a resized avatar)
//   computes that sibling again, not the tree.
// A node replayed for fewer questions than its log holds leaves its subtree as the log's last
// computation did, not the fresh call's: the same fallback, except for a leaf, whose log is
// cut where the questions stopped.

/// One question a layout call asked a node, what the node answered, and whether it stored the
/// answer (see `LayoutTree.relayoutsExactly`).
@usableFromInline struct LoggedRequest: Sendable {
    @usableFromInline var availableWidth: Float = .nan
    @usableFromInline var availableHeight: Float = .nan
    @usableFromInline var ownerWidth: Float = .nan
    @usableFromInline var ownerHeight: Float = .nan
    @usableFromInline var measuredWidth: Float = .nan
    @usableFromInline var measuredHeight: Float = .nan
    @usableFromInline var widthMode: SizingMode = .maxContent
    @usableFromInline var heightMode: SizingMode = .maxContent
    @usableFromInline var ownerDirection: Direction = .inherit
    @usableFromInline var kind: Kind = []

    @usableFromInline struct Kind: OptionSet, Sendable {
        @usableFromInline let rawValue: UInt8
        @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Asked for a layout, not a measurement.
        static let performLayout = Kind(rawValue: 1)
        /// The answer was computed and stored as the node's layout entry.
        static let storedLayout = Kind(rawValue: 2)
        /// The answer was computed and stored as a measurement entry.
        static let storedMeasurement = Kind(rawValue: 4)
    }

    /// Whether this is the same question, bit for bit.
    @inline(__always) func asks(_ availableWidth: Float, _ availableHeight: Float, _ ownerDirection: Direction,
                                _ widthMode: SizingMode, _ heightMode: SizingMode, _ ownerWidth: Float,
                                _ ownerHeight: Float, _ performLayout: Bool) -> Bool {
        self.availableWidth.bitPattern == availableWidth.bitPattern
            && self.availableHeight.bitPattern == availableHeight.bitPattern
            && self.ownerWidth.bitPattern == ownerWidth.bitPattern
            && self.ownerHeight.bitPattern == ownerHeight.bitPattern
            && self.widthMode == widthMode && self.heightMode == heightMode
            && self.ownerDirection == ownerDirection && kind.contains(.performLayout) == performLayout
    }

    /// The cache entry this question stored.
    func entry(generation: UInt32) -> CacheEntry {
        CacheEntry(availableWidth, availableHeight, widthMode, heightMode, computed: measuredWidth, measuredHeight,
                   owner: ownerWidth, ownerHeight, generation: generation)
    }
}

/// Where one node's request log stands (see `LayoutTree.relayoutsExactly`).
@usableFromInline struct RequestLogState: Sendable {
    /// The layout call `cursor` and `replaying` belong to.
    @usableFromInline var generation: UInt32 = 0
    /// How many questions the log holds.
    @usableFromInline var count: UInt8 = 0
    /// How many of them this call has asked again.
    @usableFromInline var cursor: UInt8 = 0
    /// This call answers the node from its log.
    @usableFromInline var replaying = false
    /// The node was asked more questions than a log holds, so it cannot be replayed.
    @usableFromInline var overflowed = false

    @inlinable init() {}
}

/// The questions kept per node; a node asked more in one call is computed fresh next time.
@usableFromInline let maxLoggedRequests = 8

extension LayoutPass {
    /// Answers `n` from its request log when this call is a replay of its last computed one
    /// (see the top of this file); false when the node must be computed (and its question
    /// logged by `logRequest`).
    @inline(__always) func replayRequest(_ n: Int, _ availableWidth: Float, _ availableHeight: Float,
                                         _ ownerDirection: Direction, _ widthMode: SizingMode,
                                         _ heightMode: SizingMode, _ ownerWidth: Float, _ ownerHeight: Float,
                                         _ performLayout: Bool, _ depth: Int,
                                         _ states: UnsafeMutablePointer<RequestLogState>,
                                         _ logs: UnsafeMutablePointer<LoggedRequest>) -> Bool {
        let state = states + n
        let l = layouts + n
        if state.pointee.generation != generation {
            // The first question of this call.
            state.pointee.generation = generation
            state.pointee.cursor = 0
            state.pointee.replaying = false
            if l.pointee.isDirty || l.pointee.configVersion != configVersion {
                // Computed afresh, as in a fresh call.
                state.pointee.count = 0
                state.pointee.overflowed = false
            } else if state.pointee.overflowed {
                relayoutDiverged!.pointee = true
            } else if state.pointee.count == 0 {
                // Never computed since the last fresh call: start it from nothing, as a fresh call would.
                forgetAnswers(n)
            } else {
                state.pointee.replaying = true
                noteReplayed(n)
            }
        }
        guard state.pointee.replaying else { return false }
        let cursor = Int(state.pointee.cursor)
        let log = logs + n * maxLoggedRequests
        if cursor < Int(state.pointee.count) && log[cursor].asks(availableWidth, availableHeight, ownerDirection,
                                                                 widthMode, heightMode, ownerWidth, ownerHeight,
                                                                 performLayout) {
            let record = log[cursor]
            l.pointee.measuredWidth = record.measuredWidth
            l.pointee.measuredHeight = record.measuredHeight
            if performLayout {
                l.pointee.width = record.measuredWidth
                l.pointee.height = record.measuredHeight
                l.pointee.isDirty = false
            }
            l.pointee.generationCount = generation
            state.pointee.cursor = UInt8(cursor + 1)
            return true
        }
        // Asked something else than last time.
        state.pointee.replaying = false
        if firstChildren[n].index < 0 {
            restoreEntries(n, fromFirst: cursor, of: log)
            state.pointee.count = UInt8(cursor)
        } else {
            recomputeFromFresh(n, questions: cursor, of: log, depth)
        }
        return false
    }

    /// Brings `n`, a node with children asked something else after `count` questions answered
    /// from its log, to where a fresh call would have it now (see the top of this file), or
    /// marks the call diverged when the questions do not give the answers already handed out.
    /// The questions are few (a log holds `maxLoggedRequests`) and this runs once per node
    /// and call at most: the node computes from then on.
    @inline(never)
    func recomputeFromFresh(_ n: Int, questions count: Int, of log: UnsafeMutablePointer<LoggedRequest>, _ depth: Int) {
        // Copied: asking them again writes the log anew.
        let questions = Array(UnsafeBufferPointer(start: log, count: count))
        // Its answers only: what its parent wrote on it this call (position, flex basis) stays.
        forgetAnswers(n)
        requestLogStates![n].count = 0
        requestLogStates![n].overflowed = false
        for question in questions {
            calculateLayoutInternal(n, question.availableWidth, question.availableHeight, question.ownerDirection,
                                    question.widthMode, question.heightMode, question.ownerWidth, question.ownerHeight,
                                    question.kind.contains(.performLayout), depth)
            guard layouts[n].measuredWidth.bitPattern == question.measuredWidth.bitPattern,
                  layouts[n].measuredHeight.bitPattern == question.measuredHeight.bitPattern else {
                relayoutDiverged!.pointee = true
                return
            }
        }
    }

    /// Gives leaf `n` the cache entries a fresh call holds after the first `count` questions
    /// of its log: those they stored, in order.
    func restoreEntries(_ n: Int, fromFirst count: Int, of log: UnsafeMutablePointer<LoggedRequest>) {
        forgetAnswers(n)
        for i in 0..<count {
            let record = log[i]
            if record.kind.contains(.storedLayout) {
                layouts[n].cachedLayout = record.entry(generation: generation)
            } else if record.kind.contains(.storedMeasurement) {
                storeMeasurement(record.entry(generation: generation), of: n)
            }
        }
    }

    /// Appends the question `n` was just asked and its answer to its log.
    @inline(__always) func logRequest(_ n: Int, _ availableWidth: Float, _ availableHeight: Float,
                                      _ ownerDirection: Direction, _ widthMode: SizingMode, _ heightMode: SizingMode,
                                      _ ownerWidth: Float, _ ownerHeight: Float, _ kind: LoggedRequest.Kind,
                                      _ states: UnsafeMutablePointer<RequestLogState>,
                                      _ logs: UnsafeMutablePointer<LoggedRequest>) {
        let state = states + n
        let count = Int(state.pointee.count)
        guard count < maxLoggedRequests else {
            state.pointee.overflowed = true
            return
        }
        let l = layouts + n
        logs[n * maxLoggedRequests + count] = LoggedRequest(
            availableWidth: availableWidth, availableHeight: availableHeight, ownerWidth: ownerWidth,
            ownerHeight: ownerHeight, measuredWidth: l.pointee.measuredWidth, measuredHeight: l.pointee.measuredHeight,
            widthMode: widthMode, heightMode: heightMode, ownerDirection: ownerDirection, kind: kind)
        state.pointee.count = UInt8(count + 1)
    }
}

extension LayoutTree {
    /// After a call that replayed logs: whether a node with children was asked fewer questions
    /// than its log holds (its subtree is then as its log's last computation left it, which a
    /// fresh call need not reach); a leaf's log is cut where its questions stopped.
    mutating func replayEndedEarly() -> Bool {
        let generation = self.generation
        var early = false
        // Only nodes that began to replay in the pass (`PassRecords.replayed`), not every node.
        for node in records.replayed {
            let n = Int(node)
            let state = requestLogStates[n]
            guard state.generation == generation && state.replaying && state.cursor != state.count else { continue }
            if firstChildren[n].index < 0 {
                requestLogStates[n].count = state.cursor
            } else {
                early = true
            }
        }
        return early
    }
}
