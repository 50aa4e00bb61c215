// Character classes of RFC 9110 §5.6 used by the request and chunk parsers.

enum ASCII {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let equals: UInt8 = 0x3D
    static let quote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C
    static let comma: UInt8 = 0x2C
}

/// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
private let tcharTable: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
    for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
    for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
    for char in "!#$%&'*+-.^_`|~".utf8 { table[Int(char)] = true }
    return table
}()

@inline(__always) func isTokenChar(_ byte: UInt8) -> Bool { tcharTable[Int(byte)] }
@inline(__always) func isOWS(_ byte: UInt8) -> Bool { byte == ASCII.space || byte == ASCII.tab }
/// Field-value octets: VCHAR, obs-text, SP, HTAB (no other control characters).
@inline(__always) func isFieldValueChar(_ byte: UInt8) -> Bool {
    (byte >= 0x20 && byte != 0x7F) || byte == ASCII.tab
}
@inline(__always) func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case 0x30...0x39: return Int(byte - 0x30)
    case 0x41...0x46: return Int(byte - 0x41 + 10)
    case 0x61...0x66: return Int(byte - 0x61 + 10)
    default: return nil
    }
}

/// Whether `bytes` equals the lowercase ASCII `lowercase`, ignoring case.
@inline(__always)
func asciiEqualsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
    guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
    let other = lowercase.utf8Start
    for i in 0..<bytes.count where asciiLower(bytes[i]) != other[i] { return false }
    return true
}

/// Splits a comma-separated list value into trimmed, non-empty elements.
func listElements(_ value: String) -> [Substring] {
    value.split(separator: ",", omittingEmptySubsequences: true)
        .map { $0.trimmingOWS() }
        .filter { !$0.isEmpty }
}

extension Substring {
    func trimmingOWS() -> Substring {
        var s = self[...]
        while let first = s.first, first == " " || first == "\t" { s = s.dropFirst() }
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }
}

extension StringProtocol {
    var isToken: Bool { !isEmpty && utf8.allSatisfy(isTokenChar) }
    func lowercasedASCII() -> String { String(decoding: utf8.map(asciiLower), as: UTF8.self) }
}
