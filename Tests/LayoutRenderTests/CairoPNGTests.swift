import CCairo
import LayoutEngine
import LayoutWire
import Testing
@testable import LayoutRender

@Suite struct CairoPNGTests {
    private func png(_ json: String, mode: RenderMode = .paint, scale: Float = 1) throws -> DecodedPNG {
        let bytes = try LayoutRenderer.render(try request(json), options: RenderOptions(format: .png, mode: mode, scale: scale))
        return try DecodedPNG(bytes)
    }

    @Test func sizeAndPixelsAtKnownBoxes() throws {
        let image = try png(paintedRow)
        #expect((image.width, image.height) == (200, 100))
        #expect(image.chunkTypes.first == "IHDR" && image.chunkTypes.last == "IEND")
        #expect(image.pixel(35, 30) == 0xFF00_00FF)             // a: red
        #expect(close(image.pixel(110, 25), 0x7F7F_FFFF))       // b: half blue over the white root
        #expect(image.pixel(142, 30) == 0x00FF_00FF)            // c's left border: green
        #expect(image.pixel(170, 40) == 0x0000_00FF)            // c's inside: black
        #expect(image.pixel(150, 20) == 0xFFFF_00FF)            // e (c's child, at 145,15): yellow
        #expect(image.pixel(5, 5) == 0xFFFF_FFFF)               // root's padding: white
        #expect(image.pixel(100, 80) == 0xFFFF_FFFF)
    }

    @Test func scaleMultipliesPixels() throws {
        let image = try png(paintedRow, scale: 2)
        #expect((image.width, image.height) == (400, 200))
        #expect(image.pixel(70, 60) == 0xFF00_00FF)             // a at (35, 30) points
        #expect(image.pixel(21, 21) == 0xFF00_00FF)             // a's top-left corner + 1 pixel
        #expect(image.pixel(19, 19) == 0xFFFF_FFFF)             // just outside a
        #expect(image.pixel(300, 40) == 0xFFFF_00FF)            // e
    }

