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

    private static func edges(of node: JSONValue) -> [Double] {
        ["left", "top", "width", "height"].map { node[$0]?.doubleValue ?? .nan }
    }
}
