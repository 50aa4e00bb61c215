import CCairo
import SyncSupport

/// cairo font faces over the font files text runs name (`GlyphFont.path` and face index):
/// each file's face opened once by FreeType and kept for the process, as the font library
/// keeps its files, so glyph ids from HarfBuzz draw with the very outlines they were shaped
/// from. Faces that fail to open are remembered as missing (their runs are not drawn).
///
/// Sharing a face between threads is safe: cairo takes the face's own mutex around every use
/// of the `FT_Face` (cairo-ft's unscaled-font lock), and only this type, under its lock,
/// calls FreeType directly (opening faces on the one `FT_Library`).
final class CairoFontFaces: Sendable {
    static let shared = CairoFontFaces()

    private struct Key: Hashable {
        var path: String
        var faceIndex: Int
    }

    /// `@unchecked Sendable`: the pointers are only created and read under `faces`' lock; what
    /// they point to is used through cairo, which locks it (see the type's comment).
    private struct State: @unchecked Sendable {
        var library: FT_Library?
        var faces: [Key: OpaquePointer?] = [:]
    }

    private let state = Locked(State())

    /// The cairo font face of `faceIndex` in the file at `path`, nil when it cannot be read.
    func face(path: String, faceIndex: Int) -> OpaquePointer? {
        state.withLock { s in
            let key = Key(path: path, faceIndex: faceIndex)
            if let known = s.faces[key] { return known }
            if s.library == nil {
                var library: FT_Library?
                if FT_Init_FreeType(&library) == 0 { s.library = library }
            }
            var made: OpaquePointer?
            var ftFace: FT_Face?
            if let library = s.library, FT_New_Face(library, path, FT_Long(faceIndex), &ftFace) == 0, let ftFace {
                let face = cairo_ft_font_face_create_for_ft_face(ftFace, 0)
                if let face, cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS {
                    made = face
                } else {
                    if let face { cairo_font_face_destroy(face) }
                    FT_Done_Face(ftFace)
                }
            }
            s.faces[key] = made
            return made
        }
    }
}
