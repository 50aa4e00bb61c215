import LayoutEngine
import LayoutTextModel
import LayoutWire

/// Pictures of layout requests: lay the tree out, describe it as a `Picture`, write it as SVG or
/// PNG. What `POST /render` and `layoutd render` call.
public enum LayoutRenderer {
    /// The picture of `request` in `options.format`, laid out first. Throws when a frame is not
    /// finite, or the picture would be larger than `limits` allow (checked before anything is
    /// drawn). `text` gives the lines of the text leaves once the tree is laid out (see
    /// `Picture.init(of:mode:text:)`); by default none are drawn. Text leaves are measured only
    /// through a measure hook on the tree: LayoutServer's `render(_:options:limits:textLayouter:)`
    /// installs it and draws the lines.
    public static func render(_ request: consuming LayoutRequest, options: RenderOptions,
                              limits: RenderLimits = .default,
                              text: (LayoutTree) -> [Int32: [GlyphLine]] = { _ in [:] }) throws(RenderError) -> [UInt8] {
        request.computeLayout()
        for index in 0..<request.tree.nodeCount {
            let frame = request.tree.frame(of: NodeID(index))
            guard frame.left.isFinite, frame.top.isFinite, frame.width.isFinite, frame.height.isFinite else {
                throw .layoutOverflow
            }
        }
        let root = request.tree.frame(of: request.root)
        try check(width: root.width, height: root.height, options: options, limits: limits)
        return try render(Picture(of: request, mode: options.mode, text: text(request.tree)), options: options, limits: limits)
    }

    /// `picture` written in `options.format` at `options.scale`.
    public static func render(_ picture: Picture, options: RenderOptions,
                              limits: RenderLimits = .default) throws(RenderError) -> [UInt8] {
        try check(width: picture.width, height: picture.height, options: options, limits: limits)
        switch options.format {
        case .svg: return SVGWriter.svg(picture, scale: options.scale)
        case .png: return try CairoPNGWriter.png(picture, scale: options.scale, limits: limits)
        }
    }

    /// Throws `tooLarge` when a picture of `width` × `height` points is over `limits` at
    /// `options.scale`: call before building the picture of a laid-out tree.
    public static func check(width: Float, height: Float, options: RenderOptions,
                             limits: RenderLimits) throws(RenderError) {
        let (pixelWidth, pixelHeight) = options.pixelSize(width: width, height: height)
        guard pixelWidth <= RenderLimits.maxSide, pixelHeight <= RenderLimits.maxSide,
              pixelWidth * pixelHeight <= limits.maxPixels else {
            throw .tooLarge(width: pixelWidth, height: pixelHeight, maxPixels: limits.maxPixels)
        }
    }
}
