extension String {
    /// Whether both strings hold the same UTF-8 bytes: JSON compares member names code point by
    /// code point, where `==` would take canonically equivalent strings for equal. Compares the
    /// bytes in place for native strings (a generic `elementsEqual` over the two views cost a
    /// patch more than its own member lookups).
    @inline(__always) func hasSameUTF8(as other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        let inPlace = a.withContiguousStorageIfAvailable { a in
            b.withContiguousStorageIfAvailable { b in a.elementsEqual(b) }
        }
        if let inPlace, let same = inPlace { return same }
        return a.elementsEqual(b)
    }
}
