/// A length in the style model: points, a percentage, `auto`, one of the intrinsic sizing
/// keywords, or undefined (not set). Eight bytes, so styles stay compact and hash fast.
public struct StyleValue: Hashable, Sendable {
    /// What `value` means.
    public enum Unit: UInt8, Sendable {
        case undefined, points, percent, auto, maxContent, fitContent, stretch
    }

    public var unit: Unit
    /// The number for `.points` and `.percent`; 0 for every other unit.
    public var value: Float

    @inlinable public init(unit: Unit, value: Float) {
        self.unit = unit
        self.value = (unit == .points || unit == .percent) ? value : 0
    }

    // Computed, not stored: a stored static is a lazily initialised global, read through an
    // accessor (a `swift_once` check) at every use; these fold to constants.
    @inlinable public static var undefined: StyleValue { StyleValue(unit: .undefined, value: 0) }
    @inlinable public static var auto: StyleValue { StyleValue(unit: .auto, value: 0) }
    @inlinable public static var maxContent: StyleValue { StyleValue(unit: .maxContent, value: 0) }
    @inlinable public static var fitContent: StyleValue { StyleValue(unit: .fitContent, value: 0) }
    @inlinable public static var stretch: StyleValue { StyleValue(unit: .stretch, value: 0) }
    @inlinable public static func points(_ value: Float) -> StyleValue { StyleValue(unit: .points, value: value) }
    @inlinable public static func percent(_ value: Float) -> StyleValue { StyleValue(unit: .percent, value: value) }

    @inlinable public var isUndefined: Bool { unit == .undefined }
    @inlinable public var isAuto: Bool { unit == .auto }
    /// True for the keywords `max-content`, `fit-content` and `stretch`.
    @inlinable public var isIntrinsicKeyword: Bool { unit == .maxContent || unit == .fitContent || unit == .stretch }

    /// The value in points against `reference` (the containing block's size on the relevant
    /// axis), or nil when it has no definite value (undefined, auto, a keyword, or a percentage
    /// of an undefined reference).
    @inlinable public func resolve(against reference: Float?) -> Float? {
        switch unit {
        case .points: return value
        case .percent:
            guard let reference else { return nil }
            return value * reference * 0.01
        default: return nil
        }
    }
}

extension StyleValue: CustomStringConvertible {
    public var description: String {
        switch unit {
        case .undefined: return "undefined"
        case .points: return "\(value)"
        case .percent: return "\(value)%"
        case .auto: return "auto"
        case .maxContent: return "max-content"
        case .fitContent: return "fit-content"
        case .stretch: return "stretch"
        }
    }
}
