/// Number parsing and formatting without Foundation.
@usableFromInline
enum JSONNumber {
    /// Exact powers of ten a Double holds (10^0 ... 10^22), for the fast path.
    private static let exactPowers: [Double] = {
        var p: [Double] = [1]
        for _ in 1...22 { p.append(p[p.count - 1] * 10) }
        return p
    }()

    /// Parses the RFC 8259 number starting at `start`. Returns the value and the index after it,
    /// or nil when the text there is not a number. Out-of-range magnitudes become ±infinity (the
    /// decoder reports those as "not representable"); underflow becomes ±0.
    ///
    /// Fast path (Clinger): up to 19 significant digits and a small exponent are exact in one
    /// multiplication or division; anything else goes to the standard library's correctly
    /// rounded conversion.
    @inline(__always)
    static func parse(_ s: UnsafeBufferPointer<UInt8>, from start: Int) -> (Double, Int)? {
        // Whole numbers of up to nine digits without a sign (most numbers of a request) first,
        // without the general path's bookkeeping; they are exact either way.
        var end = start
        var whole = 0
        while end < s.count, end - start < 9, s[end] &- UInt8(ascii: "0") < 10 {
            whole = whole &* 10 &+ Int(s[end] &- UInt8(ascii: "0"))
            end += 1
        }
        if end > start, s[start] != UInt8(ascii: "0") || end == start + 1 {
            if end == s.count { return (Double(whole), end) }
            switch s[end] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): break
            default: return (Double(whole), end)
            }
        }
        var i = start
        let negative = i < s.count && s[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < s.count else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0          // significant digits taken into `mantissa`
        var dropped = 0         // integer digits beyond the 19 that fit
        var exponent = 0
        var exact = true
        // Integer part: 0 or [1-9][0-9]*.
        if s[i] == UInt8(ascii: "0") {
            i += 1
        } else if s[i] >= UInt8(ascii: "1") && s[i] <= UInt8(ascii: "9") {
            while i < s.count, s[i] &- UInt8(ascii: "0") < 10 {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(s[i] &- UInt8(ascii: "0"))
                    digits += 1
                } else {
                    dropped += 1
                    exact = false
                }
                i += 1
            }
        } else {
            return nil
        }
        // Fraction.
        if i < s.count, s[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < s.count, s[i] &- UInt8(ascii: "0") < 10 {
                if digits < 19 {
                    if mantissa != 0 || s[i] != UInt8(ascii: "0") { digits += 1 }
                    mantissa = mantissa &* 10 &+ UInt64(s[i] &- UInt8(ascii: "0"))
                    exponent -= 1
                } else {
                    exact = false
                }
                i += 1
            }
            guard i > fractionStart else { return nil }
        }
        // Exponent.
        if i < s.count, s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E") {
            i += 1
            var expNegative = false
            if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
                expNegative = s[i] == UInt8(ascii: "-")
                i += 1
            }
            let expStart = i
            var e = 0
            while i < s.count, s[i] &- UInt8(ascii: "0") < 10 {
                if e < 100_000 { e = e * 10 + Int(s[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            guard i > expStart else { return nil }
            exponent += expNegative ? -e : e
        }
        exponent += dropped
        if exact && mantissa < (1 << 53) && exponent == 0 {
            // Integers, the common case: no table (each static access checks its lazy init).
            let value = Double(mantissa)
            return (negative ? -value : value, i)
        }
        if exact && mantissa < (1 << 53) && exponent >= -22 && exponent <= 22 {
            var value = Double(mantissa)
            if exponent >= 0 { value *= exactPowers[exponent] } else { value /= exactPowers[-exponent] }
            return (negative ? -value : value, i)
        }
        if mantissa == 0 && exact { return (negative ? -0.0 : 0.0, i) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: s[start..<i]), as: UTF8.self)
        guard let value = Double(text) else { return nil }
        return (value, i)
    }

    /// Where a malformed number goes wrong, for the error's offset.
    static func errorOffset(_ s: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        if i < s.count, s[i] == UInt8(ascii: "-") { i += 1 }
        while i < s.count, s[i] &- UInt8(ascii: "0") < 10 || s[i] == UInt8(ascii: ".")
                || s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E") || s[i] == UInt8(ascii: "+") {
            i += 1
        }
        return min(i, max(start, s.count - 1))
    }

    // MARK: Formatting

    @usableFromInline static let pow10: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// Appends the shortest decimal that reads back as the same Float: integers without a
    /// fraction (`12`), others with the fewest digits (`12.5`, `0.333`). Non-finite values
    /// are written as `null`, since JSON has no literal for them; -0 as `0`.
    static func write(_ value: Float, to out: inout [UInt8]) {
        guard value.isFinite else { out.append(contentsOf: "null".utf8); return }
        var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let written = withUnsafeMutableBytes(of: &scratch) { raw in
            writeFast(value, to: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        if let written {
            withUnsafeBytes(of: &scratch) { raw in out.append(contentsOf: raw[0..<written]) }
            return
        }
        out.append(contentsOf: value.description.utf8)
    }

    /// "00" "01" ... "99": two digits per lookup.
    @usableFromInline static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// `n` (below 10,000) in decimal at `p`; returns the length (1 to 4).
    @inlinable @inline(__always)
    static func writeSmall(_ n: UInt32, to p: UnsafeMutablePointer<UInt8>) -> Int {
        let pairs = digitPairs.utf8Start
        if n < 10 { p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n); return 1 }
        if n < 100 {
            let k = Int(n) &* 2
            p[0] = pairs[k]; p[1] = pairs[k &+ 1]
            return 2
        }
        let high = Int(n / 100) &* 2, low = Int(n % 100) &* 2
        if n < 1000 {
            p[0] = pairs[high &+ 1]; p[1] = pairs[low]; p[2] = pairs[low &+ 1]
            return 3
        }
        p[0] = pairs[high]; p[1] = pairs[high &+ 1]; p[2] = pairs[low]; p[3] = pairs[low &+ 1]
        return 4
    }

    /// The most bytes `writeFast` writes.
    @inlinable static var maxFastLength: Int { 32 }

    /// `write(_: Float)` for the common case, straight into memory with room for
    /// `maxFastLength` bytes: returns the bytes written, or nil when the value needs the
    /// general path (not finite, or outside 1e-3 ..< 1e9 without a short decimal form).
    @inlinable @inline(__always)
    static func writeFast(_ value: Float, to p: UnsafeMutablePointer<UInt8>) -> Int? {
        guard value.isFinite else { return nil }
        let magnitude = Double(value.magnitude)
        if magnitude == 0 { p[0] = UInt8(ascii: "0"); return 1 }
        guard magnitude < 1e9 && magnitude >= 1e-3 else { return nil }
        var n = 0
        // Whole numbers first: most frames. A truncating conversion instead of `rounded()`
        // (a libm call on baseline x86-64); for a Float's value below 1e9 "its rounding reads
        // back as itself" (k = 0 below) holds exactly when it is whole.
        let whole = UInt64(magnitude)
        if Double(whole) == magnitude {
            if value < 0 { p[0] = UInt8(ascii: "-"); n = 1 }
            return n + writeDigits(whole, fractionDigits: 0, to: p + n)
        }
        // The fewest fraction digits that round-trip: frames are mostly whole or short.
        for k in 1...9 {
            let scaled = (magnitude * pow10[k]).rounded()
            if Float(scaled / pow10[k]) == value.magnitude {
                if value < 0 { p[0] = UInt8(ascii: "-"); n = 1 }
                return n + writeDigits(UInt64(scaled), fractionDigits: k, to: p + n)
            }
        }
        return nil
    }

    /// Appends a Double the same way: integers exactly, others via the shortest round-trip text.
    static func write(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { out.append(contentsOf: "null".utf8); return }
        if value == value.rounded(), value.magnitude < 9.0e15 {
            if value.sign == .minus { out.append(UInt8(ascii: "-")) }
            writeFixed(UInt64(value.magnitude), fractionDigits: 0, to: &out)
            return
        }
        out.append(contentsOf: value.description.utf8)
    }

    static func write(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        writeFixed(value.magnitude.toUInt64, fractionDigits: 0, to: &out)
    }

    /// `digits` with a decimal point `fractionDigits` from the right (and a leading `0.` when
    /// needed).
    private static func writeFixed(_ digits: UInt64, fractionDigits: Int, to out: inout [UInt8]) {
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let n = withUnsafeMutableBytes(of: &buffer) { raw in
            writeDigits(digits, fractionDigits: fractionDigits, to: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        withUnsafeBytes(of: &buffer) { raw in out.append(contentsOf: raw[0..<n]) }
    }

    /// Writes `digits` with the decimal point at `p` (at most 22 bytes); returns the length.
    /// (Not an overload of `writeFixed`: `&array` would convert to this pointer.)
    @inlinable @inline(__always)
    static func writeDigits(_ digits: UInt64, fractionDigits: Int, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if fractionDigits == 0 && digits < 10_000 {
            // Most frame values: up to four digits, written without a loop.
            let d = UInt8(truncatingIfNeeded: digits % 10), c = UInt8(truncatingIfNeeded: digits / 10 % 10)
            let b = UInt8(truncatingIfNeeded: digits / 100 % 10), a = UInt8(truncatingIfNeeded: digits / 1000)
            let zero = UInt8(ascii: "0")
            if digits < 10 { p[0] = zero &+ d; return 1 }
            if digits < 100 { p[0] = zero &+ c; p[1] = zero &+ d; return 2 }
            if digits < 1000 { p[0] = zero &+ b; p[1] = zero &+ c; p[2] = zero &+ d; return 3 }
            p[0] = zero &+ a; p[1] = zero &+ b; p[2] = zero &+ c; p[3] = zero &+ d
            return 4
        }
        // Count the characters first, then fill from the right: no scratch copy.
        var length = 1
        var t = digits
        while t >= 10 { t /= 10; length += 1 }
        if length <= fractionDigits { length = fractionDigits + 1 }  // leading zeros ("0.05")
        let total = fractionDigits > 0 ? length + 1 : length
        var n = digits
        var end = total
        var written = 0
        repeat {
            if written == fractionDigits && fractionDigits > 0 {
                end -= 1; p[end] = UInt8(ascii: ".")
            }
            end -= 1
            p[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
            n /= 10
            written += 1
        } while n > 0 || written <= fractionDigits
        return total
    }
}

private extension UInt {
    var toUInt64: UInt64 { UInt64(self) }
}
