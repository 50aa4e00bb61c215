import LayoutWire

/// The frames of `/compute` answers by node pointer, for the checks that compare a patch's
/// answers with the patched document's (the patch tests and the patch fuzzer).
public enum AnswerFrames {
    /// Each node's frame in a whole answer (left, top, width, height), by its JSON pointer
    /// (`/root/children/2`); empty when the body has no root.
    public static func frames(of answer: [UInt8]) -> [String: [Double]] {
        var frames: [String: [Double]] = [:]
        guard let root = try? JSONValue.parse(bytes: answer)["root"] else { return frames }
        var pending: [(JSONValue, String)] = [(root, "/root")]
        while let (node, pointer) = pending.popLast() {
            frames[pointer] = edges(of: node)
            for (k, child) in (node["children"]?.elements ?? []).enumerated() { pending.append((child, pointer + "/children/\(k)")) }
        }
        return frames
    }

    /// `frames` with a `changesOnly` answer applied: the pointers removed dropped with
    /// everything under them, the changed frames set; nil when the answer does not read as one.
    public static func applying(changes answer: [UInt8], to frames: [String: [Double]]) -> [String: [Double]]? {
        guard let object = try? JSONValue.parse(bytes: answer), let changes = object["changes"]?.elements else { return nil }
        var result = frames
        for removed in object["removed"]?.elements ?? [] {
            guard let pointer = removed.stringValue else { return nil }
            result = result.filter { $0.key != pointer && !$0.key.hasPrefix(pointer + "/") }
        }
        for change in changes {
            guard let pointer = change["pointer"]?.stringValue else { return nil }
            result[pointer] = edges(of: change)
        }
        return result
    }

    /// `frames` (by pointer, of `document`'s nodes) carried through `patch` as a client that
    /// applies it to its own tree of nodes carries them (`changesBy: node`): each frame moves
    /// with its node object; a node the patch adds, copies or puts in place of another has
    /// none. nil when the patch does not apply to `document`.
    public static func carried(_ frames: [String: [Double]], by patch: JSONPatch, document: JSONTree) -> [String: [Double]]? {
        // Each node object holds its frame under a key no request uses, while the patch runs.
        let key = "\u{1}frame"
        func annotated(_ node: JSONTree, _ pointer: String) -> JSONTree {
            guard case .object(var members) = node else { return node }
            for k in members.indices where members[k].key == "children" {
                if case .array(let children) = members[k].value {
                    members[k].value = .array(children.enumerated().map { annotated($1, pointer + "/children/\($0)") })
                }
            }
            if let frame = frames[pointer] { members.append(JSONMember(key: key, value: .array(frame.map { .number($0) }))) }
            return .object(members)
        }
        func stripped(_ node: JSONTree) -> JSONTree {
            guard case .object(let members) = node else { return node }
            return .object(members.filter { $0.key != key }.map { member in
                guard member.key == "children", case .array(let children) = member.value else { return member }
                return JSONMember(key: member.key, value: .array(children.map(stripped)))
            })
        }
        guard case .object(var top) = document, let rootAt = top.firstIndex(where: { $0.key == "root" }) else { return nil }
        top[rootAt].value = annotated(top[rootAt].value, "/root")
        var tree = JSONTree.object(top)
        var count = 0
        for operation in patch.operations {
            guard (try? JSONPatch(operations: [operation]).apply(to: &tree, valueCount: &count, maxValues: .max, maxNesting: 1_000)) != nil
            else { return nil }
            // A copy is a new node, whatever frame its source had.
            if operation.kind == .copy {
                var path = operation.path
                // `-` appended it: the array's last element.
                if path.last == "-", case .array(let items)? = tree.value(at: path.dropLast()) {
                    path[path.count - 1] = String(items.count - 1)
                }
                if let node = tree.value(at: path) { tree = replacing(path, in: tree, with: stripped(node)) }
            }
        }
        var carried: [String: [Double]] = [:]
        var pending: [(JSONTree, String)] = tree["root"].map { [($0, "/root")] } ?? []
        while let (node, pointer) = pending.popLast() {
            if case .array(let frame)? = node[key] {
                carried[pointer] = frame.map { if case .number(let value) = $0 { return value } else { return .nan } }
            }
            if case .array(let children)? = node["children"] {
                for (k, child) in children.enumerated() { pending.append((child, pointer + "/children/\(k)")) }
            }
        }
        return carried
    }

    /// `tree` with the value at `path` (which exists) replaced by `value`.
    private static func replacing(_ path: [String], in tree: JSONTree, with value: JSONTree) -> JSONTree {
        guard let token = path.first else { return value }
        let rest = Array(path.dropFirst())
        switch tree {
        case .object(var members):
            if let k = members.firstIndex(where: { $0.key == token }) { members[k].value = replacing(rest, in: members[k].value, with: value) }
            return .object(members)
        case .array(var items):
            if let k = Int(token), items.indices.contains(k) { items[k] = replacing(rest, in: items[k], with: value) }
            return .array(items)
        default:
            return tree
        }
    }

    private static func edges(of node: JSONValue) -> [Double] {
        ["left", "top", "width", "height"].map { node[$0]?.doubleValue ?? .nan }
    }
}

extension JSONTree {
    /// The value at `path` (tokens of a JSON pointer; `-` names nothing), or nil.
    public func value(at path: some Collection<String>) -> JSONTree? {
        var current = self
        for token in path {
            switch current {
            case .object: guard let next = current[token] else { return nil }; current = next
            case .array(let items): guard let k = Int(token), items.indices.contains(k) else { return nil }; current = items[k]
            default: return nil
            }
        }
        return current
    }
}
