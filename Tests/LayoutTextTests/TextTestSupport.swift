import LayoutTextModel
@testable import LayoutText

/// One layouter for the suite: the bundled fonts load once per process.
let sharedLayouter = TextLayouter()

func style(_ configure: (inout TextStyle) -> Void = { _ in }) -> TextStyle {
    var s = TextStyle()
    configure(&s)
    return s
}

func layout(_ text: String, width: Float? = nil, _ configure: (inout TextStyle) -> Void = { _ in }) -> TextLayout {
    sharedLayouter.prepare(TextContent(text, style: style(configure))).layout(available: width)
}

func lineTexts(_ text: String, width: Float? = nil, _ configure: (inout TextStyle) -> Void = { _ in }) -> [String] {
    layout(text, width: width, configure).lines.map(\.text)
}
