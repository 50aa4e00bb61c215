/// Per-layout settings, as Yoga's `YGConfig` holds them.
public struct LayoutConfig: Hashable, Sendable {
    /// Physical pixels per point for pixel-grid rounding. 1 rounds to whole points; 0 turns
    /// rounding off.
    public var pointScaleFactor: Float = 1
    /// Yoga's `useWebDefaults`: new styles default to row and alignContent stretch, and
    /// flexShrink defaults to 1.
    public var useWebDefaults: Bool = false
    /// Yoga's errata: deliberate deviations from the spec kept for compatibility.
    public var errata: Errata = .minSizeUndefinedInsteadOfAuto
    public var experimentalFeatures: ExperimentalFeatures = []

    public init(pointScaleFactor: Float = 1, useWebDefaults: Bool = false,
                errata: Errata = .minSizeUndefinedInsteadOfAuto,
                experimentalFeatures: ExperimentalFeatures = []) {
        self.pointScaleFactor = pointScaleFactor
        self.useWebDefaults = useWebDefaults
        self.errata = errata
        self.experimentalFeatures = experimentalFeatures
    }
}

/// Yoga's `YGErrata` bits, with the names Yoga uses in kebab case on the wire.
public struct Errata: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let stretchFlexBasis = Errata(rawValue: 1 << 0)
    public static let absolutePositionWithoutInsetsExcludesPadding = Errata(rawValue: 1 << 1)
    public static let absolutePercentAgainstInnerSize = Errata(rawValue: 1 << 2)
    public static let minSizeUndefinedInsteadOfAuto = Errata(rawValue: 1 << 3)
    public static let none: Errata = []
    /// Every erratum, present and future, as Yoga's `YGErrataAll`.
    public static let all = Errata(rawValue: 0x7FFF_FFFF)
    /// Yoga's `YGErrataClassic`: every erratum except `stretchFlexBasis`.
    public static let classic = Errata(rawValue: 0x7FFF_FFFE)

    /// Names accepted on the wire, each with its bits.
    public static let named: [(name: String, errata: Errata)] = [
        ("none", .none),
        ("stretch-flex-basis", .stretchFlexBasis),
        ("absolute-position-without-insets-excludes-padding", .absolutePositionWithoutInsetsExcludesPadding),
        ("absolute-percent-against-inner-size", .absolutePercentAgainstInnerSize),
        ("min-size-undefined-instead-of-auto", .minSizeUndefinedInsteadOfAuto),
        ("classic", .classic),
        ("all", .all),
    ]
}

/// Yoga's experimental features.
public struct ExperimentalFeatures: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let webFlexBasis = ExperimentalFeatures(rawValue: 1 << 0)
    public static let fixFlexBasisFitContent = ExperimentalFeatures(rawValue: 1 << 1)

    public static let named: [(name: String, feature: ExperimentalFeatures)] = [
        ("web-flex-basis", .webFlexBasis),
        ("fix-flex-basis-fit-content", .fixFlexBasisFitContent),
    ]
}
