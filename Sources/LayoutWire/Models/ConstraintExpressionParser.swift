import LayoutEngine

/// The compact string form of a constraint, as Auto Layout's descriptions read:
///
///     title.leading == icon.trailing + 8 @750
///     title.width >= 0.5 * container.width - 4
///     chevron.width == 20 @required
///
/// `first relation rhs [@ priority]`: relation `==` (or `=`), `<=`, `>=`; rhs a sum of at most
/// one anchor term (`anchor`, `k * anchor` or `anchor * k`) and numbers; priority a number in
/// (0, 1000] or `required`, `high`, `low`. Item ids in this form are `[A-Za-z_][A-Za-z0-9_]*`
/// (use the object form for other ids). The label is the string itself.
struct ConstraintExpressionParser {
    let base: ConstraintNodeBase
    private var bytes: [UInt8]
    private var at = 0

    init(text: String, base: ConstraintNodeBase) {
        self.base = base
        bytes = Array(text.utf8)
    }

    static func relation(_ text: String) -> LinearRelation? {
        switch text {
        case "==", "=": return .equal
        case "<=": return .lessThanOrEqual
        case ">=": return .greaterThanOrEqual
        default: return nil
        }
    }

    static func namedPriority(_ text: String) -> LayoutPriority? {
        switch text {
        case "required": return .required
        case "high": return .defaultHigh
        case "low": return .defaultLow
        default: return nil
        }
    }

    private enum Token: Equatable {
        case name(String), number(Double), symbol(String), end
    }

    mutating func parse() -> Result<LayoutConstraint, ConstraintSyntaxError> {
        do { return .success(try parseConstraint()) } catch { return .failure(error) }
    }

    private mutating func parseConstraint() throws(ConstraintSyntaxError) -> LayoutConstraint {
        let first = try anchorNamed(try expectName("the first anchor"))
        guard case .symbol(let op) = next(), let relation = Self.relation(op) else {
            throw ConstraintSyntaxError("expected ==, <= or >= after the first anchor")
        }
        var second: LayoutAnchor?
        var multiplier = 1.0, constant = 0.0
        var sign = 1.0
        if peek() == .symbol("-") { _ = next(); sign = -1 } else if peek() == .symbol("+") { _ = next() }
        while true {
            // One term: number, number * anchor, anchor, anchor * number.
            var factor = sign
            var anchor: LayoutAnchor?
            switch next() {
            case .number(let n):
                factor *= n
                if peek() == .symbol("*") {
                    _ = next()
                    anchor = try anchorNamed(try expectName("an anchor after *"))
                }
            case .name(let name):
                anchor = try anchorNamed(name)
                if peek() == .symbol("*") {
                    _ = next()
                    guard case .number(let n) = next() else { throw ConstraintSyntaxError("expected a number after *") }
                    factor *= n
                }
            default:
                throw ConstraintSyntaxError("expected a number or an anchor")
            }
            if let anchor {
                guard second == nil else { throw ConstraintSyntaxError("at most one anchor may follow the relation") }
                second = anchor
                multiplier = factor
            } else {
                constant += factor
            }
            switch peek() {
            case .symbol("+"): _ = next(); sign = 1
            case .symbol("-"): _ = next(); sign = -1
            default:
                var priority = LayoutPriority.required
                if peek() == .symbol("@") {
                    _ = next()
                    switch next() {
                    case .number(let p):
                        guard p > 0 && p <= 1000 else { throw ConstraintSyntaxError("priority must be in (0, 1000]") }
                        priority = LayoutPriority(p)
                    case .name(let name):
                        guard let p = Self.namedPriority(name) else {
                            throw ConstraintSyntaxError("unknown priority \"\(name)\"; expected a number, required, high or low")
                        }
                        priority = p
                    default:
                        throw ConstraintSyntaxError("expected a priority after @")
                    }
                }
                guard next() == .end else { throw ConstraintSyntaxError("unexpected text after the constraint") }
                guard constant.isFinite, multiplier.isFinite else { throw ConstraintSyntaxError("numbers must be finite") }
                return LayoutConstraint(first, relation, second, multiplier: multiplier, constant: constant, priority: priority)
            }
        }
    }

    private func anchorNamed(_ name: String) throws(ConstraintSyntaxError) -> LayoutAnchor {
        let (anchor, problem) = base.anchor(name)
        guard let anchor else { throw ConstraintSyntaxError(problem ?? "bad anchor", code: "unknown-value") }
        return anchor
    }

    private mutating func expectName(_ what: String) throws(ConstraintSyntaxError) -> String {
        guard case .name(let name) = next() else { throw ConstraintSyntaxError("expected \(what)") }
        return name
    }

    private mutating func peek() -> Token {
        let saved = at
        let token = next()
        at = saved
        return token
    }

    private mutating func next() -> Token {
        while at < bytes.count && bytes[at] == UInt8(ascii: " ") { at += 1 }
        guard at < bytes.count else { return .end }
        let start = at
        let c = bytes[at]
        if Self.isNameStart(c) {
            while at < bytes.count && (Self.isNameStart(bytes[at]) || Self.isDigit(bytes[at]) || bytes[at] == UInt8(ascii: ".")) {
                at += 1
            }
            return .name(String(decoding: bytes[start..<at], as: UTF8.self))
        }
        if Self.isDigit(c) || c == UInt8(ascii: ".") {
            while at < bytes.count && (Self.isDigit(bytes[at]) || bytes[at] == UInt8(ascii: ".")) { at += 1 }
            guard let value = Double(String(decoding: bytes[start..<at], as: UTF8.self)) else {
                return .symbol(String(decoding: bytes[start..<at], as: UTF8.self))
            }
            return .number(value)
        }
        for op in ["==", "<=", ">="] where bytes[at...].starts(with: op.utf8) {
            at += 2
            return .symbol(op)
        }
        at += 1
        return .symbol(String(decoding: [c], as: UTF8.self))
    }

    private static func isNameStart(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || c == UInt8(ascii: "_")
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}

/// Why a constraint string could not be read, with the error code the object form gives for
/// the same mistake (`unknown-value` for an anchor naming no item or no anchor kind).
struct ConstraintSyntaxError: Error {
    var reason: String
    var code: String
    init(_ reason: String, code: String = "invalid-value") {
        self.reason = reason
        self.code = code
    }
}