    @Test func transparentWithoutBackground() throws {
        let image = try png(#"{"root": {"style": {"width": 10, "height": 10}}}"#)
        #expect(image.pixel(5, 5) == 0)
    }

    @Test func opacityAppliesToTheGroupOnce() throws {
        // Inside "half", a white child on a white parent at 50 % over black: one mid grey, not
        // the lighter grey of two half-white layers.
        let image = try png(#"""
            {"root": {"style": {"width": 20, "height": 20, "backgroundColor": "black"}, "children": [
              {"style": {"opacity": 0.5, "flexGrow": 1, "backgroundColor": "white"},
               "children": [{"style": {"flexGrow": 1, "backgroundColor": "white"}}]}]}}
            """#)
        #expect(close(image.pixel(10, 10), 0x8080_80FF))
    }

    @Test func perEdgeBorderColours() throws {
        let image = try png(#"""
            {"root": {"style": {"width": 40, "height": 40, "borderWidth": 10, "borderColor": "black",
                                "borderTopColor": "red", "borderRightColor": "lime", "borderStartColor": "blue",
                                "backgroundColor": "white"}}}
            """#)
        #expect(image.pixel(20, 3) == 0xFF00_00FF)   // top
        #expect(image.pixel(36, 20) == 0x00FF_00FF)  // right
        #expect(image.pixel(3, 20) == 0x0000_FFFF)   // left: start in ltr
        #expect(image.pixel(20, 36) == 0x0000_00FF)  // bottom: borderColor
        #expect(image.pixel(20, 20) == 0xFFFF_FFFF)  // inside
    }

    @Test func roundedCornersLeaveCornersEmpty() throws {
        let image = try png(#"{"root": {"style": {"width": 40, "height": 40, "borderRadius": 20, "backgroundColor": "red"}}}"#)
        #expect(image.pixel(0, 0) == 0)
        #expect(image.pixel(20, 20) == 0xFF00_00FF)
        #expect(image.pixel(20, 1) == 0xFF00_00FF)
    }

    @Test func wireframeShadesAsDevtools() throws {
        let image = try png(paintedRow, mode: .wireframe)
        // The root's padding band: devtools' green over white.
        let padding = channels(image.pixel(5, 50))
        #expect(padding.g > padding.r && padding.g > padding.b && padding.a == 255)
        // b's left margin band (60..80, 10..40): orange over the root's tint.
        let margin = channels(image.pixel(70, 25))
        #expect(margin.r > margin.g && margin.g > margin.b)
        // Inside a, its outline colour (depth 1, red) tints the root's (depth 0, blue) once more.
        let root = channels(image.pixel(100, 80)), inside = channels(image.pixel(35, 35))
        #expect(root.b > root.r && inside.b < root.b - 10 && inside.r > 200)
    }

    @Test func limitsRefuseLargePictures() throws {
        let big = #"{"root": {"style": {"width": 3000, "height": 3000}}}"#
        #expect(throws: RenderError.tooLarge(width: 6000, height: 6000, maxPixels: 1_000_000)) {
            try LayoutRenderer.render(try request(big), options: RenderOptions(format: .png, scale: 2),
                                      limits: RenderLimits(maxPixels: 1_000_000))
        }
        #expect(throws: RenderError.tooLarge(width: 40000, height: 1, maxPixels: 16 * 1024 * 1024)) {
            try LayoutRenderer.render(try request(#"{"root": {"style": {"width": 40000, "height": 1}}}"#),
                                      options: RenderOptions(format: .svg))
        }
    }

    @Test func boxesFarOutsideThePictureAreDrawnSafely() throws {
        // A child 3.4e38 points tall, centred: finite frames far beyond any pixel (found by
        // schemathesis: label placement converted those coordinates to integers and trapped).
        let far = #"""
            {"root": {"style": {"width": 320, "height": 120, "flexDirection": "row"}, "children": [
              {"type": "stack-item", "id": "label", "sizeThatFits": {"width": 82, "height": 17}, "alignSelf": "center",
               "minHeight": 3.4028235677973362e+38}]}}
            """#
        for mode in RenderMode.allCases {
            let svg = try LayoutRenderer.render(try request(far), options: RenderOptions(format: .svg, mode: mode))
            #expect(boxRects(inSVG: svg).count == 2)
            let png = try DecodedPNG(try LayoutRenderer.render(try request(far), options: RenderOptions(format: .png, mode: mode)))
            #expect((png.width, png.height) == (320, 120))
        }
    }

    @Test func overflowingLayoutsHaveNoPicture() {
        #expect(throws: RenderError.layoutOverflow) {
            try LayoutRenderer.render(try request(#"""
                {"root": {"style": {"flexDirection": "row"}, "children": [{"style": {"width": 3e38}}, {"style": {"width": 3e38}}]}}
                """#), options: RenderOptions())
        }
    }

    @Test func svgAndPNGDrawTheSamePicture() throws {
        // Both back ends take the one Picture; its boxes are where the SVG's rects are, and
        // the PNG shows each box's paint inside its rect.
        let shown = try picture(paintedRow, mode: .paint)
        let image = try DecodedPNG(try CairoPNGWriter.png(shown))
        let rects = boxRects(inSVG: SVGWriter.svg(shown))
        for (item, rect) in zip(shown.items.compactMap { if case .box(let box) = $0 { box } else { nil } }, rects) {
            #expect(rect["x"] == SVGWriter.number(item.frame.x))
            guard let fill = item.fill, fill.alpha == 255, item.id != "root", item.id != "c" else { continue }
            let x = Int(item.frame.x + item.frame.width / 2), y = Int(item.frame.y + item.frame.height / 2)
            let expected = UInt32(fill.red) << 24 | UInt32(fill.green) << 16 | UInt32(fill.blue) << 8 | 0xFF
            #expect(image.pixel(x, y) == expected, "\(item.id ?? "")")
        }
    }

    @Test func libpngReadsTheSamePixels() throws {
        // A second, independent decoder: cairo's PNG reader (libpng), whose surface holds
        // premultiplied ARGB; every pixel of this picture is opaque, so the channels compare as is.
        let bytes = try LayoutRenderer.render(try request(paintedRow), options: RenderOptions(format: .png, mode: .paint, scale: 2))
        let ours = try DecodedPNG(bytes)
        final class Source { var bytes: [UInt8]; var offset = 0; init(_ bytes: [UInt8]) { self.bytes = bytes } }
        let source = Source(bytes)
        let read: cairo_read_func_t = { closure, data, length in
            let source = Unmanaged<Source>.fromOpaque(closure!).takeUnretainedValue()
            guard let data, source.offset + Int(length) <= source.bytes.count else { return CAIRO_STATUS_READ_ERROR }
            for i in 0..<Int(length) { data[i] = source.bytes[source.offset + i] }
            source.offset += Int(length)
            return CAIRO_STATUS_SUCCESS
        }
        let surface = try #require(withExtendedLifetime(source) {
            cairo_image_surface_create_from_png_stream(read, Unmanaged.passUnretained(source).toOpaque())
        })
        defer { cairo_surface_destroy(surface) }
        #expect(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        #expect((width, height) == (ours.width, ours.height))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = try #require(cairo_image_surface_get_data(surface))
        var differing = 0
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let argb = row[x]
                let rgba = argb << 8 | argb >> 24
                if rgba != ours.pixel(x, y) { differing += 1 }
            }
        }
        #expect(differing == 0)
    }
}
