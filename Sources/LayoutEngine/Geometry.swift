/// A width and a height in points.
public struct Size: Hashable, Sendable {
    public var width: Float
    public var height: Float
    @inlinable public init(width: Float, height: Float) {
        self.width = width
        self.height = height
    }
    public static let zero = Size(width: 0, height: 0)
}

/// The space offered to a layout call: nil on an axis means undefined (no constraint).
public struct AvailableSize: Hashable, Sendable {
    public var width: Float?
    public var height: Float?
    @inlinable public init(width: Float? = nil, height: Float? = nil) {
        self.width = width
        self.height = height
    }
}

/// How a measure hook must read the size it is offered on one axis (Yoga's `YGMeasureMode`).
public enum MeasureMode: UInt8, Sendable {
    /// No constraint: return the content's natural size.
    case undefined
    /// The size is imposed: return it.
    case exactly
    /// Return at most the offered size.
    case atMost
}

/// A computed box: position relative to its parent's border box, and size.
public struct Frame: Hashable, Sendable {
    public var left: Float
    public var top: Float
    public var width: Float
    public var height: Float
    @inlinable public init(left: Float, top: Float, width: Float, height: Float) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
    }
    public static let zero = Frame(left: 0, top: 0, width: 0, height: 0)
}
