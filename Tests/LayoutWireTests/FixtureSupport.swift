import Foundation
@testable import LayoutWire

/// Locates the shared fixtures from this file's path.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/yoga")

    static func files() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
}

/// Nodes under a node object, counted through the JSON accessors (independently of the decoder).
func countNodes(_ node: JSONValue) -> Int {
    var count = 0
    var pending = [node]
    while let next = pending.popLast() {
        count += 1
        pending.append(contentsOf: next["children"]?.elements ?? [])
    }
    return count
}
