import LayoutWire
import Testing

/// JSON Patch (RFC 6902) on `JSONTree`: every operation, pointer escaping, errors with the
/// failing operation's pointer, and the limits on what a patch may add.
@Suite struct JSONPatchTests {
    static func tree(_ json: String) throws -> JSONTree { JSONTree(try JSONValue.parse(json)) }

    static func patch(_ json: String, maxOperations: Int = 100) throws(WireError) -> JSONPatch {
        try JSONPatch(JSONValue.parse(json), maxOperations: maxOperations)
    }

    /// `document` with `patch` applied, as compact JSON.
    static func applied(_ document: String, _ patch: String, maxValues: Int = 10_000, maxNesting: Int = 100) throws -> String {
        var tree = try tree(document)
        var count = tree.measure(budget: .max)!.count
        try Self.patch(patch).apply(to: &tree, valueCount: &count, maxValues: maxValues, maxNesting: maxNesting)
        return String(decoding: tree.jsonBytes(), as: UTF8.self)
    }

    static func failure(_ document: String, _ patch: String, maxValues: Int = 10_000) throws -> WireError? {
        do {
            _ = try applied(document, patch, maxValues: maxValues)
            return nil
        } catch let error as WireError {
            return error
        }
    }

    @Test func everyOperationAppliesAsRFC6902Says() throws {
        // RFC 6902 appendix A.1, A.2, A.3, A.4, A.6, A.7, A.8, A.10, A.16.
        #expect(try Self.applied(#"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux"}]"#) == #"{"foo":"bar","baz":"qux"}"#)
        #expect(try Self.applied(#"{"foo":["bar","baz"]}"#, #"[{"op":"add","path":"/foo/1","value":"qux"}]"#)
                == #"{"foo":["bar","qux","baz"]}"#)
        #expect(try Self.applied(#"{"baz":"qux","foo":"bar"}"#, #"[{"op":"remove","path":"/baz"}]"#) == #"{"foo":"bar"}"#)
        #expect(try Self.applied(#"{"foo":["bar","qux","baz"]}"#, #"[{"op":"remove","path":"/foo/1"}]"#) == #"{"foo":["bar","baz"]}"#)
        #expect(try Self.applied(#"{"baz":"qux","foo":"bar"}"#, #"[{"op":"replace","path":"/baz","value":"boo"}]"#)
                == #"{"baz":"boo","foo":"bar"}"#)
        #expect(try Self.applied(#"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
                                 #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#)
                == #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#)
        #expect(try Self.applied(#"{"foo":["all","grass","cows","eat"]}"#, #"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#)
                == #"{"foo":["all","cows","eat","grass"]}"#)
        #expect(try Self.applied(#"{"baz":"qux","foo":["a",2,"c"]}"#,
                                 #"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#)
                == #"{"baz":"qux","foo":["a",2,"c"]}"#)
        #expect(try Self.applied(#"{"foo":"bar"}"#, #"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#)
                == #"{"foo":"bar","child":{"grandchild":{}}}"#)
        #expect(try Self.applied(#"{"foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#)
                == #"{"foo":["bar",["abc","def"]]}"#)
        // Copy, and add/replace of the whole document.
        #expect(try Self.applied(#"{"a":{"b":1}}"#, #"[{"op":"copy","from":"/a","path":"/c"},{"op":"replace","path":"/c/b","value":2}]"#)
                == #"{"a":{"b":1},"c":{"b":2}}"#)
        #expect(try Self.applied(#"{"a":1}"#, #"[{"op":"replace","path":"","value":[1]}]"#) == "[1]")
        #expect(try Self.applied(#"{"a":1}"#, #"[{"op":"add","path":"","value":{"b":2}}]"#) == #"{"b":2}"#)
        // Moving a value to where it is changes nothing.
        #expect(try Self.applied(#"{"a":[1,2]}"#, #"[{"op":"move","from":"/a/0","path":"/a/0"}]"#) == #"{"a":[1,2]}"#)
    }

    /// Member names match by their code points, as JSON compares them: a precomposed "é" is
    /// not the "e" + combining accent that Swift's `==` takes for equal.
    @Test func pointersMatchMemberNamesByCodePoints() throws {
        let decomposed = #"{"cafe\#u{301}":1}"#
        #expect(try Self.applied(decomposed, #"[{"op":"replace","path":"/cafe\#u{301}","value":2}]"#) == #"{"cafe\#u{301}":2}"#)
        #expect(try Self.failure(decomposed, #"[{"op":"replace","path":"/caf\#u{E9}","value":2}]"#)?.pointer == "/0")
        #expect(try Self.failure(decomposed, #"[{"op":"test","path":"/caf\#u{E9}","value":1}]"#) != nil)
        #expect(try Self.failure(#"{"a":"cafe\#u{301}"}"#, #"[{"op":"test","path":"/a","value":"caf\#u{E9}"}]"#)?.pointer == "/0")
    }

