import CZlib

/// Decodes the PNGs cairo writes (8-bit RGBA or RGB, not interlaced) back to pixels, with zlib
/// and the PNG specification's unfiltering (ISO 15948 §9), so tests can look at pixels.
struct DecodedPNG {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let width: Int
    let height: Int
    /// RGBA, 4 bytes per pixel, rows top to bottom.
    let pixels: [UInt8]
    /// Chunk types in file order.
    let chunkTypes: [String]

    init(_ bytes: [UInt8]) throws {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count > 8, Array(bytes[0..<8]) == signature else { throw Failure("no PNG signature") }
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        var offset = 8
        var header: (width: Int, height: Int, depth: UInt8, colorType: UInt8, interlace: UInt8)?
        var compressed: [UInt8] = []
        var types: [String] = []
        while offset + 12 <= bytes.count {
            let length = u32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let data = Array(bytes[offset + 8..<offset + 8 + length])
            let crc = UInt32(u32(offset + 8 + length))
            let computed = bytes[offset + 4..<offset + 8 + length].withContiguousStorageIfAvailable {
                UInt32(crc32(0, $0.baseAddress, uInt($0.count)))
            } ?? 0
            guard crc == computed else { throw Failure("bad CRC in \(type)") }
            types.append(type)
            switch type {
            case "IHDR":
                header = ((Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])),
                          (Int(data[4]) << 24 | Int(data[5]) << 16 | Int(data[6]) << 8 | Int(data[7])),
                          data[8], data[9], data[12])
            case "IDAT": compressed += data
            default: break
            }
            offset += 12 + length
            if type == "IEND" { break }
        }
        guard let header else { throw Failure("no IHDR") }
        guard header.depth == 8, header.colorType == 6 || header.colorType == 2, header.interlace == 0 else {
            throw Failure("unsupported PNG: depth \(header.depth), colour type \(header.colorType)")
        }
        let channels = header.colorType == 6 ? 4 : 3
        let stride = header.width * channels
        var raw = [UInt8](repeating: 0, count: (stride + 1) * header.height)
        var rawLength = uLongf(raw.count)
        let status = compressed.withUnsafeBufferPointer { source in
            raw.withUnsafeMutableBufferPointer { dest in
                uncompress(dest.baseAddress, &rawLength, source.baseAddress, uLong(source.count))
            }
        }
        guard status == Z_OK, Int(rawLength) == raw.count else { throw Failure("inflate failed: \(status)") }

        var image = [UInt8](repeating: 0, count: stride * header.height)
        for row in 0..<header.height {
            let filter = raw[row * (stride + 1)]
            for x in 0..<stride {
                let value = raw[row * (stride + 1) + 1 + x]
                let a = x >= channels ? Int(image[row * stride + x - channels]) : 0
                let b = row > 0 ? Int(image[(row - 1) * stride + x]) : 0
                let c = row > 0 && x >= channels ? Int(image[(row - 1) * stride + x - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw Failure("bad filter \(filter) in row \(row)")
                }
                image[row * stride + x] = UInt8(truncatingIfNeeded: Int(value) + predictor)
            }
        }
        if channels == 3 {
            var rgba: [UInt8] = []
            rgba.reserveCapacity(header.width * header.height * 4)
            for i in Swift.stride(from: 0, to: image.count, by: 3) { rgba += [image[i], image[i + 1], image[i + 2], 255] }
            image = rgba
        }
        width = header.width
        height = header.height
        pixels = image
        chunkTypes = types
    }

    /// The RGBA of the pixel at (`x`, `y`), as 0xRRGGBBAA.
    func pixel(_ x: Int, _ y: Int) -> UInt32 {
        let i = (y * width + x) * 4
        return UInt32(pixels[i]) << 24 | UInt32(pixels[i + 1]) << 16 | UInt32(pixels[i + 2]) << 8 | UInt32(pixels[i + 3])
    }
}
