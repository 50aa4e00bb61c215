// Repeated subtrees stored once (issue 11: a feed of 1,000 cells of a few shapes). An
// *instance* is a node that stands for a copy of an earlier subtree, its *source*, without
// the copy's descendants being stored: it has the source root's style and content and no
// children of its own. The engine lays it out as the subtree memo lays out a copy (the
// source's computation under the same arguments, from the same state), but writes only the
// instance's own results; its descendants' frames come from the memo's snapshot of the
// instance's last computation, rounded at the instance's place (LayoutTree+Instances.swift).
//
// So a request of 1,000 cells costs per cell one node in the tree, one restore of a root's
// results and one rounding of the cell's root, instead of six of each.
//
// What reads the virtual descendants does so in *expanded pre-order*: the tree's pre-order
// with each instance followed by its source's descendants, which is the pre-order of the
// tree a decoder would have built without instances. `preorderFrames`, the structural hash
// and `expandedNodeCount` speak of that tree, so a tree with instances answers, hashes and
// caches exactly as the tree they stand for.

/// The instances of a tree (see `LayoutTree.addInstance(of:under:)`) and what its last
/// layout call made of them.
public struct SubtreeInstances: Sendable {
    /// The instance nodes, in the order they were added (increasing index).
    public internal(set) var nodes: [Int32] = []
    /// Each instance's source (the root of the subtree it stands for, never an instance).
    public internal(set) var sources: [Int32] = []
    /// Per instance: the nodes of its source's subtree, root included.
    public internal(set) var sizes: [Int32] = []
    /// The descendants all instances stand for (their sizes less one each).
    public internal(set) var virtualNodes = 0
    /// The tree's `structureVersion` once the instances were added: an edit of the tree's
    /// structure since makes them stale, and the tree cannot be laid out with them.
    var structureVersion: UInt32 = 0

    /// Whether the last layout call laid every instance out (see `LayoutTree.instancesLaidOut`).
    var laidOut = false
    /// The rounded frames of instances' descendants, each instance's in its source's pre-order
    /// (the instance's own frame is in the tree); instances rounded alike share theirs.
    var frames: [Frame] = []
    /// Instances of the last layout call whose descendants' frames are an earlier instance's
    /// (rounded alike; see `LayoutTree.roundsAlike`).
    public internal(set) var sharedRoundings = 0
    /// Per instance: where its descendants' frames start in `frames`.
    var frameStarts: [Int32] = []

    public init() {}

    /// Whether there are none.
    @inlinable public var isEmpty: Bool { nodes.isEmpty }
}
