import LayoutTextModel

/// Lays out text leaves: prepares (shapes) a leaf's text once, then breaks it into lines for
/// any width. One per process; safe to use from many threads.
public final class TextLayouter: Sendable {
    public let fonts: FontLibrary
    let shaper: WordShaper

    /// `shapeCacheCapacity`: the most shaped words kept (about 100 bytes each plus 6 bytes a
    /// character; words of at most 64 UTF-16 units are cached).
    public init(fonts: FontLibrary = .bundled, shapeCacheCapacity: Int = 50_000) {
        self.fonts = fonts
        shaper = WordShaper(cache: ShapeCache(capacity: shapeCacheCapacity))
    }

    /// The bundled fonts, for callers that add none (created on first use).
    public static let bundled = TextLayouter()

    /// Shapes `content`, ready to be laid out at any width.
    public func prepare(_ content: TextContent) -> PreparedText {
        PreparedText(content, fonts: fonts, shaper: shaper)
    }

    /// Shaping-cache lookups answered from the cache (`hits`) and shaped (`misses`).
    public var shapeCacheStatistics: (hits: Int, misses: Int) { shaper.cache.statistics }
}
