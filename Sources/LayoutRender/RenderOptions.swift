/// The picture formats.
public enum RenderFormat: String, Hashable, Sendable, CaseIterable {
    case svg, png

    /// The media type of a picture in this format.
    public var mediaType: String {
        switch self {
        case .svg: return "image/svg+xml"
        case .png: return "image/png"
        }
    }
}

/// What a picture shows.
public enum RenderMode: String, Hashable, Sendable, CaseIterable {
    /// Every box outlined, coloured by depth (or by model kind), margins and padding shaded as
    /// browser devtools do, ids as labels where they fit.
    case wireframe
    /// The paint style keys: backgrounds, borders, corner radii, opacity.
    case paint
}

/// How to render: the format, the mode, and device pixels per point.
public struct RenderOptions: Hashable, Sendable {
    public var format: RenderFormat
    public var mode: RenderMode
    public var scale: Float

    /// The largest `scale` accepted.
    public static let maxScale: Float = 8

    public init(format: RenderFormat = .svg, mode: RenderMode = .wireframe, scale: Float = 1) {
        self.format = format
        self.mode = mode
        self.scale = scale
    }

    /// Parses a `scale` parameter: a number greater than 0 and at most `maxScale` (one too
    /// small for a Float counts as Float's smallest: a one-pixel picture).
    public static func scale(parsing text: String) -> Float? {
        guard let value = Double(text), value.isFinite, value > 0, value <= Double(maxScale) else { return nil }
        return max(Float(value), .leastNormalMagnitude)
    }

    /// The size in device pixels of a picture `width` × `height` points (at least 1 × 1).
    public func pixelSize(width: Float, height: Float) -> (width: Int, height: Int) {
        func pixels(_ points: Float) -> Int {
            let value = (Double(points) * Double(scale)).rounded(.up)
            // Any size past Int32 is refused by the pixel limit anyway; keep the arithmetic safe.
            return value.isFinite ? max(1, Int(min(value, Double(Int32.max)))) : Int(Int32.max)
        }
        return (pixels(width), pixels(height))
    }
}

/// Bounds on one picture.
public struct RenderLimits: Hashable, Sendable {
    /// The most device pixels (width × height) a picture may cover.
    public var maxPixels: Int
    /// The longest side cairo can draw.
    public static let maxSide = 32_767

    public static let `default` = RenderLimits(maxPixels: 16 * 1024 * 1024)

    public init(maxPixels: Int) {
        self.maxPixels = maxPixels
    }
}

/// Why a picture was not made.
public enum RenderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Over `RenderLimits`: the size asked for, in device pixels.
    case tooLarge(width: Int, height: Int, maxPixels: Int)
    /// cairo refused (out of memory, ...): its status text.
    case rasterizer(String)
    /// A frame overflowed 32-bit floats (infinite or not a number): there is nothing to draw.
    case layoutOverflow

    public var description: String {
        switch self {
        case let .tooLarge(width, height, maxPixels):
            return "the picture would be \(width) x \(height) = \(width * height) pixels; at most \(maxPixels) pixels and \(RenderLimits.maxSide) per side are drawn (lower scale or the layout's size)"
        case let .rasterizer(status):
            return "the rasteriser failed: \(status)"
        case .layoutOverflow:
            return "the layout overflows 32-bit floats (a frame is infinite or not a number); use smaller sizes"
        }
    }
}
