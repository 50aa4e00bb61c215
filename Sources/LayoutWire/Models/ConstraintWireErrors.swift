import LayoutEngine

// Constraint-model errors as wire errors: every error points at the member it came from.
// Conflicts name their constraints by label and list a pointer per label in `conflicts`.

extension RequestDecoder {
    /// A `ConstraintLayoutError` raised while lowering or checking a constraint node.
    func wireError(_ error: ConstraintLayoutError, _ base: ConstraintNodeBase) -> WireError {
        switch error {
        case .unsatisfiable(let conflict):
            var pointers: [String] = []
            for label in conflict.labels {
                for p in Self.pointers(forLabel: label, base) where !pointers.contains(p) { pointers.append(p) }
            }
            let names = conflict.labels.map { "\"\($0)\"" }.joined(separator: ", ")
            let kind = conflict.isMinimal ? "" : " (not minimised: the search limit was hit)"
            var e = WireError.invalid("unsatisfiable-constraints",
                                      "required constraints conflict\(kind): \(names)", pointer: pointers.first ?? "")
            e.conflicts = pointers
            return e
        case .invalidConstraint(let index, let reason):
            let given = base.layout.constraints.count
            return .invalid("invalid-value", reason, pointer: index < given ? "/constraints/\(index)" : "")
        case .invalidItem(let index, let reason):
            return .invalid("invalid-value", reason, pointer: "/items/\(index)")
        case .invalidStack(let index, let reason):
            return .invalid("invalid-value", reason, pointer: "/stacks/\(index)" + Self.pathPointer(reason).pointer)
        case .invalidSpaceGroup(let index, let reason):
            return .invalid("invalid-value", reason, pointer: "/groups/\(index)" + Self.pathPointer(reason).pointer)
        case .invalidContainerSize:
            return .invalid("invalid-value", error.description)
        case .solver(let e):
            if case .limitExceeded = e { return .tooLarge("too-many-constraints", e.description, pointer: "") }
            if case .iterationLimitExceeded = e { return .tooLarge("too-many-constraints", e.description, pointer: "") }
            return .invalid("solver-failed", e.description)
        }
    }

    /// Where a solver label came from: a given label, a generated FixFlex / flexible-space
    /// label (`stacks[1].intents[2](...) ...`, `groups[0] minimal size`), or an item's content
    /// constraint (`title.width compression resistance`).
    static func pointers(forLabel label: String, _ base: ConstraintNodeBase) -> [String] {
        if let given = base.labelPointers[label] { return given }
        let (path, rest) = pathPointer(label)
        if !path.isEmpty {
            return [rest.hasPrefix(" minimal size") ? path + "/minimalSize" : path]
        }
        for suffix in [".width hugging", ".height hugging", ".width compression resistance", ".height compression resistance"]
        where label.hasSuffix(suffix) {
            if let i = base.itemIndex[String(label.dropLast(suffix.count))] { return ["/items/\(i)"] }
        }
        return []
    }

    /// The leading `name[index]` segments of `text` (dot-separated) as a pointer, and the rest:
    /// `intents[2]: view 9 does not exist` → `/intents/2`.
    static func pathPointer(_ text: String) -> (pointer: String, rest: Substring) {
        var pointer = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            let name = rest[..<open]
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter }), let index = Int(rest[rest.index(after: open)..<close]) else { break }
            pointer += "/\(name)/\(index)"
            rest = rest[rest.index(after: close)...]
            if rest.first == "." { rest = rest.dropFirst() } else { break }
        }
        return (pointer, rest)
    }
}
