@testable import LayoutEngine
import Testing

@Suite struct StructuralHashTests {
    /// A root row with two children, the second holding text.
    private func sampleTree(childWidth: Float = 40, text: String = "hello world") throws -> (LayoutTree, NodeID) {
        var tree = LayoutTree()
        var rootStyle = Style()
        rootStyle.flexDirection = .row
        rootStyle.width = .points(200)
        rootStyle.padding.all = .points(8)
        let root = try tree.addNode(style: rootStyle)
        var childStyle = Style()
        childStyle.width = .points(childWidth)
        childStyle.margin.start = .percent(5)
        let a = try tree.addNode(style: childStyle)
        let b = try tree.addNode(content: .intrinsicText(text))
        tree.appendChild(a, to: root)
        tree.appendChild(b, to: root)
        return (tree, root)
    }

    @Test func equalInputsHashEqual() throws {
        let (t1, r1) = try sampleTree()
        let (t2, r2) = try sampleTree()
        #expect(t1.structuralHash(root: r1) == t2.structuralHash(root: r2))
    }

    @Test func nodeNumberingDoesNotMatter() throws {
        // Same shape, nodes created in another order (so other NodeIDs).
        var tree = LayoutTree()
        let b = try tree.addNode(content: .intrinsicText("hello world"))
        var childStyle = Style()
        childStyle.width = .points(40)
        childStyle.margin.start = .percent(5)
        let a = try tree.addNode(style: childStyle)
        var rootStyle = Style()
        rootStyle.flexDirection = .row
        rootStyle.width = .points(200)
        rootStyle.padding.all = .points(8)
        let root = try tree.addNode(style: rootStyle)
        tree.appendChild(a, to: root)
        tree.appendChild(b, to: root)
        let (reference, referenceRoot) = try sampleTree()
        #expect(tree.structuralHash(root: root) == reference.structuralHash(root: referenceRoot))
    }

    @Test func everyInputChangesTheHash() throws {
        let (tree, root) = try sampleTree()
        let base = tree.structuralHash(root: root)
        let (wider, widerRoot) = try sampleTree(childWidth: 41)
        #expect(wider.structuralHash(root: widerRoot) != base)
        let (otherText, otherTextRoot) = try sampleTree(text: "hello worle")
        #expect(otherText.structuralHash(root: otherTextRoot) != base)
        #expect(tree.structuralHash(root: root, available: AvailableSize(width: 100)) != base)
        #expect(tree.structuralHash(root: root, direction: .rtl) != base)
        var scaled = tree
        scaled.config.pointScaleFactor = 2
        #expect(scaled.structuralHash(root: root) != base)
        // Child order is structure.
        var swapped = LayoutTree()
        var rootStyle = tree.style(of: root)
        rootStyle.flexDirection = .row
        let newRoot = try swapped.addNode(style: rootStyle)
        let kids = Array(tree.children(of: root))
        for kid in kids.reversed() {
            let copy = try swapped.addNode(style: tree.style(of: kid), content: tree.content(of: kid))
            swapped.appendChild(copy, to: newRoot)
        }
        #expect(swapped.structuralHash(root: newRoot) != base)
    }

    @Test func negativeZeroEqualsZero() throws {
        var t1 = LayoutTree()
        var s1 = Style()
        s1.margin.left = .points(0)
        let r1 = try t1.addNode(style: s1)
        var t2 = LayoutTree()
        var s2 = Style()
        s2.margin.left = .points(-0.0)
        let r2 = try t2.addNode(style: s2)
        #expect(t1.structuralHash(root: r1) == t2.structuralHash(root: r2))
    }

    /// A fixed key and a fixed tree give a fixed hash in every process (what replicas sharing a
    /// cache rely on). If the walk changes on purpose, bump the format version in
    /// `structuralHash` and update this value.
    @Test func fixedKeyGivesAFixedHash() throws {
        let (tree, root) = try sampleTree()
        #expect(tree.structuralHash(root: root, key: Self.referenceKey).hexString == Self.goldenSampleHash)
    }
    // Format 4 (chunks cut by their nodes' words) under SipHash-2-4-128 with the reference key
    // 000102…0f (format 3, chunks of 32 nodes: "c2d3815fe783f46aa6c5010177cab04c"; format 2, one
    // stream: "85af0f539cd9999674a67ffb5c8698d6"; the unkeyed MurmurHash3-style function gave
    // "3c63e3289e7fc673d0c4601747f99cc0").
    static let goldenSampleHash = "efb2f8aa2b904da18c264771491df77d"
    /// SipHash's reference key: bytes 00 01 … 0f.
    static let referenceKey = StructuralHashKey(hex: "000102030405060708090a0b0c0d0e0f")!

    /// The hasher is SipHash-2-4-128: a stream of words hashes like the reference
    /// implementation on the same bytes (`vectors_sip128` of veorq/SipHash for the messages
    /// 00 01 02 … of 0, 8, 16 and 24 bytes, the lengths a word stream can have).
    @Test(arguments: [
        (0, "a3817f04ba25a8e66df67214c7550293"),
        (8, "3b62a9ba6258f5610f83e264f31497b4"),
        (16, "6ee2a4ca67b054bbfd3315bf85230577"),
        (24, "2db479ae78bd50d8882a8a178a6132ad"),
    ])
    func matchesTheSipHashReferenceVectors(length: Int, tag: String) {
        var hasher = StructuralHasher(key: Self.referenceKey)
        for start in stride(from: 0, to: length, by: 8) {
            var word: UInt64 = 0
            for k in 0..<8 { word |= UInt64(start + k) << UInt64(8 * k) }
            hasher.combine(word)
        }
        let hash = hasher.finalize()
        // The reference prints the two output words as little-endian bytes.
        var bytes = ""
        for word in [hash.high, hash.low] {
            for k in 0..<8 {
                let byte = UInt8(truncatingIfNeeded: word >> UInt64(8 * k))
                bytes += String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
            }
        }
        #expect(bytes == tag)
    }

