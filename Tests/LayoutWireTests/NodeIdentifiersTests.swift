import Testing
@testable import LayoutWire

@Suite struct NodeIdentifiersTests {
    @Test func holdsStringsBytesAndNils() {
        var ids = NodeIdentifiers()
        ids.append("root")
        ids.append(nil)
        let bytes = Array("café ✓".utf8)
        bytes.withUnsafeBufferPointer { ids.append(utf8: $0) }
        ids.append(utf8: nil)
        ids.append("")
        #expect(Array(ids) == ["root", nil, "café ✓", nil, ""])
        #expect(ids.count == 5)
        // nil and "" stay apart, in both directions.
        #expect(ids != ["root", nil, "café ✓", "", ""])
        #expect(ids != ["root", nil, "café ✓", nil, nil])
        ids.withUTF8(at: 2) { #expect($0.map(Array.init) == bytes) }
        ids.withUTF8(at: 3) { #expect($0 == nil) }
        var seen: [[UInt8]?] = []
        ids.forEachUTF8 { seen.append($0.map(Array.init)) }
        #expect(seen == [Array("root".utf8), nil, bytes, nil, []])
    }

    /// `escapeFree` lets encoders copy ids without looking at them, so it must never be true
    /// with an id that needs an escape: strings are checked as they come, bytes only vouched
    /// for by a decoder that read them without escapes.
    @Test func knowsWhenNoIdNeedsAnEscape() throws {
        var ids: NodeIdentifiers = ["a", nil, "café"]
        #expect(ids.escapeFree)
        ids[1] = "say \"hi\""
        #expect(!ids.escapeFree)
        var tabbed: NodeIdentifiers = ["a"]
        tabbed.append("tab\there")
        #expect(!tabbed.escapeFree)
        var bytes = NodeIdentifiers()
        Array("plain".utf8).withUnsafeBufferPointer { bytes.append(utf8: $0) }
        #expect(!bytes.escapeFree, "bytes are unchecked until a decoder vouches for them")

        let quoted = #"{"root":{"id":"r","children":[{"id":"a"},{"id":"b\"q"}]}}"#
        #expect(try LayoutWire.decodeRequest(bytes: Array(quoted.utf8)).ids.escapeFree == false)
        let slashed = #"{"root":{"id":"r","children":[{"id":"a\\b"},{"id":"c"}]}}"#
        #expect(try LayoutWire.decodeRequest(bytes: Array(slashed.utf8)).ids.escapeFree == false)
        let clean = #"{"root":{"id":"r","children":[{"id":"a"},{"id":"✓"}]}}"#
        #expect(try LayoutWire.decodeRequest(bytes: Array(clean.utf8)).ids.escapeFree)
    }

    /// Ids that point into a decoder's input (the instances' ids): read back as ids of their
    /// own, equal to them, and unchanged when the input's array is changed or the ids edited.
    @Test func idsPointingIntoTheInputReadBackAsTheirOwn() {
        var input = Array(#"{"id":"card-1","x":"caf\u00e9"}"#.utf8)
        var ids = NodeIdentifiers(referencing: input)
        input.withUnsafeBufferPointer { all in
            ids.append(utf8: UnsafeBufferPointer(rebasing: all[7..<13]), in: all)  // card-1
            ids.append(utf8: nil, in: all)
            // Not in the input (an unescaped string): copied.
            Array("café".utf8).withUnsafeBufferPointer { ids.append(utf8: $0, in: all) }
            ids.append(utf8: UnsafeBufferPointer(rebasing: all[2..<4]), in: all)  // id
        }
        let own: NodeIdentifiers = ["card-1", nil, "café", "id"]
        #expect(ids == own)
        #expect(Array(ids) == ["card-1", nil, "café", "id"])
        // The array is shared, not borrowed: writing to the caller's copy changes no id.
        input[7] = UInt8(ascii: "X")
        #expect(ids == own)
        ids[0] = "renamed"
        #expect(Array(ids) == ["renamed", nil, "café", "id"])
        // Far from the input, ids are copied.
        var other = NodeIdentifiers(referencing: input)
        Array("elsewhere".utf8).withUnsafeBufferPointer { other.append(utf8: $0, in: UnsafeBufferPointer(start: nil, count: 0)) }
        #expect(Array(other) == ["elsewhere"])
    }

    @Test func replacedIdsReadBackAndLeaveTheOthers() {
        var ids: NodeIdentifiers = ["a", "b", nil, "d"]
        ids[1] = "a much longer id than before"
        ids[2] = "c"
        ids[3] = nil
        #expect(ids == ["a", "a much longer id than before", "c", nil])
        #expect(ids.firstIndex(of: "c") == 2)
    }

    /// Replacing ids many times (patches that rename nodes) keeps the byte run bounded: old
    /// bytes are dropped once they are most of it, and every id still reads back.
    @Test func manyReplacementsStayCompact() {
        var ids = NodeIdentifiers((0..<100).map { "node-\($0)" })
        var expected: [String?] = (0..<100).map { "node-\($0)" }
        for round in 0..<200 {
            let index = (round * 37) % 100
            let id: String? = round % 9 == 0 ? nil : "renamed-\(round)-" + String(repeating: "x", count: round % 50)
            ids[index] = id
            expected[index] = id
        }
        #expect(Array(ids) == expected)
        let live = expected.reduce(0) { $0 + ($1?.utf8.count ?? 0) }
        // The run may hold at most twice the live bytes (plus the 4 KiB left alone), and its
        // charge says what it holds.
        #expect(ids.heapBytes < 2 * live + 4096 + 100 * 8 + 256)
        #expect(ids.heapBytes > live)
    }

    /// Setting an id to what it is (a patch editing a node's style sets its id again) leaves
    /// the byte run as it is.
    @Test func settingAnIdUnchangedKeepsTheRun() {
        var ids: NodeIdentifiers = ["node-0", nil, "node-2"]
        let before = ids.heapBytes
        for _ in 0..<10_000 {
            ids[0] = "node-0"
            ids[1] = nil
        }
        #expect(ids.heapBytes == before)
        #expect(ids == ["node-0", nil, "node-2"])
        ids[1] = "node-1"
        #expect(ids == ["node-0", "node-1", "node-2"])
    }
}
