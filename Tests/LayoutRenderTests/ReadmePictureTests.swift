import LayoutServer
import LayoutWire
import Testing
@testable import LayoutRender

/// The README's pictures (docs/render, made by `POST /render`) are what the renderer draws
/// today: regenerate them with the README's curl commands when this fails.
@Suite struct ReadmePictureTests {
    static let folder = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/")) + "/docs/render/"

    static func read(_ name: String) throws -> [UInt8] {
        try #require(readFile("/" + folder + name), "cannot read docs/render/\(name)")
    }

    @Test(arguments: [("card-paint.png", RenderMode.paint), ("card-wireframe.png", .wireframe)])
    func committedPictureIsCurrent(file: String, mode: RenderMode) throws {
        let committed = try DecodedPNG(try Self.read(file))
        let json = String(decoding: try Self.read("card.json"), as: UTF8.self)
        let current = try DecodedPNG(try LayoutRenderer.render(try request(json),
                                                               options: RenderOptions(format: .png, mode: mode, scale: 2),
                                                               limits: .default, textLayouter: .bundled))
        #expect((committed.width, committed.height) == (current.width, current.height))
        guard committed.pixels.count == current.pixels.count else { return }
        // Exact but for antialiasing that another cairo or font build may shade a little
        // differently: no channel off by more than 24, and fewer than 1 % of pixels off at all.
        var off = 0, worst = 0
        for i in stride(from: 0, to: committed.pixels.count, by: 4) {
            let delta = (0..<4).map { abs(Int(committed.pixels[i + $0]) - Int(current.pixels[i + $0])) }.max()!
            if delta > 0 { off += 1 }
            worst = max(worst, delta)
        }
        // The wireframe's id labels are drawn in the system's sans-serif (fontconfig's choice);
        // the text leaves in the bundled fonts.
        let wireframeLabels = mode == .wireframe ? 255 : 24
        #expect(worst <= wireframeLabels, "\(file): a pixel differs by \(worst)")
        #expect(off * 100 < committed.width * committed.height, "\(file): \(off) pixels differ")
    }
}
