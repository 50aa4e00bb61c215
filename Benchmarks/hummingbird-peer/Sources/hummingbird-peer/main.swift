// hummingbird-peer --port N --response FILE
// Answers POST /compute with the bytes of FILE (Content-Type: application/json) after reading
// the whole request body, as the peers in shared/reference/http.md do. 127.0.0.1 only.
import Foundation
import Hummingbird

var port = 8081
var responsePath = ""
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port": port = Int(arguments.next() ?? "") ?? port
    case "--response": responsePath = arguments.next() ?? ""
    default:
        FileHandle.standardError.write(Data("usage: hummingbird-peer --port N --response FILE\n".utf8))
        exit(2)
    }
}
guard let responseData = FileManager.default.contents(atPath: responsePath) else {
    FileHandle.standardError.write(Data("hummingbird-peer: cannot read --response \(responsePath)\n".utf8))
    exit(2)
}
let responseBytes = [UInt8](responseData)

let router = Router()
router.post("/compute") { request, _ -> Response in
    // Read (and so receive) the whole body before answering, like the service must.
    _ = try await request.body.collect(upTo: 8 << 20)
    return Response(
        status: .ok,
        headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: responseBytes))
    )
}
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port))
)
try await app.runService()
