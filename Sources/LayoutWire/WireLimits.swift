import LayoutEngine

/// Bounds on what one request may cost to parse and decode. Every limit answers 413 when
/// exceeded, so a hostile document is refused before it can exhaust memory or stack.
public struct WireLimits: Hashable, Sendable {
    /// Most nodes in one layout tree.
    public var maxNodes: Int
    /// Deepest nesting of nodes (the root is depth 1).
    public var maxDepth: Int
    /// Deepest nesting of JSON arrays and objects the parser accepts. A node costs two levels
    /// (its object and its `children` array), so the default leaves room for `maxDepth` nodes.
    public var maxNesting: Int
    /// Longest string (after unescaping), in UTF-8 bytes.
    public var maxStringBytes: Int
    /// Largest document, in bytes.
    public var maxDocumentBytes: Int
    /// Longest chain of sizes taken from other nodes (`{"of": id}`: a node sized from one
    /// sized from another ...); each link costs one more layout pass. 413
    /// `reference-chain-too-long` beyond it.
    public var maxSizeReferenceChain = 16
    /// Bounds on the solver of each constraint node (`constraints`, `fixflex`,
    /// `flexible-spaces`); a node over them is refused with 413 `too-many-constraints`.
    public var constraintSolver = SolverLimits(maxVariables: 40_000, maxConstraints: 100_000,
                                               maxPivotsPerOperation: 100_000, maxConflictSearch: 256)

    public init(maxNodes: Int = 100_000, maxDepth: Int = 1_000, maxNesting: Int? = nil,
                maxStringBytes: Int = 1 << 20, maxDocumentBytes: Int = 64 << 20) {
        self.maxNodes = maxNodes
        self.maxDepth = maxDepth
        self.maxNesting = maxNesting ?? (2 * maxDepth + 16)
        self.maxStringBytes = maxStringBytes
        self.maxDocumentBytes = maxDocumentBytes
    }

    /// 100,000 nodes, 1,000 levels of nodes, 2,016 levels of JSON, 1 MiB strings, 64 MiB documents.
    public static let `default` = WireLimits()
}
