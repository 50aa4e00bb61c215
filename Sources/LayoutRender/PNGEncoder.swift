import CZlib

/// Encodes cairo's ARGB32 pixels as an 8-bit RGBA PNG (ISO 15948) with zlib. cairo has a PNG
/// writer, but it tries libpng's five filters on every row and compresses hard: ~110 ms for a
/// blank 1200 × 1600 picture. UI pictures are flat colour, so one filter (Up: a row like the one
/// above is all zeros) and a fast zlib level give files as small in a fraction of the time.
enum PNGEncoder {
    /// `pixels`: `height` rows of `stride` bytes, each pixel a native-endian 32-bit word of
    /// premultiplied alpha, red, green, blue (`CAIRO_FORMAT_ARGB32`).
    static func encode(pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> [UInt8]? {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        out.appendChunk("IHDR", header)

        var stream = z_stream()
        guard deflateInit2_(&stream, 3, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var compressed: [UInt8] = []
        compressed.reserveCapacity(Int(deflateBound(&stream, uLong((width * 4 + 1) * height))) / 8)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var previous = [UInt8](repeating: 0, count: width * 4)
        var row = [UInt8](repeating: 0, count: width * 4 + 1)
        var ok = true
        for y in 0..<height {
            // Unpremultiply into RGBA, then filter Up against the previous row.
            let source = UnsafeRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            row[0] = 2
            row.withUnsafeMutableBufferPointer { row in
                previous.withUnsafeMutableBufferPointer { previous in
                    for x in 0..<width {
                        let argb = source[x]
                        let a = argb >> 24
                        var r = argb >> 16 & 0xFF, g = argb >> 8 & 0xFF, b = argb & 0xFF
                        if a != 0 && a != 255 {
                            r = (r * 255 + a / 2) / a
                            g = (g * 255 + a / 2) / a
                            b = (b * 255 + a / 2) / a
                        }
                        let rgba = UInt32(truncatingIfNeeded: r) | UInt32(truncatingIfNeeded: g) << 8
                            | UInt32(truncatingIfNeeded: b) << 16 | a << 24
                        for k in 0..<4 {
                            let byte = UInt8(truncatingIfNeeded: rgba >> UInt32(8 * k))
                            row[1 + x * 4 + k] = byte &- previous[x * 4 + k]
                            previous[x * 4 + k] = byte
                        }
                    }
                }
            }
            ok = deflateAll(&stream, input: &row, flush: y == height - 1 ? Z_FINISH : Z_NO_FLUSH,
                            chunk: &chunk, into: &compressed)
            if !ok { return nil }
        }
        out.appendChunk("IDAT", compressed)
        out.appendChunk("IEND", [])
        return out
    }

    /// Feeds `input` to `stream`, appending what comes out to `output`.
    private static func deflateAll(_ stream: inout z_stream, input: inout [UInt8], flush: Int32,
                                   chunk: inout [UInt8], into output: inout [UInt8]) -> Bool {
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let status = deflate(&stream, flush)
                    return (status, buffer.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { return true }
                guard status == Z_OK || status == Z_BUF_ERROR else { return false }
                if stream.avail_in == 0 && stream.avail_out != 0 { return true }
            }
        }
    }
}

private extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// Length, type, data and the CRC of type and data.
    mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        append(contentsOf: typed)
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        appendBigEndian(UInt32(truncatingIfNeeded: crc))
    }
}
