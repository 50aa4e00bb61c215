#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LayoutEngine
import LayoutWire
@testable import LayoutRender

/// A request decoded from JSON text.
func request(_ json: String) throws -> LayoutRequest {
    try LayoutWire.decodeRequest(bytes: Array(json.utf8))
}

/// The picture of a request in `mode`.
func picture(_ json: String, mode: RenderMode) throws -> Picture {
    var laidOut = try request(json)
    laidOut.computeLayout()
    return Picture(of: laidOut, mode: mode)
}

/// The `<rect class="box">` elements of an SVG document: their attributes by name.
func boxRects(inSVG bytes: [UInt8]) -> [[String: String]] {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.split(separator: "\n").filter { $0.hasPrefix("<rect class=\"box\"") }.map(attributes)
}

/// The attributes of one start tag written on one line (`name="value"` pairs).
func attributes(_ tag: Substring) -> [String: String] {
    var result: [String: String] = [:]
    let chars = Array(tag)
    var i = 0
    while i + 1 < chars.count {
        guard chars[i] == "=", chars[i + 1] == "\"" else { i += 1; continue }
        var start = i - 1
        while start >= 0, chars[start] != " " { start -= 1 }
        let name = String(chars[(start + 1)..<i])
        var end = i + 2
        while end < chars.count, chars[end] != "\"" { end += 1 }
        result[name] = String(chars[(i + 2)..<min(end, chars.count)])
        i = end + 1
    }
    return result
}

/// The colour channels of 0xRRGGBBAA.
func channels(_ rgba: UInt32) -> (r: Int, g: Int, b: Int, a: Int) {
    (Int(rgba >> 24), Int(rgba >> 16 & 0xFF), Int(rgba >> 8 & 0xFF), Int(rgba & 0xFF))
}

/// Whether two 0xRRGGBBAA colours differ by at most `tolerance` in every channel.
func close(_ a: UInt32, _ b: UInt32, tolerance: Int = 2) -> Bool {
    let x = channels(a), y = channels(b)
    return abs(x.r - y.r) <= tolerance && abs(x.g - y.g) <= tolerance && abs(x.b - y.b) <= tolerance
        && abs(x.a - y.a) <= tolerance
}

/// A row of three painted boxes in a padded root, the last with a border and a child.
let paintedRow = #"""
{"root": {"id": "root", "style": {"width": 200, "height": 100, "padding": 10, "flexDirection": "row",
                                  "alignItems": "flex-start", "backgroundColor": "#fff"},
  "children": [
    {"id": "a", "style": {"width": 50, "height": 40, "backgroundColor": "red"}},
    {"id": "b", "style": {"width": 60, "height": 30, "marginLeft": 20, "backgroundColor": "rgba(0, 0, 255, 0.5)"}},
    {"id": "c", "style": {"width": 40, "height": 40, "borderWidth": 5, "borderColor": "#00ff00", "backgroundColor": "#000"},
     "children": [{"id": "e", "style": {"width": 10, "height": 10, "backgroundColor": "#ff0"}}]}
  ]}}
"""#

/// The bytes of a file, or nil (libc only: the renderer's tests need no Foundation).
func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    return bytes
}
