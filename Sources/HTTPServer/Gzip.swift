import CZlib

/// gzip via the system zlib: windowBits 31 selects the gzip wrapper.
enum Gzip {
    /// Compresses `input` into a gzip member.
    static func compress(_ input: [UInt8], level: Int) -> [UInt8]? {
        var stream = z_stream()
        let status = deflateInit2_(&stream, Int32(max(1, min(9, level))), Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY,
                                   zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        let result: Int32 = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    enum InflateError: Error { case tooLarge, corrupt }

    /// Inflates one gzip member, refusing output beyond `limit` bytes and trailing garbage.
    static func decompress(_ input: [UInt8], limit: Int) throws(InflateError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 31, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        var exceeded = false
        input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit { exceeded = true; break }
                output.append(contentsOf: chunk[0..<produced])
            } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
        }
        if exceeded { throw .tooLarge }
        guard status == Z_STREAM_END, stream.avail_in == 0 else { throw .corrupt }
        return output
    }

    /// Whether an Accept-Encoding value admits gzip (q > 0), RFC 9110 §12.5.3.
    static func accepts(_ acceptEncoding: String) -> Bool {
        // Only a coding named gzip, x-gzip or * can admit gzip: most values (`identity`, `br`)
        // name none, and are answered without splitting them into parts (2.5 % of a small
        // patch's CPU went to that split).
        guard namesGzipOrStar(acceptEncoding) else { return false }
        var gzipQ: Double?
        var starQ: Double?
        for element in listElements(acceptEncoding) {
            let parts = element.split(separator: ";").map { $0.trimmingOWS() }
            guard let coding = parts.first?.lowercasedASCII() else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let lower = parameter.lowercasedASCII()
                if lower.hasPrefix("q=") { q = Double(lower.dropFirst(2)) ?? 0 }
            }
            if coding == "gzip" || coding == "x-gzip" { gzipQ = q } else if coding == "*" { starQ = q }
        }
        if let q = gzipQ { return q > 0 }
        if let q = starQ { return q > 0 }
        return false
    }

    /// Whether `value` holds `*` or `gzip` in any case.
    static func namesGzipOrStar(_ value: String) -> Bool {
        var matched = 0  // bytes of "gzip" matched so far
        for byte in value.utf8 {
            if byte == UInt8(ascii: "*") { return true }
            let lower = byte | 0x20  // ASCII letters to lower case; "gzip" holds letters only
            let next: UInt8 = matched == 0 ? UInt8(ascii: "g") : matched == 1 ? UInt8(ascii: "z")
                : matched == 2 ? UInt8(ascii: "i") : UInt8(ascii: "p")
            if lower == next {
                matched += 1
                if matched == 4 { return true }
            } else {
                matched = lower == UInt8(ascii: "g") ? 1 : 0
            }
        }
        return false
    }
}