    @Test func pointersUnescapeTildeZeroAndTildeOne() throws {
        // RFC 6902 A.14: "~01" is "~1", not "/".
        #expect(try Self.applied(#"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":10},{"op":"replace","path":"/~1","value":8}]"#)
                == #"{"/":8,"~1":10}"#)
        #expect(JSONPointer.tokens(of: "/a~0b/c~1d/") == ["a~b", "c/d", ""])
        #expect(JSONPointer.tokens(of: "") == [])
        #expect(JSONPointer.tokens(of: "a") == nil)
        #expect(JSONPointer.tokens(of: "/a~2") == nil)
        #expect(JSONPointer.tokens(of: "/a~") == nil)
        #expect(JSONPointer.tokens(of: "/") == [""])
        #expect(JSONPointer.tokens(of: "//x") == ["", "x"])
        #expect(JSONPointer.tokens(of: "/caf\u{E9}/\u{1F600}") == ["caf\u{E9}", "\u{1F600}"])
        #expect(JSONPointer.arrayIndex("0") == 0)
        #expect(JSONPointer.arrayIndex("12") == 12)
        #expect(JSONPointer.arrayIndex("01") == nil)
        #expect(JSONPointer.arrayIndex("-") == nil)
        #expect(JSONPointer.arrayIndex("1e2") == nil)
    }

