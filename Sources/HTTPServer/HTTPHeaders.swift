/// An ordered list of header fields. Names keep their spelling; look-ups ignore ASCII case.
public struct HTTPHeaders: Sequence, Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Element = (name: String, value: String)

    @usableFromInline var fields: [Element]

    public init() { fields = [] }

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the field `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        for field in fields where Self.equalsIgnoringCase(field.name, name) { return field.value }
        return nil
    }

    /// Every value of the field `name`, in order.
    public func values(for name: String) -> [String] {
        fields.compactMap { Self.equalsIgnoringCase($0.name, name) ? $0.value : nil }
    }

    /// Whether a field `name` is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field (keeps existing ones with the same name).
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field `name` with a single one.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        fields.append((name: name, value: value))
    }

    /// Removes every field `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.equalsIgnoringCase($0.name, name) }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Element]> { fields.makeIterator() }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison without allocating.
    static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { ua in
            b.withUTF8 { ub in
                guard ua.count == ub.count else { return false }
                for i in 0..<ua.count where asciiLower(ua[i]) != asciiLower(ub[i]) { return false }
                return true
            }
        }
    }
}

@inline(__always)
func asciiLower(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
}
