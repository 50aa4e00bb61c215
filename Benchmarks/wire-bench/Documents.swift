import Foundation

/// The documents the benchmark decodes: a conformance file and generated trees.
enum Documents {
    /// A request with `count` nodes: a root, then rows of 10 children, each node with a few
    /// style keys and an id, about what a client sends for a list screen.
    static func generatedTree(nodes count: Int) -> [UInt8] {
        var text = #"{"available":{"width":375,"height":null},"direction":"ltr","config":{"pointScaleFactor":2},"root":"#
        var made = 0
        func node(depth: Int, index: Int) {
            made += 1
            text += #"{"id":"n\#(made)","style":{"#
            switch depth % 3 {
            case 0: text += #""flexDirection":"row","padding":8,"width":"100%","alignItems":"center""#
            case 1: text += #""flexGrow":1,"marginLeft":4,"marginRight":4,"height":44,"justifyContent":"space-between""#
            default: text += #""width":\#(20 + index),"height":20,"flexShrink":0"#
            }
            text += "}"
            // Breadth: up to 10 children per node, while nodes remain.
            let remaining = count - made
            if remaining > 0 && depth < 6 {
                let children = min(10, remaining)
                if depth >= 2 && children > 0 && made % 3 == 0 {
                    text += #","measure":{"kind":"fixed","width":\#(index * 3),"height":16}"#
                } else {
                    text += #","children":["#
                    var first = true
                    for i in 0..<children where made < count {
                        if !first { text += "," }
                        first = false
                        node(depth: depth + 1, index: i)
                    }
                    text += "]"
                }
            }
            text += "}"
        }
        node(depth: 0, index: 0)
        text += "}"
        return Array(text.utf8)
    }

    static func conformanceFile(_ name: String) -> [UInt8]? {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let url = here.appendingPathComponent("../../Tests/Fixtures/yoga/\(name)").standardizedFileURL
        return (try? Data(contentsOf: url)).map { [UInt8]($0) }
    }
}

// MARK: Codable mirror of the request format, for JSONDecoder.

struct CodableRequest: Decodable {
    var root: CodableNode
    var available: CodableAvailable?
    var direction: String?
    var config: CodableConfig?
}

struct CodableAvailable: Decodable {
    var width: Double?
    var height: Double?
}

struct CodableConfig: Decodable {
    var pointScaleFactor: Double?
    var useWebDefaults: Bool?
    var errata: String?
    var experimentalFeatures: [String]?
}

struct CodableNode: Decodable {
    var id: String?
    var style: [String: CodableStyleValue]?
    var children: [CodableNode]?
    var measure: CodableMeasure?
}

enum CodableStyleValue: Decodable {
    case number(Double)
    case string(String)
    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) { self = .number(number) } else {
            self = .string(try container.decode(String.self))
        }
    }
}

struct CodableMeasure: Decodable {
    var kind: String
    var text: String?
    var width: Double?
    var height: Double?
}
