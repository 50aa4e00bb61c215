extension CoreLayout {
    /// A computed layout: the box's frame (relative to its parent, in whole points, as Core
    /// Layout rounds them), its identifier, and its children's computed layouts.
    public struct ComputedLayout: Hashable, Sendable {
        public var identifier: String?
        public var frame: Frame
        public var children: [ComputedLayout]

        public init(identifier: String? = nil, frame: Frame, children: [ComputedLayout] = []) {
            self.identifier = identifier
            self.frame = frame
            self.children = children
        }

        /// The first computed layout in this tree (pre-order, self included) with `identifier`.
        public func first(identifier: String) -> ComputedLayout? {
            if self.identifier == identifier { return self }
            for child in children {
                if let found = child.first(identifier: identifier) { return found }
            }
            return nil
        }
    }
}

extension CoreLayout.ComputedLayout: CustomStringConvertible, CustomDebugStringConvertible {
    /// The tree written as a Swift initializer of itself, two spaces per level, as Core
    /// Layout prints it (so it can be pasted into a test):
    ///
    ///     ComputedLayout(
    ///       frame: CGRect(x: 0.0, y: 0.0, width: 160.0, height: 284.0),
    ///       children: [
    ///         ComputedLayout(frame: CGRect(x: 8.0, y: 8.0, width: 144.0, height: 44.0))
    ///       ]
    ///     )
    ///
    /// An identifier, when set, is written before the frame.
    public var description: String {
        var text = ""
        write(to: &text, indent: 0)
        return text
    }

    public var debugDescription: String { description }

    private func write(to text: inout String, indent: Int) {
        let pad = String(repeating: " ", count: indent)
        var fields = ""
        if let identifier { fields += "identifier: \(Self.quoted(identifier)), " }
        fields += "frame: CGRect(x: \(frame.left), y: \(frame.top), width: \(frame.width), height: \(frame.height))"
        guard !children.isEmpty else {
            text += pad + "ComputedLayout(" + fields + ")"
            return
        }
        let inner = String(repeating: " ", count: indent + 2)
        text += pad + "ComputedLayout(\n" + inner + fields + ",\n" + inner + "children: [\n"
        for (index, child) in children.enumerated() {
            if index > 0 { text += ",\n" }
            child.write(to: &text, indent: indent + 4)
        }
        text += "\n" + inner + "]\n" + pad + ")"
    }

    /// A Swift string literal for `value`.
    private static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
