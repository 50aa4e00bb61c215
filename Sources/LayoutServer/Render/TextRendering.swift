import LayoutEngine
import LayoutRender
import LayoutText
import LayoutWire

extension LayoutRenderer {
    /// `render(_:options:limits:)` with the request's text leaves measured by `layouter` (as
    /// `/compute` measures them) and drawn with their lines: what `layoutd render` calls.
    public static func render(_ request: consuming LayoutRequest, options: RenderOptions, limits: RenderLimits,
                              textLayouter: TextLayouter) throws(RenderError) -> [UInt8] {
        let text = request.textLeaves.isEmpty ? nil : RequestText(installingOn: &request, layouter: textLayouter, key: .processRandom)
        return try render(request, options: options, limits: limits) { tree in text?.glyphLines(of: tree) ?? [:] }
    }
}
