/// A style value the engine refuses: NaN, an infinity, or a negative number where CSS forbids
/// one. Raised at the model's boundary so the layout pass never sees it.
public struct StyleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The property, in the wire's spelling (`width`, `marginLeft`, `flexGrow`, ...).
    public var property: String
    public var reason: String

    public init(property: String, reason: String) {
        self.property = property
        self.reason = reason
    }

    public var description: String { "\(property): \(reason)" }
}
