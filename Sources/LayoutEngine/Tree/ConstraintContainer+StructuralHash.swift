// The structural hash of `.constraints` content: every field that decides the solution, in a
// fixed order, through the keyed `StructuralHasher` (never Swift's `Hasher`, whose seed the
// service does not control).

extension StructuralHasher {
    mutating func combine(constraintContainer c: ConstraintContainer) {
        let layout = c.layout
        combine(UInt64(layout.items.count))
        for item in layout.items {
            combine(item.name)
            combine(double: item.intrinsicWidth)
            combine(double: item.intrinsicHeight)
            combine(double: item.horizontalHugging.rawValue)
            combine(double: item.verticalHugging.rawValue)
            combine(double: item.horizontalCompressionResistance.rawValue)
            combine(double: item.verticalCompressionResistance.rawValue)
            combine(margins: item.layoutMargins)
        }
        combine(UInt64(layout.constraints.count))
        for k in layout.constraints {
            combine(anchor: k.first)
            combine(UInt64(k.relation.rawValue))
            if let second = k.second {
                combine(UInt64(1))
                combine(anchor: second)
            } else {
                combine(UInt64(0))
            }
            combine(double: k.multiplier)
            combine(double: k.constant)
            combine(double: k.priority.rawValue)
            combine(k.label)
        }
        combine(margins: layout.containerMargins)
        combine(UInt64(c.intrinsicFromChild.count))
        for axes in c.intrinsicFromChild { combine(UInt64(axes.rawValue)) }
        combine(UInt64(c.limits.maxVariables))
        combine(UInt64(c.limits.maxConstraints))
        combine(UInt64(c.limits.maxPivotsPerOperation))
        combine(UInt64(c.limits.maxConflictSearch))
    }

    private mutating func combine(anchor a: LayoutAnchor) {
        switch a.item {
        case .container: combine(UInt64.max)
        case .item(let i): combine(UInt64(bitPattern: Int64(i)))
        }
        combine(UInt64(a.kind.rawValue))
    }

    private mutating func combine(margins m: LayoutMargins) {
        combine(double: m.top)
        combine(double: m.leading)
        combine(double: m.bottom)
        combine(double: m.trailing)
    }

    private mutating func combine(double value: Double) {
        combine(value == 0 ? 0 : value.bitPattern)
    }

    private mutating func combine(double value: Double?) {
        if let value {
            combine(UInt64(1))
            combine(double: value)
        } else {
            combine(UInt64(0))
        }
    }
}
