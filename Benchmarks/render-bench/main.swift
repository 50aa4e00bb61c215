// render-bench: how long a picture of a layout takes, beside the layout itself (the peer,
// measured in the same run): decode + layout, then the picture model, the SVG writer and
// cairo's PNG, for a generated 1,000-node tree in both modes. Not run by CI.
//   swift run -c release render-bench [nodes] [runs]
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LayoutEngine
import LayoutRender
import LayoutWire

let arguments = CommandLine.arguments
let nodeCount = arguments.count > 1 ? Int(arguments[1]) ?? 1000 : 1000
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 30 : 30

/// A page of cards, ten to a row, each a header, an avatar and a few lines, with paint keys:
/// about what a social-image or screenshot client would draw.
func cardPage(nodes: Int) -> [UInt8] {
    var text = ##"{"available":{"width":1200,"height":null},"root":{"id":"page","style":{"flexDirection":"row","flexWrap":"wrap","padding":8,"gap":8,"width":1200,"backgroundColor":"#f1f5f9"},"children":["##
    var made = 1
    var card = 0
    let colors = ["tomato", "#2563eb", "rgb(5, 150, 105)", "rgba(217, 119, 6, 0.8)", "#7c3aedcc"]
    while made + 6 <= nodes {
        if card > 0 { text += "," }
        let color = colors[card % colors.count]
        text += ##"{"id":"card\##(card)","style":{"width":108,"padding":6,"gap":4,"borderWidth":1,"borderColor":"#cbd5e1","borderRadius":6,"backgroundColor":"white"},"children":["##
        text += ##"{"id":"avatar\##(card)","style":{"width":24,"height":24,"borderRadius":12,"backgroundColor":"\##(color)"}},"##
        text += ##"{"id":"title\##(card)","style":{"height":8,"backgroundColor":"#334155","borderRadius":2}},"##
        text += ##"{"id":"line\##(card)a","style":{"height":6,"width":"80%","backgroundColor":"#94a3b8","opacity":0.8}},"##
        text += ##"{"id":"line\##(card)b","style":{"height":6,"width":"60%","backgroundColor":"#94a3b8"}},"##
        text += ##"{"id":"tag\##(card)","style":{"height":10,"width":30,"borderWidth":1,"borderColor":"\##(color)","borderRadius":5}}"##
        text += "]}"
        made += 6
        card += 1
    }
    text += "]}}"
    return Array(text.utf8)
}

@inline(__always) func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
}

func medianMicroseconds(_ body: () throws -> Void) rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = now()
        try body()
        samples.append((now() - start) / 1000)
    }
    samples.sort()
    return samples[samples.count / 2]
}

func show(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return String(rounded)
}

let body = cardPage(nodes: nodeCount)
let decoded = try LayoutWire.decodeRequest(bytes: body)
print("render-bench: \(decoded.tree.nodeCount) nodes, \(body.count) bytes of JSON, median of \(runs) runs")
let layout = try medianMicroseconds {
    var request = try LayoutWire.decodeRequest(bytes: body)
    request.computeLayout()
}
print("  decode + layout (the peer)      \(show(layout)) us")
var laidOut = decoded
laidOut.computeLayout()
for mode in RenderMode.allCases {
    let picture = Picture(of: laidOut, mode: mode)
    let build = medianMicroseconds { _ = Picture(of: laidOut, mode: mode) }
    print("  \(mode.rawValue): picture model        \(show(build)) us (\(picture.items.count) items, \(Int(picture.width)) x \(Int(picture.height)) points)")
    var svgBytes = 0
    let svg = medianMicroseconds { svgBytes = SVGWriter.svg(picture).count }
    print("  \(mode.rawValue): SVG                  \(show(svg)) us (\(svgBytes) bytes), \(show(svg / layout))x the layout")
    for scale: Float in [1, 2] {
        var pngBytes = 0
        let png = try medianMicroseconds { pngBytes = try CairoPNGWriter.png(picture, scale: scale).count }
        print("  \(mode.rawValue): PNG at scale \(Int(scale))       \(show(png)) us (\(pngBytes) bytes), \(show(png / layout))x the layout")
    }
}

