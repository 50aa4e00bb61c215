import LayoutEngine

// FlexibleLayout's spacer groups on the wire (the `groups` member of a `flexible-spaces` node):
//
//   {"axis": "h" | "v", "spaces": [space], "minimalSize"?: {"coefficient": 1, "value": 32}}
//   space: {"from": "container.leading", "to": "first.leading", "coefficient": 2}
//        | {"from": "first.leading", "to": "container.leading", "reversedWith": 2}
//
// `from` is the left / top side and `to` the right / bottom one; `reversedWith` swaps them, as
// the library's `reversedWith` does. Coefficients relate only within one group.

extension RequestDecoder {
    func decodeSpaceGroups(_ index: Int, _ base: ConstraintNodeBase) throws(WireError) -> [FlexibleSpaceGroup] {
        try decodeElements(index) { (i: Int) throws(WireError) in try decodeSpaceGroup(i, base) }
    }

    private func decodeSpaceGroup(_ index: Int, _ base: ConstraintNodeBase) throws(WireError) -> FlexibleSpaceGroup {
        try expect(index, .object, "a group", "")
        var group = FlexibleSpaceGroup(axis: .horizontal, spaces: [])
        var hasAxis = false, spaces = -1
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "axis") {
                group.axis = try axis(value, pointer: "/axis")
                hasAxis = true
            } else if doc.equals(key, "spaces") {
                try expect(value, .array, "spaces", "/spaces")
                spaces = value
            } else if doc.equals(key, "minimalSize") {
                group.minimalSize = try within("/minimalSize") { () throws(WireError) in try minimalSize(value) }
            } else {
                throw unknownKey(key, in: "a group", accepted: "axis, spaces, minimalSize", pointer: "")
            }
        }
        guard hasAxis else { throw .invalid("missing-key", "a group needs an \"axis\": \"h\" or \"v\"", pointer: "") }
        guard spaces >= 0 else { throw .invalid("missing-key", "a group needs \"spaces\"", pointer: "") }
        group.spaces = try within("/spaces") { () throws(WireError) in
            try decodeElements(spaces) { (k: Int) throws(WireError) in try decodeSpace(k, base) }
        }
        return group
    }

    private func decodeSpace(_ index: Int, _ base: ConstraintNodeBase) throws(WireError) -> FlexibleSpace {
        try expect(index, .object, "a space", "")
        var from: LayoutAnchor?, to: LayoutAnchor?, coefficient: Double?, reversed: Double?
        for (key, value) in doc.members(of: index) {
            if doc.equals(key, "from") { from = try anchor(value, base, pointer: "/from") }
            else if doc.equals(key, "to") { to = try anchor(value, base, pointer: "/to") }
            else if doc.equals(key, "coefficient") { coefficient = try positive(value, "coefficient", pointer: "/coefficient") }
            else if doc.equals(key, "reversedWith") { reversed = try positive(value, "reversedWith", pointer: "/reversedWith") }
            else { throw unknownKey(key, in: "a space", accepted: "from, to, coefficient, reversedWith", pointer: "") }
        }
        guard let from else { throw .invalid("missing-key", "a space needs \"from\"", pointer: "") }
        guard let to else { throw .invalid("missing-key", "a space needs \"to\"", pointer: "") }
        switch (coefficient, reversed) {
        case (let c?, nil): return from.to(to).with(c)
        case (nil, let c?): return from.to(to).reversedWith(c)
        case (nil, nil): throw .invalid("missing-key", "a space needs a \"coefficient\" (or \"reversedWith\")", pointer: "")
        default: throw .invalid("invalid-value", "a space takes coefficient or reversedWith, not both", pointer: "/reversedWith")
        }
    }

    private func minimalSize(_ index: Int) throws(WireError) -> MinimalCoefficientSize {
        try expect(index, .object, "minimalSize", "")
        var coefficient: Double?, value: Double?
        for (key, v) in doc.members(of: index) {
            if doc.equals(key, "coefficient") { coefficient = try positive(v, "coefficient", pointer: "/coefficient") }
            else if doc.equals(key, "value") { value = try double(v, "value", pointer: "/value") }
            else { throw unknownKey(key, in: "minimalSize", accepted: "coefficient, value", pointer: "") }
        }
        guard let value else { throw .invalid("missing-key", "minimalSize needs a \"value\"", pointer: "") }
        return MinimalCoefficientSize(coefficient: coefficient ?? 1, value: value)
    }

    private func positive(_ index: Int, _ what: String, pointer: String) throws(WireError) -> Double {
        let v = try double(index, what, pointer: pointer)
        guard v > 0 else { throw .invalid("invalid-value", "\(what) must be > 0", pointer: pointer) }
        return v
    }
}