    @Test func testComparesJSONValuesNotSpellings() throws {
        // Numbers by value, objects in any order (RFC 6902 section 4.6).
        let document = #"{"n":1.0,"o":{"a":1,"b":[true,null]}}"#
        #expect(try Self.failure(document, #"[{"op":"test","path":"/n","value":1e0},{"op":"test","path":"/o","value":{"b":[true,null],"a":1}}]"#) == nil)
        let failed = try Self.failure(document, #"[{"op":"test","path":"/n","value":1},{"op":"test","path":"/o/b","value":[true,false]}]"#)
        #expect(failed?.code == "test-failed")
        #expect(failed?.pointer == "/1")
        #expect(try Self.failure(document, #"[{"op":"test","path":"/n","value":"1"}]"#)?.code == "test-failed")
    }

    @Test func anOperationThatDoesNotApplyIsNamedByItsPosition() throws {
        let document = #"{"a":{"b":[1,2]}}"#
        let cases: [(String, String)] = [
            (#"[{"op":"test","path":"/a/b/0","value":1},{"op":"remove","path":"/a/x"}]"#, "/1"),
            (#"[{"op":"replace","path":"/missing","value":1}]"#, "/0"),
            (#"[{"op":"add","path":"/a/b/3","value":1}]"#, "/0"),
            (#"[{"op":"add","path":"/a/b/01","value":1}]"#, "/0"),
            (#"[{"op":"add","path":"/x/y","value":1}]"#, "/0"),
            (#"[{"op":"remove","path":"/a/b/-"}]"#, "/0"),
            (#"[{"op":"remove","path":""}]"#, "/0"),
            (#"[{"op":"move","from":"/a","path":"/a/c"}]"#, "/0"),
            (#"[{"op":"copy","from":"/nothing","path":"/c"}]"#, "/0"),
            (#"[{"op":"add","path":"/a/b/0/x","value":1}]"#, "/0"),
            (#"[{"op":"add","path":"/c","value":1},{"op":"add","path":"/d","value":1},{"op":"remove","path":"/a/b/2"}]"#, "/2"),
        ]
        for (patch, pointer) in cases {
            let error = try Self.failure(document, patch)
            #expect(error?.code == "patch-failed", "\(patch)")
            #expect(error?.pointer == pointer, "\(patch)")
            #expect(error?.kind == .invalid, "\(patch)")
        }
    }

    @Test func malformedOperationsPointAtTheirMember() throws {
        let cases: [(String, String, String)] = [
            (#"{"op":"add"}"#, "/patch", "wrong-type"),
            (#"[1]"#, "/0", "wrong-type"),
            (#"[{"path":"/a"}]"#, "/0", "missing-key"),
            (#"[{"op":"frobnicate","path":"/a"}]"#, "/0/op", "unknown-value"),
            (#"[{"op":"add","path":"a","value":1}]"#, "/0/path", "invalid-pointer"),
            (#"[{"op":"add","path":5,"value":1}]"#, "/0/path", "wrong-type"),
            (#"[{"op":"remove","path":"/a"},{"op":"add","path":"/a"}]"#, "/1", "missing-key"),
            (#"[{"op":"copy","path":"/a"}]"#, "/0", "missing-key"),
            // A "from" an add does not use is still held to its type (schemathesis, 2026-11-26).
            (#"[{"op":"add","path":"","from":{},"value":null}]"#, "/0/from", "wrong-type"),
        ]
        for (patch, pointer, code) in cases {
            do {
                _ = try JSONPatch(JSONValue.parse(patch), maxOperations: 10)
                Issue.record("\(patch) decoded")
            } catch {
                #expect(error.code == code, "\(patch)")
                #expect(error.pointer == (pointer == "/patch" ? "" : pointer), "\(patch)")
            }
        }
        // Unknown members of an operation are ignored (RFC 6902 section 4).
        #expect(try Self.applied(#"{"a":1}"#, #"[{"op":"remove","path":"/a","comment":"x"}]"#) == "{}")
    }

    @Test func patchesAreBoundedInOperationsValuesAndDepth() throws {
        do {
            _ = try Self.patch(#"[{"op":"test","path":"","value":1},{"op":"test","path":"","value":1}]"#, maxOperations: 1)
            Issue.record("two operations decoded under a limit of one")
        } catch {
            #expect(error.code == "too-many-operations")
            #expect(error.kind == .overLimit)
        }
        // Copying a value into itself doubles it: the budget of values stops it. The document
        // starts with 3 values and /a with 2; operation n adds 2^(n+1), so after operation n
        // there are 2^(n+2) + 1: past 1,000 at n = 8.
        let doubling = "[" + (0..<40).map { _ in #"{"op":"copy","from":"/a","path":"/a/-"}"# }.joined(separator: ",") + "]"
        let error = try Self.failure(#"{"a":[1]}"#, doubling, maxValues: 1_000)
        #expect(error?.code == "patched-document-too-large")
        #expect(error?.kind == .overLimit)
        #expect(error?.pointer == "/8")
        // Nesting deeper than the limit.
        let deep = #"{"op":"add","path":"/a","value":[[[[[[[[[[1]]]]]]]]]]}"#
        do {
            _ = try Self.applied(#"{"a":1}"#, "[\(deep)]", maxNesting: 5)
            Issue.record("a value nesting past the limit was added")
        } catch let failure as WireError {
            #expect(failure.code == "patched-document-too-large")
        }
    }

    @Test func aCopiedDocumentIsNotChangedByPatchingTheCopy() throws {
        let original = try Self.tree(#"{"root":{"children":[{"style":{"width":1}},{"style":{"width":2}}]}}"#)
        var copy = original
        var count = 0
        try Self.patch(#"[{"op":"replace","path":"/root/children/1/style/width","value":5}]"#)
            .apply(to: &copy, valueCount: &count, maxValues: 100, maxNesting: 100)
        #expect(original.text == #"{"root":{"children":[{"style":{"width":1}},{"style":{"width":2}}]}}"#)
        #expect(copy.value(at: ["root", "children", "1", "style", "width"]) == .number(5))
    }

    @Test func patchesReachTheDepthsOfDeepDocuments() throws {
        // As deep as the parser allows by default: walked without recursion.
        let depth = WireLimits.default.maxNesting - 2
        let document = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        let path = String(repeating: "/a", count: depth)
        var tree = try Self.tree(document)
        var count = 0
        try Self.patch(#"[{"op":"replace","path":"\#(path)","value":2},{"op":"test","path":"\#(path)","value":2}]"#)
            .apply(to: &tree, valueCount: &count, maxValues: 10, maxNesting: depth + 1)
        #expect(tree.value(at: Array(repeating: "a", count: depth)) == .number(2))
    }

    @Test func anOperationThatFailsLeavesTheDocumentWhole() throws {
        let text = #"{"a":{"b":[1,{"c":2}]}}"#
        for patch in [#"[{"op":"replace","path":"/a/b/1/x/y","value":1}]"#, #"[{"op":"add","path":"/a/b/9","value":1}]"#,
                      #"[{"op":"remove","path":"/a/b/1/d"}]"#] {
            var tree = try Self.tree(text)
            var count = 0
            #expect(throws: WireError.self) {
                try Self.patch(patch).apply(to: &tree, valueCount: &count, maxValues: 100, maxNesting: 100)
            }
            #expect(tree.text == text, "\(patch)")
        }
    }

    /// A tree is written out as the compact document it was read from, in member order:
    /// containers of each kind nested in each other, empty ones, and a scalar alone.
    @Test(arguments: [
        #"{"a":[1,2.5,-3,true,false,null],"b":"x\"y","c":{"d":[],"e":{}},"f":[[],[{}],[[1],{"g":[2]}]]}"#,
        #"[{"a":1},{"b":[{"c":{}}]},[],"z"]"#,
        "[]", "{}", #""text""#, "12", "null",
    ])
    func treesAreWrittenAsTheyWereRead(text: String) throws {
        #expect(try Self.tree(text).text == text)
    }

    @Test func numbersBeyondADoubleSurviveARoundTrip() throws {
        let tree = try Self.tree(#"{"a":1e400,"b":-1e400,"c":0.1,"d":"\u00e9\n"}"#)
        let again = JSONTree(try JSONValue.parse(bytes: tree.jsonBytes()))
        #expect(again == tree)
        #expect(String(decoding: tree.jsonBytes(), as: UTF8.self) == #"{"a":1e400,"b":-1e400,"c":0.1,"d":"é\n"}"#)
    }
}

extension JSONTree {
    var text: String { String(decoding: jsonBytes(), as: UTF8.self) }
}
