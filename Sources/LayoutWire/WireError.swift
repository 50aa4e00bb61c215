/// Why a request could not be decoded: what kind of fault, a stable machine-readable `code`, a
/// message for people, and where: a JSON pointer (RFC 6901) into the request and, for syntax
/// errors, the byte offset. The wire knows no protocol: a server maps `kind` to its own answer
/// (the layout service: `ServiceError`, which also writes the error body).
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The three kinds of fault a client fixes differently.
    public enum Kind: Hashable, Sendable {
        /// The body is not JSON (`invalid-json`, `invalid-utf8`).
        case malformed
        /// The body is over a `WireLimits` bound (`document-too-large`, `too-deep`,
        /// `string-too-long`, `too-many-nodes`, `too-many-constraints`,
        /// `reference-chain-too-long`).
        case overLimit
        /// Valid JSON that is not a valid layout (`wrong-type`, `unknown-key`, `unknown-value`,
        /// `missing-key`, `invalid-value`, `duplicate-key`, `measure-with-children`,
        /// `invalid-style`, `unsatisfiable-constraints`, ...).
        case invalid
    }

    public var kind: Kind
    public var code: String
    public var message: String
    /// RFC 6901 pointer to the offending value, relative to the decoded document.
    public var pointer: String?
    /// Byte offset into the document, for errors found while parsing.
    public var offset: Int?
    /// For `unsatisfiable-constraints`: a pointer to each conflicting constraint.
    public var conflicts: [String]?

    public init(_ kind: Kind, code: String, message: String, pointer: String? = nil, offset: Int? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.pointer = pointer
        self.offset = offset
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let pointer { text += " at \(pointer.isEmpty ? "(document)" : pointer)" }
        if let offset { text += " (byte \(offset))" }
        return text
    }

    /// The same error with `prefix` put in front of its pointer (errors are raised relative to
    /// the value being decoded; callers that know where that value sits add the rest).
    public func prefixed(by prefix: String) -> WireError {
        var copy = self
        copy.pointer = prefix + (pointer ?? "")
        copy.conflicts = conflicts?.map { prefix + $0 }
        return copy
    }

    // Constructors for the common cases, so messages stay uniform.
    static func syntax(_ message: String, at offset: Int) -> WireError {
        WireError(.malformed, code: "invalid-json", message: message, offset: offset)
    }
    static func invalid(_ code: String, _ message: String, pointer: String = "") -> WireError {
        WireError(.invalid, code: code, message: message, pointer: pointer)
    }
    static func tooLarge(_ code: String, _ message: String, pointer: String? = nil, offset: Int? = nil) -> WireError {
        WireError(.overLimit, code: code, message: message, pointer: pointer, offset: offset)
    }
}

/// RFC 6901 pointers.
public enum JSONPointer {
    /// One reference token, escaped: `~` becomes `~0` and `/` becomes `~1`.
    public static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var out = ""
        for ch in token.unicodeScalars {
            switch ch {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// The pointer of a node: `/root`, then for each level down, the parent's array
    /// (`children`, or a constraint container's `items`), the position in it, and `/node` where
    /// the item wraps its node. Appended piece by piece into one buffer: every text leaf keeps
    /// its pointer, so both decoders build one per leaf.
    static func node<Levels: Collection>(
        _ levels: Levels, _ level: (Levels.Element) -> (items: Bool, position: Int, nested: Bool)
    ) -> String {
        var text = "/root"
        text.reserveCapacity(5 + 16 * levels.count)
        for element in levels {
            let (items, position, nested) = level(element)
            text += items ? "/items/" : "/children/"
            text += String(position)
            if items && nested { text += "/node" }
        }
        return text
    }

    /// `/a/b/0` from its unescaped parts.
    public static func make(_ tokens: [String]) -> String {
        tokens.map { "/" + escape($0) }.joined()
    }
}
