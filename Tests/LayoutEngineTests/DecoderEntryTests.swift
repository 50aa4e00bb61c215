@_spi(Decoding) import LayoutEngine
import Testing

/// The entry decoders add nodes through (`addNode(base:under:reportingGroups:)`): nodes added
/// there are the nodes `addNode(style:content:)` and `appendChild` make, as long as the decoder
/// reports every length group it set.
@Suite struct DecoderEntryTests {
    /// A row with a margin, a padding and a minimum, built both ways: same frames, same hash.
    @Test func nodesAddedByADecoderAreNodesAddedOneByOne() throws {
        var root = Style()
        root.flexDirection = .row
        root.width = .points(200)
        root.padding.all = .points(6)
        var child = Style()
        child.flexGrow = 1
        child.margin.left = .points(4)
        child.minHeight = .points(30)

        var byDecoder = LayoutTree()
        let rootA = byDecoder.addNode(base: Style(), reportingGroups: { style, _, groups in
            style = root
            groups.formUnion(.paddingOrBorder)
        })
        for _ in 0..<3 {
            _ = byDecoder.addNode(base: Style(), under: rootA, reportingGroups: { style, content, groups in
                style = child
                content = .fixed(Size(width: 20, height: 10))
                groups.formUnion([.margin, .minimum])
            })
        }

        var oneByOne = LayoutTree()
        let rootB = try oneByOne.addNode(style: root)
        for _ in 0..<3 {
            oneByOne.appendChild(try oneByOne.addNode(style: child, content: .fixed(Size(width: 20, height: 10))), to: rootB)
        }

        byDecoder.computeLayout(root: rootA)
        oneByOne.computeLayout(root: rootB)
        #expect(byDecoder.preorderFrames(root: rootA) == oneByOne.preorderFrames(root: rootB))
        #expect(byDecoder.structuralHash(root: rootA) == oneByOne.structuralHash(root: rootB))
        #expect(byDecoder.frame(of: NodeID(1)).left == 10)  // the padding and the margin count
    }

    #if DEBUG
    /// A decoder that sets a margin without reporting it would leave the node's summary flags
    /// without the margin (which layout and the hash then skip): a debug build stops there.
    @Test func aDecoderThatHidesALengthGroupStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var tree = LayoutTree()
            _ = tree.addNode(base: Style(), reportingGroups: { style, _, _ in style.margin.left = .points(4) })
        }
    }
    #endif
}
