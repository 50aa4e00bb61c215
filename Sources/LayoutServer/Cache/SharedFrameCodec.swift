import LayoutEngine

/// How the layout cache's entries are stored in the shared cache (Redis): the key names the
/// format's version, so a service that writes another format never reads these values (and
/// the reverse); the value carries its length, its key's hash and a checksum, so a truncated,
/// foreign or corrupted value is recognised and dropped, never served.
///
/// Value, all integers little-endian:
///
///     0   4  magic "LDF" + format version (1)
///     4   4  frame count n
///     8  16  structural hash (high word, low word): the key the value was written under
///    24   8  checksum: `BodyHash` with fixed seeds of bytes 0..<24 and of the frames
///    32 16n  frames: left, top, width, height as IEEE 754 binary32 bit patterns
enum SharedFrameCodec {
    /// The format's version, in the key and in the value's magic.
    static let version: UInt8 = 1
    static let keyPrefix = "layoutd:frames:v\(version):"
    static let headerBytes = 32
    private static let magic: [UInt8] = [UInt8(ascii: "L"), UInt8(ascii: "D"), UInt8(ascii: "F"), version]
    /// Fixed seeds: every replica must compute the same checksum.
    private static let checksum = BodyHash(seed: 0x6C61_796F_7574_6421,
                                           secrets: (0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9))

    /// Why a stored value was not used.
    enum Invalid: Error, Equatable {
        case tooShort, wrongMagic, wrongLength, wrongKey, wrongChecksum
    }

    /// The Redis key of `hash`: `layoutd:frames:v1:` and 32 hex digits.
    static func key(_ hash: StructuralHash) -> [UInt8] {
        Array((keyPrefix + hash.hexString).utf8)
    }

    static func encode(_ frames: [Frame], for hash: StructuralHash) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: headerBytes + frames.count * 16)
        bytes.withUnsafeMutableBytes { out in
            for (i, byte) in magic.enumerated() { out[i] = byte }
            out.storeBytes(of: UInt32(truncatingIfNeeded: frames.count).littleEndian, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: hash.high.littleEndian, toByteOffset: 8, as: UInt64.self)
            out.storeBytes(of: hash.low.littleEndian, toByteOffset: 16, as: UInt64.self)
            var offset = headerBytes
            for frame in frames {
                out.storeBytes(of: frame.left.bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
                out.storeBytes(of: frame.top.bitPattern.littleEndian, toByteOffset: offset + 4, as: UInt32.self)
                out.storeBytes(of: frame.width.bitPattern.littleEndian, toByteOffset: offset + 8, as: UInt32.self)
                out.storeBytes(of: frame.height.bitPattern.littleEndian, toByteOffset: offset + 12, as: UInt32.self)
                offset += 16
            }
            out.storeBytes(of: sum(UnsafeRawBufferPointer(out)).littleEndian, toByteOffset: 24, as: UInt64.self)
        }
        return bytes
    }

    /// The frames of a value read under `hash`'s key, or why it cannot be used.
    static func decode(_ bytes: [UInt8], for hash: StructuralHash) -> Result<[Frame], Invalid> {
        bytes.withUnsafeBytes { value -> Result<[Frame], Invalid> in
            guard value.count >= headerBytes else { return .failure(.tooShort) }
            guard value.prefix(4).elementsEqual(magic) else { return .failure(.wrongMagic) }
            let count = Int(UInt32(littleEndian: value.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
            guard value.count == headerBytes + count * 16 else { return .failure(.wrongLength) }
            guard UInt64(littleEndian: value.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) == hash.high,
                  UInt64(littleEndian: value.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) == hash.low else {
                return .failure(.wrongKey)
            }
            guard UInt64(littleEndian: value.loadUnaligned(fromByteOffset: 24, as: UInt64.self)) == sum(value) else {
                return .failure(.wrongChecksum)
            }
            var frames = [Frame]()
            frames.reserveCapacity(count)
            for index in 0..<count {
                let base = headerBytes + index * 16
                func float(_ at: Int) -> Float {
                    Float(bitPattern: UInt32(littleEndian: value.loadUnaligned(fromByteOffset: base + at, as: UInt32.self)))
                }
                frames.append(Frame(left: float(0), top: float(4), width: float(8), height: float(12)))
            }
            return .success(frames)
        }
    }

    /// The checksum of a value: its header before the checksum field, then its frames.
    private static func sum(_ value: UnsafeRawBufferPointer) -> UInt64 {
        let header = checksum.hash(UnsafeRawBufferPointer(rebasing: value[0..<24]))
        let frames = checksum.hash(UnsafeRawBufferPointer(rebasing: value[headerBytes...]))
        return header ^ (frames &* 0x9E37_79B9_7F4A_7C15)
    }
}
