import CFreeType
import CHarfBuzz
import Foundation
import LayoutTextModel
import SyncSupport

/// The font faces the service knows: the bundled DejaVu set and any added directories, with
/// CSS-like matching of a family list, weight and slant to a face, and per-character fallback.
public final class FontLibrary: Sendable {
    /// The family used when a style names none, or none that is known.
    public static let defaultFamily = "DejaVu Sans"
    /// CSS generic families and the bundled family each stands for.
    static let genericFamilies: [String: String] = [
        "sans-serif": "DejaVu Sans", "system-ui": "DejaVu Sans", "ui-sans-serif": "DejaVu Sans",
        "serif": "DejaVu Serif", "ui-serif": "DejaVu Serif",
        "monospace": "DejaVu Sans Mono", "ui-monospace": "DejaVu Sans Mono",
    ]

    /// The generic families in a fixed order, with the family each stands for.
    public static var genericFamilyNames: [(generic: String, family: String)] {
        genericFamilies.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Every face, bundled ones first, in load order.
    public let faces: [FontFace]
    /// Faces by lowercased family name, in load order.
    let familyFaces: [String: [FontFace]]
    /// Family names (as the fonts spell them) in load order, the default first.
    public let familyNames: [String]
    /// Digest of every face's file digest: changes whenever a font file changes.
    public let digest: UInt64
    /// Files found in the font directories that could not be loaded, with the reason.
    public let skipped: [(path: String, reason: String)]
    /// `primaryFace` answers by query: a request names a few styles for thousands of leaves,
    /// and matching lowercases names and filters faces each time. Cleared when full.
    private let matched = Locked<[FaceQuery: (face: FontFace, unknown: [String])]>([:])
    private static let matchedCapacity = 4096

    private struct FaceQuery: Hashable {
        var families: [String]
        var weight: Int
        var slant: FontSlant
    }

    /// Loads the bundled fonts (unless `includeBundled` is false) and every font file
    /// (`.ttf`, `.otf`, `.ttc`, `.otc`) under `directories`, recursively.
    /// Throws `FontLibraryError` when a directory cannot be read or no face loads.
    public init(directories: [String] = [], includeBundled: Bool = true) throws(FontLibraryError) {
        var paths: [String] = []
        if includeBundled { paths += try Self.fontFiles(in: try Self.bundledFontDirectory()) }
        for directory in directories { paths += try Self.fontFiles(in: directory) }

        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw .freeType("FT_Init_FreeType failed") }
        defer { FT_Done_FreeType(library) }
        var faces: [FontFace] = []
        var skipped: [(String, String)] = []
        for path in paths {
            // Mapped, not read: the faces of a file (a .ttc holds many) share its pages.
            guard let blob = hb_blob_create_from_file(path), hb_blob_get_length(blob) > 0 else {
                skipped.append((path, "unreadable")); continue
            }
            defer { hb_blob_destroy(blob) }
            guard let digest = Self.identity(of: path, blob: blob) else {
                skipped.append((path, "unreadable")); continue
            }
            var index = 0, count = 1
            while index < count {
                var face: FT_Face?
                let error = FT_New_Face(library, path, FT_Long(index), &face)
                guard error == 0, let face else {
                    skipped.append((path, "FreeType error \(error) for face \(index)")); break
                }
                count = Int(face.pointee.num_faces)
                if face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 {
                    faces.append(FontFace(path: path, faceIndex: index, id: faces.count, blob: blob,
                                          digest: digest, ftFace: face))
                } else {
                    skipped.append((path, "face \(index) is a bitmap font"))
                }
                FT_Done_Face(face)
                index += 1
            }
        }
        guard !faces.isEmpty else { throw .noFaces(paths.isEmpty ? "no font files found" : "no font file could be loaded") }
        self.faces = faces
        var byFamily: [String: [FontFace]] = [:]
        var names: [String] = []
        for face in faces {
            let key = face.family.lowercased()
            if byFamily[key] == nil { names.append(face.family) }
            byFamily[key, default: []].append(face)
        }
        if let i = names.firstIndex(where: { $0.lowercased() == Self.defaultFamily.lowercased() }), i > 0 {
            names.insert(names.remove(at: i), at: 0)
        }
        familyFaces = byFamily
        familyNames = names
        var digest: UInt64 = 0xCBF2_9CE4_8422_2325
        for face in faces {
            digest = (digest ^ face.fileDigest) &* 0x100_0000_01B3
            digest = (digest ^ UInt64(face.faceIndex)) &* 0x100_0000_01B3
        }
        self.digest = digest
        self.skipped = skipped
    }

