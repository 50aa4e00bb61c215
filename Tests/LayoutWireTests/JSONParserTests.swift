import Testing
@testable import LayoutWire

@Suite struct JSONParserTests {
    private func parseError(_ text: String, limits: WireLimits = .default) -> WireError? {
        do { _ = try JSONValue.parse(text, limits: limits); return nil } catch { return error }
    }
    private func parseError(bytes: [UInt8], limits: WireLimits = .default) -> WireError? {
        do { _ = try JSONValue.parse(bytes: bytes, limits: limits); return nil } catch { return error }
    }

    @Test func scalarsAndContainers() throws {
        let value = try JSONValue.parse(#" {"a": [1, -2.5, true, false, null, "x"], "b": {}, "c": []} "#)
        #expect(value.kind == .object)
        #expect(value.members.map(\.key) == ["a", "b", "c"])
        let a = try #require(value["a"])
        #expect(a.count == 6)
        #expect(a[0]?.doubleValue == 1)
        #expect(a[1]?.doubleValue == -2.5)
        #expect(a[2]?.boolValue == true)
        #expect(a[3]?.boolValue == false)
        #expect(a[4]?.isNull == true)
        #expect(a[5]?.stringValue == "x")
        #expect(a[6] == nil)
        #expect(value["b"]?.kind == .object && value["b"]?.count == 0)
        #expect(value["c"]?.kind == .array && value["c"]?.count == 0)
        #expect(value["missing"] == nil)
    }

    @Test func memberOrderIsKept() throws {
        let value = try JSONValue.parse(#"{"z":1,"a":2,"m":{"y":3,"b":4}}"#)
        #expect(value.members.map(\.key) == ["z", "a", "m"])
        #expect(value["m"]?.members.map(\.key) == ["y", "b"])
        #expect(value.description == #"{"z":1,"a":2,"m":{"y":3,"b":4}}"#)
    }

    @Test func numbers() throws {
        let value = try JSONValue.parse("[0, -0, 1e2, 1E-2, 2.5e+3, 123456789012345678901234, 0.1, 1e400, -1e400, 1e-400, 3.4028235e38, 9007199254740993]")
        let n = value.elements.map { $0.doubleValue! }
        #expect(n[0] == 0 && n[0].sign == .plus)
        #expect(n[1] == 0 && n[1].sign == .minus)
        #expect(n[2] == 100)
        #expect(n[3] == 0.01)
        #expect(n[4] == 2500)
        #expect(n[5] == 123456789012345678901234.0)
        #expect(n[6] == 0.1)
        #expect(n[7] == .infinity)
        #expect(n[8] == -.infinity)
        #expect(n[9] == 0)
        #expect(n[10] == 3.4028235e38)
        #expect(n[11] == 9007199254740992)  // nearest Double, ties to even
    }

    /// Spellings near the whole-number fast path (up to nine digits, no sign) read as the
    /// standard library reads them, and end where the number ends.
    @Test(arguments: ["0", "7", "24", "999999999", "1000000000", "123456789012", "0.5", "24.0", "24.25",
                      "1e2", "1E2", "2e-1", "-3", "-0", "0e0"])
    func numbersReadAsTheStandardLibraryReadsThem(text: String) throws {
        let bytes = Array((text + ",").utf8)
        let (value, end) = try #require(bytes.withUnsafeBufferPointer { JSONNumber.parse($0, from: 0) }, "\(text)")
        #expect(value == Double(text)! && value.sign == Double(text)!.sign, "\(text)")
        #expect(end == text.utf8.count, "\(text)")
        // At the very end of the input too.
        let bare = Array(text.utf8)
        #expect(bare.withUnsafeBufferPointer { JSONNumber.parse($0, from: 0) }.map { $0.0 } == Double(text)!, "\(text)")
    }

    @Test func malformedNumbersAreSyntaxErrors() {
        for text in ["01", "1.", ".5", "-", "1e", "1e+", "+1", "NaN", "Infinity", "-Infinity", "0x10", "1.5.2"] {
            let error = parseError("[\(text)]")
            #expect(error?.kind == .malformed, "\(text)")
            #expect(error?.code == "invalid-json", "\(text)")
            #expect(error?.offset != nil, "\(text)")
        }
    }

    @Test func syntaxErrorsCarryTheByteOffset() {
        #expect(parseError(#"{"a": 1,}"#)?.offset == 8)
        #expect(parseError(#"{"a" 1}"#)?.offset == 5)
        #expect(parseError("[1 2]")?.offset == 3)
        #expect(parseError("[1, 2")?.offset == 5)
        #expect(parseError("")?.offset == 0)
        #expect(parseError("  ")?.offset == 2)
        #expect(parseError("[tru]")?.offset == 4)
        #expect(parseError("{} x")?.offset == 3)
        #expect(parseError("{'a': 1}")?.offset == 1)
        #expect(parseError("[\"a\u{01}\"]")?.offset == 3)
        #expect(parseError(#"["\x"]"#)?.offset == 2)
        for error in [parseError("[1 2]"), parseError("{}}")] {
            #expect(error?.kind == .malformed)
            #expect(error?.pointer == nil)
        }
    }

    @Test func escapesAndSurrogatePairs() throws {
        let value = try JSONValue.parse(#"["\"\\\/\b\f\n\r\t", "\u0041\u00e9\u20AC", "\ud83d\ude00", "\uD834\uDD1E x"]"#)
        #expect(value[0]?.stringValue == "\"\\/\u{08}\u{0C}\n\r\t")
        #expect(value[1]?.stringValue == "Aé€")
        #expect(value[2]?.stringValue == "😀")
        #expect(value[3]?.stringValue == "𝄞 x")
        for bad in [#"["\ud83d"]"#, #"["\ude00"]"#, #"["\ud83d\u0041"]"#, #"["\ud83dx"]"#, #"["\u12G4"]"#, #"["\u12"]"#] {
            #expect(parseError(bad)?.kind == .malformed, "\(bad)")
        }
    }

    @Test func rawUTF8IsValidated() throws {
        let good: [UInt8] = [0x22] + Array("héllo €😀".utf8) + [0x22]
        #expect(try JSONValue.parse(bytes: good).stringValue == "héllo €😀")
        let bad: [[UInt8]] = [
            [0x22, 0xFF, 0x22],              // never valid
            [0x22, 0xC0, 0xAF, 0x22],        // overlong '/'
            [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-16 surrogate
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xC3, 0x22],              // truncated
            [0x22, 0x80, 0x22],              // stray continuation
        ]
        for bytes in bad {
            let error = parseError(bytes: bytes)
            #expect(error?.kind == .malformed)
            #expect(error?.code == "invalid-utf8")
            #expect(error?.offset == 1)
        }
        // Outside strings any non-ASCII byte is a syntax error.
        #expect(parseError(bytes: [0x5B, 0xC3, 0xA9, 0x5D])?.kind == .malformed)
    }

    @Test func duplicateKeysAreRefusedWithThePointer() {
        let error = parseError(#"{"root": {"style": {"width": 1, "height": 2, "width": 3}}}"#)
        #expect(error?.kind == .invalid)
        #expect(error?.code == "duplicate-key")
        #expect(error?.pointer == "/root/style/width")
        // In arrays, and with keys that need escaping.
        #expect(parseError(#"[0, {"a/b": 1, "x": 2, "a/b": 3}]"#)?.pointer == "/1/a~1b")
        // Large objects go through the hash path.
        let many = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        #expect(parseError("{\(many), \"k7\": 0}")?.pointer == "/k7")
        #expect(parseError("{\(many)}") == nil)
        // Same text after unescaping is the same key.
        #expect(parseError(#"{"a": 1, "\u0061": 2}"#)?.code == "duplicate-key")
    }

    /// Names are compared only in objects whose names collide in the parser's key bits: every
    /// repeat is still found, at every object size, and distinct names sharing a bit pass.
    @Test func repeatedKeysAreFoundAtEveryObjectSize() {
        for size in 1...70 {
            let names = (0..<size).map { "m\($0 * 919 % 1000)x" }  // distinct: 919 is prime to 1000
            let members = names.enumerated().map { "\"\($0.element)\": \($0.offset)" }.joined(separator: ",")
            #expect(parseError("{\(members)}") == nil)
            let repeated = names[(size * 31 + 5) % size]
            #expect(parseError("{\(members), \"\(repeated)\": 0}")?.pointer == "/\(repeated)")
        }
    }

    @Test func deepNestingIsAClean413() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = parseError(deep)
        #expect(error?.kind == .overLimit)
        #expect(error?.code == "too-deep")
        #expect(error?.offset == WireLimits.default.maxNesting)
        // Unclosed: still the nesting limit first.
        #expect(parseError(String(repeating: "{\"a\":", count: 100_000))?.kind == .overLimit)
        // Within the limit it parses.
        let ok = String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000)
        #expect(parseError(ok) == nil)
        // The limit is configurable.
        #expect(parseError("[[[[]]]]", limits: WireLimits(maxNesting: 3))?.kind == .overLimit)
        #expect(parseError("[[[]]]", limits: WireLimits(maxNesting: 3)) == nil)
    }

    @Test func sizeLimits() {
        var limits = WireLimits()
        limits.maxStringBytes = 8
        #expect(parseError(#"["12345678"]"#, limits: limits) == nil)
        let long = parseError(#"["123456789"]"#, limits: limits)
        #expect(long?.kind == .overLimit)
        #expect(long?.code == "string-too-long")
        #expect(long?.offset == 1)
        // Counted after unescaping: 9 escaped bytes are 9 bytes.
        #expect(parseError(#"["\n\n\n\n\n\n\n\n\n"]"#, limits: limits)?.code == "string-too-long")
        limits = WireLimits()
        limits.maxDocumentBytes = 10
        #expect(parseError("[1,2,3,4,5,6]", limits: limits)?.code == "document-too-large")
        #expect(parseError("[1,2,3,4,5,6]", limits: limits)?.kind == .overLimit)
        // A big string under the default limit of 1 MiB is fine; over it is 413.
        let big = "\"" + String(repeating: "x", count: 1 << 20) + "\""
        #expect(parseError(big) == nil)
        #expect(parseError("\"" + String(repeating: "x", count: (1 << 20) + 1) + "\"")?.kind == .overLimit)
    }

    @Test func roundTripThroughTheWriter() throws {
        let texts = [
            #"{"a":[1,2.5,-3,true,false,null],"b":"x\"y\\z\n\u0001","c":{"d":[]},"e":{}}"#,
            #"[-0,1e+21,0.1,"😀é"]"#,
            #""just a string""#,
            "12",
        ]
        for text in texts {
            let first = try JSONValue.parse(text)
            let written = first.jsonBytes()
            let second = try JSONValue.parse(bytes: written)
            #expect(first == second, "\(text)")
            #expect(second.jsonBytes() == written)
        }
        #expect(try JSONValue.parse(#"{"b":"x\"y\\z\n\u0001"}"#).description == #"{"b":"x\"y\\z\n\u0001"}"#)
        #expect(try JSONValue.parse("[-0, 100, 2.5]").description == "[-0,100,2.5]")
    }

    @Test func nonContiguousCollectionsParse() throws {
        let bytes = Array(#"{"k": [1, 2]}"#.utf8)
        let value = try JSONValue.parse(bytes: bytes.lazy.map { $0 })
        #expect(value["k"]?.count == 2)
    }
}