    @Test func theKeyChangesEveryHash() throws {
        let (tree, root) = try sampleTree()
        let other = StructuralHashKey(k0: Self.referenceKey.k0, k1: Self.referenceKey.k1 ^ 1)
        let a = tree.structuralHash(root: root, key: Self.referenceKey)
        let b = tree.structuralHash(root: root, key: other)
        #expect(a != b)
        #expect(a.high != b.high && a.low != b.low)
        // The default key is drawn once per process: hashes agree within it, and it is not
        // the all-zero key.
        #expect(tree.structuralHash(root: root) == tree.structuralHash(root: root, key: .processRandom))
        #expect(StructuralHashKey.processRandom != StructuralHashKey(k0: 0, k1: 0))
        #expect(StructuralHashKey.random() != StructuralHashKey.random())
    }

    @Test func keysReadAndSpellAsHex() {
        #expect(Self.referenceKey == StructuralHashKey(k0: 0x0706_0504_0302_0100, k1: 0x0F0E_0D0C_0B0A_0908))
        #expect(Self.referenceKey.hexString == "000102030405060708090a0b0c0d0e0f")
        #expect(StructuralHashKey(hex: "000102030405060708090A0B0C0D0E0F") == Self.referenceKey)
        for bad in ["", "00", "000102030405060708090a0b0c0d0e0", "000102030405060708090a0b0c0d0e0f00",
                    "000102030405060708090a0b0c0d0e0g", "+00102030405060708090a0b0c0d0e0f"] {
            #expect(StructuralHashKey(hex: bad) == nil, "\(bad)")
        }
        let key = StructuralHashKey.random()
        #expect(StructuralHashKey(hex: key.hexString) == key)
    }

    /// Format 2 leaves default fields out of the stream behind a mask: a field set to a value
    /// that happens to be another field's, or an edge of one group instead of another, or a
    /// set field equal to 0, must still hash apart.
    @Test func maskedFieldsStayDistinct() throws {
        func hash(_ change: (inout Style) -> Void) throws -> StructuralHash {
            var tree = LayoutTree()
            var style = Style()
            change(&style)
            let root = try tree.addNode(style: style)
            return tree.structuralHash(root: root)
        }
        let variants: [StructuralHash] = [
            try hash { _ in },
            try hash { $0.margin.left = .points(0) },
            try hash { $0.margin.top = .points(0) },
            try hash { $0.padding.left = .points(0) },
            try hash { $0.border.all = .points(0) },
            try hash { $0.position.left = .points(0) },
            try hash { $0.flexGrow = 0 },
            try hash { $0.flexShrink = 0 },
            try hash { $0.width = .points(0) },
            try hash { $0.width = .undefined },
            try hash { $0.minWidth = .points(0) },
            try hash { $0.gap = .points(0) },
            try hash { $0.margin.left = .points(1); $0.margin.top = .points(2) },
            try hash { $0.margin.left = .points(2); $0.margin.top = .points(1) },
        ]
        #expect(Set(variants).count == variants.count)
        #expect(try hash { $0.width = .auto } == variants[0]) // the default, written out
    }

    /// The hash skips edge groups whose `StyleFlags` say "all undefined": an edge with the
    /// undefined unit but another value is still streamed (the format hashes its word), in
    /// every group, whether the style came in through `addNode` or `setStyle`.
    @Test func undefinedEdgesWithValuesStillHash() throws {
        var odd = StyleValue.undefined
        odd.value = 5  // the initializer would normalise it to 0; the public field does not
        func hash(_ change: (inout Style) -> Void, viaSetStyle: Bool = false) throws -> StructuralHash {
            var tree = LayoutTree()
            var style = Style()
            change(&style)
            let root = try tree.addNode(style: viaSetStyle ? Style() : style)
            if viaSetStyle { try tree.setStyle(style, for: root) }
            return tree.structuralHash(root: root)
        }
        let plain = try hash { _ in }
        let variants: [StructuralHash] = [
            plain,
            try hash { $0.margin.left = odd },
            try hash { $0.position.top = odd },
            try hash { $0.padding.right = odd },
            try hash { $0.border.all = odd },
        ]
        #expect(Set(variants).count == variants.count)
        #expect(try hash({ $0.margin.left = odd }, viaSetStyle: true) == variants[1])
        #expect(try hash({ $0.margin.left = .undefined }) == plain)
    }

    @Test func deepTreesHashWithoutRecursion() throws {
        var tree = LayoutTree()
        let root = try tree.addNode()
        var parent = root
        for _ in 0..<100_000 {
            let child = try tree.addNode()
            tree.appendChild(child, to: parent)
            parent = child
        }
        let hash = tree.structuralHash(root: root)
        #expect(hash.hexString.count == 32)
        #expect(hash != tree.structuralHash(root: parent))
    }
}
