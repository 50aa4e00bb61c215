import LayoutText
import LayoutWire

/// The body of `GET /fonts`: the default family, the generic family names and the family
/// each stands for, and every family with its faces.
enum FontCatalog {
    static func json(_ fonts: FontLibrary) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        writer.beginObject()
        writer.key("default" as StaticString); writer.string(FontLibrary.defaultFamily)
        writer.key("generic" as StaticString)
        writer.beginObject()
        for (generic, family) in FontLibrary.genericFamilyNames {
            writer.key(generic); writer.string(family)
        }
        writer.endObject()
        writer.key("families" as StaticString)
        writer.beginArray()
        for family in fonts.catalog {
            writer.beginObject()
            writer.key("family" as StaticString); writer.string(family.family)
            writer.key("faces" as StaticString)
            writer.beginArray()
            for face in family.faces {
                writer.beginObject()
                writer.key("style" as StaticString); writer.string(face.style)
                writer.key("weight" as StaticString); writer.integer(face.weight)
                writer.key("italic" as StaticString); writer.bool(face.italic)
                writer.key("file" as StaticString); writer.string(face.file)
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}

/// The start-up check of the bundled fonts, for the executable: without them a text leaf
/// could not be laid out, so `layoutd` refuses to start rather than fail on the first one.
public enum BundledFonts {
    /// Why the bundled fonts cannot be loaded, or nil when they can.
    public static func problem() -> String? {
        do {
            _ = try FontLibrary.bundledFontDirectory()
            return nil
        } catch {
            return error.description
        }
    }
}
