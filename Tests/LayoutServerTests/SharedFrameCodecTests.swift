import LayoutEngine
@testable import LayoutServer
import Testing

@Suite struct SharedFrameCodecTests {
    static let hash = StructuralHash(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
    static let frames = [Frame(left: 0, top: 0, width: 300, height: 100), Frame(left: 10, top: 10, width: 80, height: 80),
                         Frame(left: 100, top: 10, width: 190.5, height: -0.0)]

    @Test func roundTripsFramesBitForBit() throws {
        let value = SharedFrameCodec.encode(Self.frames, for: Self.hash)
        #expect(value.count == SharedFrameCodec.headerBytes + 3 * 16)
        let decoded = try SharedFrameCodec.decode(value, for: Self.hash).get()
        #expect(decoded.map(\.height.bitPattern) == Self.frames.map(\.height.bitPattern))
        #expect(decoded == Self.frames)
        #expect(try SharedFrameCodec.decode(SharedFrameCodec.encode([], for: Self.hash), for: Self.hash).get() == [])
    }

    @Test func theKeyNamesTheFormatVersionAndTheHash() {
        #expect(String(decoding: SharedFrameCodec.key(Self.hash), as: UTF8.self)
                == "layoutd:frames:v1:0123456789abcdeffedcba9876543210")
    }

    @Test func everyDamagedValueIsRefusedWithItsReason() {
        let value = SharedFrameCodec.encode(Self.frames, for: Self.hash)
        func decode(_ bytes: [UInt8], _ hash: StructuralHash = Self.hash) -> SharedFrameCodec.Invalid? {
            if case .failure(let reason) = SharedFrameCodec.decode(bytes, for: hash) { return reason }
            return nil
        }
        #expect(decode([]) == .tooShort)
        #expect(decode(Array(value.prefix(31))) == .tooShort)
        var otherVersion = value
        otherVersion[3] = 2
        #expect(decode(otherVersion) == .wrongMagic)
        #expect(decode(Array("not a layout value at all, really".utf8)) == .wrongMagic)
        #expect(decode(Array(value.dropLast())) == .wrongLength)
        #expect(decode(value + [0]) == .wrongLength)
        #expect(decode(value, StructuralHash(high: 1, low: 2)) == .wrongKey)
        // Any single flipped bit past the magic, count and hash is caught by the checksum.
        for index in 24..<value.count {
            var flipped = value
            flipped[index] ^= 0x10
            #expect(decode(flipped) == .wrongChecksum, "byte \(index)")
        }
    }
}
