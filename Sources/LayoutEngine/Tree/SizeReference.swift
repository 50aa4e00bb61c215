/// A node's width or height taken from another node's laid-out size: FlexLayout's and
/// StackViewLayout's `width(of:)` / `height(of:)`. Those read the other view's current frame
/// when called; here the other node is laid out first and its frame read then, so a request
/// needs no earlier layout.
public struct SizeReference: Hashable, Sendable {
    public enum Dimension: UInt8, Hashable, Sendable {
        case width, height
    }

    /// The node sized.
    public var node: NodeID
    /// Its dimension set, from the same dimension of `source`.
    public var dimension: Dimension
    /// The node whose laid-out size it takes.
    public var source: NodeID
    /// Scales the source's size; finite and not negative.
    public var multiplier: Float

    public init(node: NodeID, dimension: Dimension, source: NodeID, multiplier: Float = 1) {
        self.node = node
        self.dimension = dimension
        self.source = source
        self.multiplier = multiplier
    }
}

/// Why a set of size references was refused, with the index of the reference at fault.
public struct SizeReferenceError: Error, Hashable, Sendable {
    public enum Reason: Hashable, Sendable {
        /// The node or its source is not a node of the tree.
        case unknownNode
        /// The multiplier is negative, NaN or infinite.
        case invalidMultiplier
        /// Following sources from this reference leads back to it.
        case cycle
        /// The chain of references through this one is longer than the limit given.
        case chainTooLong
        /// An earlier reference already sets this dimension of this node.
        case duplicate
    }

    public var reason: Reason
    /// Index of the reference in the list given to `setSizeReferences`.
    public var index: Int

    public init(reason: Reason, index: Int) {
        self.reason = reason
        self.index = index
    }
}

extension LayoutTree {
    /// The size references `computeLayout(root:available:direction:)` resolves.
    public var sizeReferences: [SizeReference] { references.list }

    /// Sets the size references the next layouts resolve, replacing any before. Each
    /// reference's source is laid out before the node sized from it: references whose source
    /// is not itself sized by a reference are read after a first layout, the ones depending
    /// on those after a second, and so on, so a layout costs one pass per link of the longest
    /// chain plus one. Both nodes of a reference belong in the subtree laid out (a source outside
    /// it keeps the frame of its last layout). Throws for an unknown node, a bad multiplier, a
    /// cycle, a second reference to one dimension of a node, or a chain longer than `maxChain`
    /// links.
    public mutating func setSizeReferences(_ list: [SizeReference], maxChain: Int = 16) throws(SizeReferenceError) {
        var byTarget: [Key: Int] = [:]
        for (index, reference) in list.enumerated() {
            for node in [reference.node, reference.source] where node.index < 0 || Int(node.index) >= nodeCount {
                throw SizeReferenceError(reason: .unknownNode, index: index)
            }
            guard reference.multiplier.isFinite, reference.multiplier >= 0 else {
                throw SizeReferenceError(reason: .invalidMultiplier, index: index)
            }
            guard byTarget.updateValue(index, forKey: Key(reference.node, reference.dimension)) == nil else {
                throw SizeReferenceError(reason: .duplicate, index: index)
            }
        }
        // Level of a reference: 0 when its source's dimension is not itself referenced, else
        // one more than the source's reference. Walked without recursion: chains can be long.
        var levels = [Int](repeating: -1, count: list.count)
        var onPath = [Bool](repeating: false, count: list.count)
        for start in list.indices where levels[start] < 0 {
            var path: [Int] = []
            var current = start
            while true {
                if levels[current] >= 0 { break }
                if onPath[current] { throw SizeReferenceError(reason: .cycle, index: current) }
                onPath[current] = true
                path.append(current)
                let reference = list[current]
                guard let next = byTarget[Key(reference.source, reference.dimension)] else { break }
                current = next
            }
            // Unwind: the walk stopped at a reference of known level (the path's last source)
            // or at the path's last reference, whose source no reference sizes.
            var level = levels[current] >= 0 ? levels[current] + 1 : 0
            for index in path.reversed() {
                levels[index] = level
                if level >= maxChain { throw SizeReferenceError(reason: .chainTooLong, index: index) }
                level += 1
            }
        }
        references = SizeReferences(list: list, levels: levels, passes: (levels.max() ?? -1) + 1)
    }

    /// Lays out `root` in the passes its size references need (see `setSizeReferences`); the
    /// styles keep their own values afterwards, so the tree hashes and lays out the same way
    /// again.
    mutating func computeLayoutResolvingReferences(root: NodeID, available: AvailableSize, direction: Direction) {
        let list = references.list
        let originals = list.map { dimensionValue($0.node, $0.dimension) }
        for level in 0..<references.passes {
            computeLayoutPass(root: root, available: available, direction: direction)
            for (index, reference) in list.enumerated() where references.levels[index] == level {
                let frame = frame(of: reference.source)
                let size = reference.dimension == .width ? frame.width : frame.height
                setDimension(reference.node, reference.dimension, .points(size * reference.multiplier))
            }
        }
        computeLayoutPass(root: root, available: available, direction: direction)
        for (index, reference) in list.enumerated() {
            setDimension(reference.node, reference.dimension, originals[index])
        }
    }

    private func dimensionValue(_ node: NodeID, _ dimension: SizeReference.Dimension) -> StyleValue {
        dimension == .width ? styles[Int(node.index)].width : styles[Int(node.index)].height
    }

    private mutating func setDimension(_ node: NodeID, _ dimension: SizeReference.Dimension, _ value: StyleValue) {
        guard dimensionValue(node, dimension) != value else { return }
        if dimension == .width { styles[Int(node.index)].width = value } else { styles[Int(node.index)].height = value }
        markDirty(node)
    }
}

/// A tree's size references with the pass after which each is read.
struct SizeReferences {
    var list: [SizeReference] = []
    /// Per reference, the layout pass (0-based) after which its source's frame is read.
    var levels: [Int] = []
    /// Layout passes before the final one.
    var passes = 0
}

private struct Key: Hashable {
    var node: Int32
    var dimension: UInt8
    init(_ node: NodeID, _ dimension: SizeReference.Dimension) {
        self.node = node.index
        self.dimension = dimension.rawValue
    }
}