    /// The default library: the bundled fonts only, loaded once per process. A process
    /// without them stops here: `layoutd` checks `bundledFontDirectory()` at start-up first.
    public static let bundled: FontLibrary = {
        do { return try FontLibrary() } catch { fatalError("the bundled fonts do not load: \(error)") }
    }()

    /// The directory of the bundled DejaVu fonts: LayoutText's SwiftPM resource bundle
    /// beside the executable (`swift run`, `swift test`, the Docker image, which copies it
    /// there), else the package's sources (`Sources/LayoutText/Fonts`). Unlike
    /// `Bundle.module`, which stops the process, a missing bundle is an error to report.
    public static func bundledFontDirectory() throws(FontLibraryError) -> String {
        var candidates: [String] = []
        let bundleName = "layout-service_LayoutText.resources"
        for base in [Bundle.main.executableURL?.deletingLastPathComponent(), Bundle.main.bundleURL] {
            if let base { candidates.append(base.appendingPathComponent(bundleName).appendingPathComponent("Fonts").path) }
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fonts").path)
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate + "/DejaVuSans.ttf", isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
        }
        throw .missingDirectory("the bundled fonts (\(bundleName)/Fonts beside the executable); looked in "
                                + candidates.joined(separator: ", "))
    }

    /// The faces of a family (any case), in load order; nil when unknown.
    public func faces(ofFamily name: String) -> [FontFace]? {
        let key = name.lowercased()
        if let faces = familyFaces[key] { return faces }
        if let generic = Self.genericFamilies[key] { return familyFaces[generic.lowercased()] }
        return nil
    }

    /// The face for a style: the first family in `families` that is known (else the default
    /// family), and in it the face closest to the weight and slant (CSS Fonts 4 §5.2).
    /// `unknown` lists the names that matched no family, in order.
    public func primaryFace(families: [String], weight: Int, slant: FontSlant) -> (face: FontFace, unknown: [String]) {
        let query = FaceQuery(families: families, weight: weight, slant: slant)
        if let found = matched.withLock({ $0[query] }) { return found }
        let found = matchPrimaryFace(families: families, weight: weight, slant: slant)
        matched.withLock {
            if $0.count >= Self.matchedCapacity { $0.removeAll(keepingCapacity: true) }
            $0[query] = found
        }
        return found
    }

    private func matchPrimaryFace(families: [String], weight: Int, slant: FontSlant) -> (face: FontFace, unknown: [String]) {
        var unknown: [String] = []
        for name in families {
            if let candidates = faces(ofFamily: name) {
                return (Self.closest(in: candidates, weight: weight, italic: slant == .italic), unknown)
            }
            unknown.append(name)
        }
        let candidates = familyFaces[Self.defaultFamily.lowercased()] ?? familyFaces[familyNames[0].lowercased()]!
        return (Self.closest(in: candidates, weight: weight, italic: slant == .italic), unknown)
    }

