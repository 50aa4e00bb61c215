import TestSupport
@testable import LayoutWire

/// Random request text in the one-pass decoder's shape (`OnePassDecoderTests`, `FlexNodeMembersTests`):
/// every style key with values of every form it takes, measures, ids, member orders (children
/// last) and whitespace.
struct RequestGenerator {
    var random: SplitMix64
    var nodes = 0
    /// Whether leaves may be text leaves and styles may hold text properties.
    var text = false
    /// Whether a child may repeat an earlier sibling byte for byte, but for its ids.
    var repeats = false

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func request() -> String {
        var members = [#""root":"# + space() + node(depth: 0)]
        if chance(2) {
            let width = chance(3) ? "null" : number(negative: false)
            let height = chance(2) ? "null" : number(negative: false)
            members.append(#""available": {"width": \#(width),\#(space())"height":\#(height)}"#)
        }
        if chance(2) { members.append(#""direction":"# + space() + (chance(2) ? #""ltr""# : #""rtl""#)) }
        if chance(4) { members.append(#""textLines": "# + (chance(2) ? "true" : "false")) }
        members.shuffle(using: &random)
        if chance(3) {
            // Before the root, which takes its defaults.
            var settings = [#""pointScaleFactor": \#(["1", "2", "3", "0", "0.5"][Int(random.next() % 5)])"#,
                            #""useWebDefaults": \#(chance(2) ? "true" : "false")"#].filter { _ in !chance(3) }
            settings.shuffle(using: &random)
            let root = members.firstIndex { $0.hasPrefix(#""root""#) }!
            members.insert(#""config":"# + space() + "{" + settings.joined(separator: ",") + "}", at: Int(random.next() % UInt64(root + 1)))
        }
        return "{" + space() + members.joined(separator: "," + space()) + space() + "}" + space()
    }

    /// A node object with its subtree.
    mutating func node(depth: Int) -> String {
        nodes += 1
        var members: [String] = []
        if !chance(4) {
            // Non-ASCII as it stands or escaped (as Python's json.dumps writes it), and escapes
            // of ASCII characters.
            let suffix = chance(5) ? ["é", "日本", "✓", "𝄞", #"\u00e9"#, #"\ud834\udd1e"#, #"\"\\\/"#,
                                      #"\t\n"#][Int(random.next() % 8)] : ""
            members.append(#""id": "n\#(nodes)-\#(random.next() % 1000)\#(suffix)""#)
        }
        if !chance(5) { members.append(#""style":"# + space() + style()) }
        if chance(8) { members.append(#""type": "flex""#) }
        let childCount = depth < 4 && nodes < 60 ? Int(random.next() % 5) : 0
        if text && childCount == 0 && chance(2) {
            let words = ["Hello", "world", "é", "日本語", "✓", #"\n"#, #"\u00e9"#, " ", "long-word"]
            let content = (0..<Int(random.next() % 6)).map { _ in words[Int(random.next() % UInt64(words.count))] }
            members.append(#""text": ""# + content.joined(separator: " ") + #"""#)
        } else if childCount == 0 && chance(3) {
            let kind = chance(2) ? "fixed" : "benchmark-leaf"
            var parts = [#""kind": "\#(kind)""#, #""width": \#(number(negative: false))"#,
                         #""height": \#(number(negative: false))"#]
            parts.shuffle(using: &random)
            members.append(#""measure": {"# + parts.joined(separator: ",") + "}")
        }
        members.shuffle(using: &random)
        if childCount > 0 || chance(6) {
            var children: [String] = []
            for _ in 0..<childCount {
                if repeats, !children.isEmpty, !chance(3) {
                    children.append(renamingIDs(children[Int(random.next() % UInt64(children.count))]))
                } else {
                    children.append(node(depth: depth + 1))
                }
            }
            members.append(#""children":"# + space() + "[" + children.joined(separator: "," + space()) + space() + "]")
        }
        return "{" + space() + members.joined(separator: "," + space()) + "}"
    }

    /// `node` with every id given a new prefix (of another length, sometimes escaped).
    private mutating func renamingIDs(_ node: String) -> String {
        let prefix = ["r", "rr\(random.next() % 100)", #"\u0072"#, "ré", ""][Int(random.next() % 5)]
        return node.replacingOccurrences(of: #""id": "n"#, with: #""id": "\#(prefix)n"#)
    }

    private mutating func style() -> String {
        var members: [String] = []
        for (name, property) in StyleProperty.all where chance(6) {
            if case .text(let textProperty) = property {
                if text { members.append("\"\(name)\":" + space() + value(for: textProperty)) }
                continue
            }
            members.append("\"\(name)\":" + space() + value(for: property))
        }
        members.shuffle(using: &random)
        return "{" + members.joined(separator: "," + space()) + "}"
    }

    private mutating func value(for property: StyleProperty) -> String {
        if let keywords = property.keywords {
            // `"a", "b" or "c"`: the odd pieces between quotes are the names.
            let names = keywords.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map(\.element)
            return "\"\(names[Int(random.next() % UInt64(names.count))])\""
        }
        switch property {
        case .flex: return number(negative: true)
        case .flexGrow, .flexShrink, .aspectRatio: return number(negative: false)
        default:
            let forms = property.forms
            var choices = [number(negative: forms.contains(.negative))]
            if forms.contains(.percent) { choices.append("\"\(number(negative: forms.contains(.negative)))%\"") }
            if forms.contains(.auto) { choices.append(#""auto""#) }
            if forms.contains(.intrinsic) { choices += [#""max-content""#, #""fit-content""#, #""stretch""#] }
            return choices[Int(random.next() % UInt64(choices.count))]
        }
    }

    /// A value the text property takes, in one of its forms.
    private mutating func value(for property: TextProperty) -> String {
        func pick(_ choices: [String]) -> String { choices[Int(random.next() % UInt64(choices.count))] }
        switch property {
        case .fontFamily: return pick([#""DejaVu Sans""#, #""Inter, sans-serif""#, #"" 'DejaVu Serif' , monospace""#, #""x""#])
        case .fontSize: return pick(["12", "16.5", "1e1", "10000", "0.25"])
        case .fontWeight: return pick(["400", "700.4", "1", "1000", #""bold""#, #""normal""#, #""600""#])
        case .fontStyle: return pick([#""normal""#, #""italic""#])
        case .lineHeight: return pick(["20", "0", "1.5", #""normal""#, #""150%""#, #""0%""#])
        case .letterSpacing: return pick(["0", "-1.5", "2", "-10000"])
        case .textAlign: return pick([#""left""#, #""right""#, #""center""#, #""start""#, #""end""#, #""justify""#])
        case .whiteSpace: return pick([#""normal""#, #""nowrap""#, #""pre""#, #""pre-wrap""#, #""pre-line""#])
        case .overflowWrap: return pick([#""normal""#, #""break-word""#, #""anywhere""#])
        case .maxLines: return pick(["0", "1", "3", "1000000"])
        case .textOverflow: return pick([#""clip""#, #""ellipsis""#])
        }
    }

    /// A number in one of JSON's spellings: integers, fractions, exponents, negative zero.
    private mutating func number(negative: Bool) -> String {
        let sign = negative && chance(2) ? "-" : ""
        switch random.next() % 5 {
        case 0: return sign + String(random.next() % 400)
        case 1: return sign + String(random.next() % 400) + "." + String(random.next() % 1000)
        case 2: return sign + String(random.next() % 9 + 1) + "e" + String(random.next() % 3)
        case 3: return sign + "0.5E-1"
        default: return negative ? "-0" : "0"
        }
    }

    private mutating func space() -> String {
        [" ", "", "\n  ", "", "\t", ""][Int(random.next() % 6)]
    }

    /// True one time in `n`.
    private mutating func chance(_ n: UInt64) -> Bool { random.next() % n == 0 }
}
