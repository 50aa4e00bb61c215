import LayoutEngine
import LayoutTextModel
import Testing
@testable import LayoutWire

// Text leaves on the wire: the `text` member (a string or spans), the text style keys with CSS
// inheritance, `textLines`, and errors with pointers.
@Suite struct TextWireTests {
    private func decode(_ text: String) throws(WireError) -> LayoutRequest {
        try LayoutWire.decodeRequest(bytes: Array(text.utf8))
    }
    private func error(_ text: String) -> WireError? {
        do { _ = try decode(text); return nil } catch { return error }
    }

    @Test func aTextLeafIsMeasuredContentWithItsText() throws {
        let request = try decode(#"{"root":{"children":[{"id":"t","text":"Item 1"}]}}"#)
        #expect(request.textLeaves.count == 1)
        let leaf = request.textLeaves[0]
        #expect(leaf.pointer == "/root/children/0")
        #expect(leaf.content.spans == [TextSpan(text: "Item 1", style: TextStyle())])
        if case .custom = request.tree.content(of: leaf.node) {} else { Issue.record("not custom content") }
        #expect(request.textLines == false)
        #expect(try decode(#"{"textLines":true,"root":{"text":"x"}}"#).textLines)
    }

    @Test func stylesInheritAsInCSS() throws {
        let request = try decode(#"""
        {"direction":"rtl","root":{"style":{"fontSize":20,"fontFamily":["DejaVu Serif","serif"],"lineHeight":"150%",
          "textAlign":"center","maxLines":3,"whiteSpace":"pre-line"},
          "children":[{"style":{"fontWeight":"bold","letterSpacing":-0.5},"children":[
            {"text":"a","style":{"fontStyle":"italic","overflowWrap":"anywhere","textOverflow":"ellipsis","maxLines":2}}]}]}}
        """#)
        let style = request.textLeaves[0].content.style
        #expect(style.fontSize == 20 && style.fontFamilies == ["DejaVu Serif", "serif"])
        // 150% of the 20 px where it is declared: 30 px, inherited as a length (CSS).
        #expect(style.lineHeight == .pixels(30) && style.textAlign == .center && style.whiteSpace == .preLine)
        #expect(style.fontWeight == 700 && style.letterSpacing == -0.5 && style.fontStyle == .italic)
        #expect(style.overflowWrap == .anywhere && style.textOverflow == .ellipsis && style.maxLines == 2)
        #expect(style.rightToLeft)
        // maxLines is not inherited: a leaf under a clamped container is not clamped.
        let plain = try decode(#"{"root":{"style":{"maxLines":3,"textOverflow":"ellipsis"},"children":[{"text":"a"}]}}"#)
        #expect(plain.textLeaves[0].content.style.maxLines == 0 && plain.textLeaves[0].content.style.textOverflow == .clip)
    }

    @Test func aPercentageLineHeightIsInheritedAsPixels() throws {
        let request = try decode(#"{"root":{"style":{"fontSize":10,"lineHeight":"150%"},"children":[{"text":"a","style":{"fontSize":20}}]}}"#)
        #expect(request.textLeaves[0].content.style.lineHeight == .pixels(15))
    }

    @Test func spansInheritTheLeafsStyle() throws {
        let request = try decode(#"""
        {"root":{"style":{"fontSize":14,"textAlign":"right"},"text":[{"text":"Hello ","style":{"fontWeight":700}},{"text":"world"}]}}
        """#)
        let spans = request.textLeaves[0].content.spans
        #expect(spans.map(\.text) == ["Hello ", "world"])
        #expect(spans[0].style.fontWeight == 700 && spans[0].style.fontSize == 14)
        #expect(spans[1].style.fontWeight == 400 && spans[1].style.textAlign == .right)
    }

    @Test func fontFamilyForms() throws {
        let css = try decode(#"{"root":{"style":{"fontFamily":"'DejaVu Sans Mono', monospace"},"text":"x"}}"#)
        #expect(css.textLeaves[0].content.style.fontFamilies == ["DejaVu Sans Mono", "monospace"])
        let weights = try decode(#"{"root":{"style":{"fontWeight":"600"},"text":"x"}}"#)
        #expect(weights.textLeaves[0].content.style.fontWeight == 600)
        let lineHeight = try decode(#"{"root":{"style":{"lineHeight":24},"text":"x"}}"#)
        #expect(lineHeight.textLeaves[0].content.style.lineHeight == .pixels(24))
    }

    @Test func errorsCarryPointers() {
        func check(_ body: String, _ code: String, _ pointer: String) {
            let e = error(body)
            #expect(e?.code == code, "\(body)")
            #expect(e?.pointer == pointer, "\(body)")
        }
        check(#"{"root":{"children":[{"text":"a","style":{"textAlign":"middle"}}]}}"#, "unknown-value", "/root/children/0/style/textAlign")
        check(#"{"root":{"style":{"fontSize":0},"text":"a"}}"#, "invalid-value", "/root/style/fontSize")
        check(#"{"root":{"style":{"fontWeight":1200},"text":"a"}}"#, "unknown-value", "/root/style/fontWeight")
        check(#"{"root":{"style":{"lineHeight":"tall"},"text":"a"}}"#, "unknown-value", "/root/style/lineHeight")
        check(#"{"root":{"style":{"maxLines":1.5},"text":"a"}}"#, "invalid-value", "/root/style/maxLines")
        // Found by schemathesis: -5.5e37 px of letter spacing made a line's extent infinite.
        check(#"{"root":{"text":[{"text":"ab","style":{"letterSpacing":-5.494030801541134e+37}}]}}"#,
              "invalid-value", "/root/text/0/style/letterSpacing")
        check(#"{"root":{"style":{"letterSpacing":10000.5},"text":"a"}}"#, "invalid-value", "/root/style/letterSpacing")
        check(#"{"root":{"style":{"whiteSpace":"break-spaces"},"text":"a"}}"#, "unknown-value", "/root/style/whiteSpace")
        check(#"{"root":{"style":{"fontFamily":[1]},"text":"a"}}"#, "wrong-type", "/root/style/fontFamily/0")
        check(#"{"root":{"text":5}}"#, "wrong-type", "/root/text")
        check(#"{"root":{"text":[{"text":"a","color":"red"}]}}"#, "unknown-key", "/root/text/0/color")
        check(#"{"root":{"text":[{"style":{}}]}}"#, "missing-key", "/root/text/0")
        check(#"{"root":{"text":[{"text":"a","style":{"maxLines":2}}]}}"#, "unknown-key", "/root/text/0/style/maxLines")
        check(#"{"root":{"text":"a","children":[{}]}}"#, "text-with-children", "/root/text")
        check(#"{"root":{"text":"a","measure":{"kind":"fixed","width":1,"height":1}}}"#, "text-with-measure", "/root/measure")
        check(#"{"textLines":1,"root":{"text":"a"}}"#, "wrong-type", "/textLines")
        check(#"{"root":{"style":{"fontSizes":12},"text":"a"}}"#, "unknown-key", "/root/style/fontSizes")
        // A key written with an escape is the same key: its pointer is the property's.
        check(#"{"root":{"style":{"font\u0053ize":0},"text":"a"}}"#, "invalid-value", "/root/style/fontSize")
    }

    /// Every way a text property's value can be refused, with its code and words: what a
    /// property accepts is defined once (`TextProperty.set`), the words are the tape decoder's.
    @Test(arguments: [
        (#""fontFamily": 3"#, "wrong-type", "fontFamily must be a family name or an array of names (got a number)"),
        (#""fontFamily": " , ""#, "invalid-value", "fontFamily names no family"),
        (#""fontFamily": []"#, "invalid-value", "fontFamily names no family"),
        (#""fontSize": "12""#, "wrong-type", "fontSize must be a non-negative number (got a string)"),
        (#""fontSize": -1"#, "invalid-value", "fontSize must not be negative"),
        (#""fontSize": 1e39"#, "not-representable", "fontSize is not representable as a 32-bit float"),
        (#""fontSize": 0"#, "invalid-value", "fontSize must be more than 0 and at most 10000 px"),
        (#""fontWeight": true"#, "wrong-type", #"fontWeight must be a number from 1 to 1000, "normal" or "bold" (got a boolean)"#),
        (#""fontWeight": "heavy""#, "unknown-value", #"fontWeight must be a number from 1 to 1000, "normal" or "bold""#),
        (#""fontWeight": 0.4"#, "unknown-value", #"fontWeight must be a number from 1 to 1000, "normal" or "bold""#),
        (#""fontWeight": -3"#, "invalid-value", "fontWeight must not be negative"),
        (#""fontStyle": 1"#, "wrong-type", #"fontStyle must be one of "normal", "italic" (got a number)"#),
        (#""fontStyle": "oblique""#, "unknown-value", #"unknown fontStyle "oblique"; expected "normal", "italic""#),
        (#""lineHeight": true"#, "unknown-value", #"lineHeight must be "normal", a non-negative number of px or a percentage like "150%""#),
        (#""lineHeight": "-5%""#, "unknown-value", #"lineHeight must be "normal", a non-negative number of px or a percentage like "150%""#),
        (#""lineHeight": -2"#, "invalid-value", "lineHeight must not be negative"),
        (#""letterSpacing": "1px""#, "wrong-type", "letterSpacing must be a number (got a string)"),
        (#""letterSpacing": -10001"#, "invalid-value", "letterSpacing must be within -10000 and 10000 px"),
        (#""textAlign": null"#, "wrong-type", #"textAlign must be one of "left", "right", "center", "start", "end", "justify" (got null)"#),
        (#""whiteSpace": "wrap""#, "unknown-value", #"unknown whiteSpace "wrap"; expected "normal", "nowrap", "pre", "pre-wrap", "pre-line""#),
        (#""overflowWrap": "break-all""#, "unknown-value", #"unknown overflowWrap "break-all"; expected "normal", "break-word", "anywhere""#),
        (#""maxLines": 2.5"#, "invalid-value", "maxLines must be a whole number (0: no limit)"),
        (#""maxLines": "2""#, "wrong-type", "maxLines must be a non-negative number (got a string)"),
        (#""textOverflow": "fade""#, "unknown-value", #"unknown textOverflow "fade"; expected "clip", "ellipsis""#),
    ])
    func eachRefusedTextValueIsWorded(member: String, code: String, message: String) {
        let e = error(#"{"root":{"style":{"# + member + #"},"text":"a"}}"#)
        #expect(e?.code == code)
        #expect(e?.message == message)
        let key = member.dropFirst().prefix { $0 != "\"" }
        #expect(e?.pointer == "/root/style/\(key)")
    }

    @Test func eachTextPropertysPointerIsItsKey() {
        // Errors point at `property.pointer`, not at a pointer built from the key's token.
        for property in TextProperty.allCases {
            #expect(property.pointer == "/" + JSONPointer.escape(property.name), "\(property)")
        }
    }
}

@Suite struct TextInheritanceDepthTests {
    @Test func stylesReachTheBottomOfADeepChain() throws {
        // 900 nested containers, each with a text leaf; the top sets fontSize, the middle one
        // fontWeight: every leaf below sees both (one pass over the nodes, however deep).
        var node = #"{"text":"bottom"}"#
        for level in stride(from: 899, through: 0, by: -1) {
            var style = ""
            if level == 0 { style = #","style":{"fontSize":30}"# }
            if level == 450 { style = #","style":{"fontWeight":700}"# }
            node = #"{"children":[{"text":"t\#(level)"},"# + node + "]" + style + "}"
        }
        let request = try LayoutWire.decodeRequest(bytes: Array(#"{"root":\#(node)}"#.utf8))
        #expect(request.textLeaves.count == 901)
        let byText = Dictionary(uniqueKeysWithValues: request.textLeaves.map { ($0.content.spans[0].text, $0.content.style) })
        #expect(byText["t0"]?.fontSize == 30 && byText["t0"]?.fontWeight == 400)
        #expect(byText["t451"]?.fontWeight == 700 && byText["bottom"]?.fontWeight == 700)
        #expect(byText["bottom"]?.fontSize == 30)
    }
}