    /// Faces to try, in order, for a character the primary face lacks: the best face of each
    /// listed family, then of every other family, default first.
    public func fallbackFaces(families: [String], weight: Int, slant: FontSlant) -> [FontFace] {
        var seen = Set<String>()
        var result: [FontFace] = []
        func add(_ candidates: [FontFace]?) {
            guard let candidates, let first = candidates.first, seen.insert(first.family.lowercased()).inserted else { return }
            result.append(Self.closest(in: candidates, weight: weight, italic: slant == .italic))
            // Other faces of the family can still cover a character the closest one lacks.
            result += candidates.filter { $0 !== result.last }
        }
        for name in families { add(faces(ofFamily: name)) }
        for name in familyNames { add(familyFaces[name.lowercased()]) }
        return result
    }

    /// CSS font matching, reduced to weight and slant: the right slant first (italic falls back
    /// to upright), then the weight rule (§5.2 step 4).
    static func closest(in faces: [FontFace], weight: Int, italic: Bool) -> FontFace {
        let sameSlant = faces.filter { $0.italic == italic }
        let pool = sameSlant.isEmpty ? faces : sameSlant
        func rank(_ face: FontFace) -> (Int, Int) {
            let w = face.weight
            if w == weight { return (0, 0) }
            if weight >= 400 && weight <= 500 {
                // Heavier up to 500 first, then lighter descending, then heavier than 500.
                if w > weight && w <= 500 { return (1, w - weight) }
                if w < weight { return (2, weight - w) }
                return (3, w - weight)
            }
            if weight < 400 { return w < weight ? (1, weight - w) : (2, w - weight) }
            return w > weight ? (1, w - weight) : (2, weight - w)
        }
        return pool.min { rank($0) < rank($1) }!
    }

    /// Families and their faces, for `GET /fonts`.
    public var catalog: [FontFamilyEntry] {
        familyNames.map { name in
            FontFamilyEntry(family: name, faces: familyFaces[name.lowercased()]!.map {
                FontFaceEntry(style: $0.styleName, weight: $0.weight, italic: $0.italic,
                              file: ($0.path as NSString).lastPathComponent)
            })
        }
    }

    static func fontFiles(in directory: String) throws(FontLibraryError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .missingDirectory(directory)
        }
        guard let walker = FileManager.default.enumerator(atPath: directory) else { throw .missingDirectory(directory) }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            let lower = relative.lowercased()
            if lower.hasSuffix(".ttf") || lower.hasSuffix(".otf") || lower.hasSuffix(".ttc") || lower.hasSuffix(".otc") {
                files.append(directory + "/" + relative)
            }
        }
        return files.sorted()
    }

    /// A font file's identity for the structural hash, from its content: its size and its
    /// first and last 64 KiB (the table directory with every table's checksum, and the tables
    /// last written). An edited or replaced font changes every hash it is part of, the same
    /// file anywhere gives the same hash, and a large collection is not read whole at start-up.
    static func identity(of path: String, blob: OpaquePointer) -> UInt64? {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) { for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 } }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length) else { return nil }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        add(withUnsafeBytes(of: UInt64(length).littleEndian) { Array($0) })
        let window = 64 << 10
        add(bytes.prefix(window))
        if bytes.count > window { add(bytes.suffix(min(window, bytes.count - window))) }
        return hash
    }
}

/// One family of `FontLibrary.catalog`.
public struct FontFamilyEntry: Hashable, Sendable {
    public var family: String
    public var faces: [FontFaceEntry]
}

/// One face of `FontLibrary.catalog`.
public struct FontFaceEntry: Hashable, Sendable {
    public var style: String
    public var weight: Int
    public var italic: Bool
    /// The file's name (without its directory).
    public var file: String
}

/// Why fonts did not load.
public enum FontLibraryError: Error, CustomStringConvertible, Sendable {
    case missingDirectory(String)
    case noFaces(String)
    case freeType(String)

    public var description: String {
        switch self {
        case .missingDirectory(let path): return "font directory not found: \(path)"
        case .noFaces(let why): return "no fonts: \(why)"
        case .freeType(let why): return "FreeType: \(why)"
        }
    }
}
