// libFuzzer harness for LayoutWire: the JSON parser, the request decoder and validator, the
// response encoder, and the engine on whatever decodes.
//
// Input: byte 0 picks tight or default limits; the rest is a request body. Checks, besides
// "no trap and no sanitizer report":
// - every error has a code and message, a pointer that is empty or starts with "/", an
//   offset inside the document, and members that write as JSON and read back unchanged;
// - a parsed document written back out parses to the same document (write/parse round trip);
// - the one-step and two-step decoders agree: the same error, or the same request (the
//   one-step decoder takes the one-pass path for the requests of its shape);
// - a decoded request lays out and its response body is valid JSON;
// - decoded with its repeats as instances (any tree size), it hashes as the request decoded
//   node by node and, when its instances were laid out, has the same frames and answer.
import FuzzSupport
import LayoutEngine
@_spi(Fuzzing) import LayoutWire

let tightLimits = WireLimits(maxNodes: 64, maxDepth: 12, maxStringBytes: 256, maxDocumentBytes: 1 << 16)

func checkError(_ error: WireError, documentSize: Int, limits: WireLimits) {
    precondition(!error.code.isEmpty && !error.message.isEmpty, "error without code or message")
    if let pointer = error.pointer {
        // Bytes, not Characters: "/" followed by a combining mark is one Character, so
        // `hasPrefix("/")` is false for the valid pointer "/\u{64C}x" (found by fuzzing).
        precondition(pointer.isEmpty || pointer.utf8.first == UInt8(ascii: "/"), "malformed pointer \(pointer)")
    }
    if let offset = error.offset {
        precondition(offset >= 0 && offset <= documentSize, "offset \(offset) outside the document")
    }
    // The service writes these members into its error body with the wire's JSONWriter: they
    // must read back as they were.
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("code"); writer.string(error.code)
    writer.key("message"); writer.string(error.message)
    if let pointer = error.pointer { writer.key("pointer"); writer.string(pointer) }
    writer.endObject()
    let body = writer.bytes
    guard let parsed = try? JSONValue.parse(bytes: body) else {
        preconditionFailure("error members are not JSON: \(String(decoding: body, as: UTF8.self))")
    }
    // Compared as bytes: String's == treats canonically equivalent spellings as equal.
    precondition(parsed["message"]?.stringValue.map { Array($0.utf8) } == Array(error.message.utf8), "error body lost the message")
    precondition(parsed["pointer"]?.stringValue.map { Array($0.utf8) } == error.pointer.map { Array($0.utf8) },
                 "error body lost the pointer")
}

/// The one-step decode of a body equals the two-step one: tree, contents, styles, ids, text
/// leaves, hash.
func checkSameRequest(_ a: LayoutRequest, _ b: LayoutRequest) {
    precondition(a.tree.nodeCount == b.tree.nodeCount && a.root == b.root && a.ids == b.ids
                 && a.available == b.available && a.direction == b.direction && a.textLines == b.textLines
                 && a.textLeaves == b.textLeaves, "one-step and two-step decoders built different requests")
    for index in 0..<a.tree.nodeCount {
        let node = NodeID(index)
        precondition(a.tree.style(of: node) == b.tree.style(of: node) && a.tree.content(of: node) == b.tree.content(of: node)
                     && a.tree.children(of: node).elementsEqual(b.tree.children(of: node)),
                     "one-step and two-step decoders built node \(index) differently")
    }
    precondition(a.tree.structuralHash(root: a.root, available: a.available, direction: a.direction)
                 == b.tree.structuralHash(root: b.root, available: b.available, direction: b.direction),
                 "one-step and two-step decoders built trees of different hashes")
}

/// A request with instances against the same request decoded node by node and laid out
/// (`plain`, answered `answer`): the same node count, hash, and, when the instances were laid
/// out, the same frames bit for bit and the same answer.
func checkInstances(_ folded: inout LayoutRequest, against plain: LayoutRequest, answer: [UInt8]) {
    precondition(folded.tree.expandedNodeCount == plain.tree.nodeCount, "instances stand for another node count")
    precondition(folded.instanceIDs.count == folded.tree.instances.virtualNodes, "instance ids and nodes differ in count")
    precondition(folded.tree.structuralHash(root: folded.root, available: folded.available, direction: folded.direction)
                 == plain.tree.structuralHash(root: plain.root, available: plain.available, direction: plain.direction),
                 "a tree with instances hashes otherwise than the tree it stands for")
    folded.tree.subtreeReuse = SubtreeReuse(key: .processRandom)
    folded.computeLayout()
    guard folded.tree.instancesLaidOut else { return }
    let frames = folded.tree.preorderFrames(root: folded.root)
    let expected = plain.tree.preorderFrames(root: plain.root)
    precondition(frames.count == expected.count, "instances gave another number of frames")
    for (a, b) in zip(frames, expected) {
        precondition(a.left.bitPattern == b.left.bitPattern && a.top.bitPattern == b.top.bitPattern
                     && a.width.bitPattern == b.width.bitPattern && a.height.bitPattern == b.height.bitPattern,
                     "instances laid out otherwise than the tree they stand for")
    }
    guard !plain.printsTree, !plain.textLines,
          let written = ResponseEncoder.encode(tree: folded.tree, root: folded.root, ids: folded.ids,
                                               instanceIDs: folded.instanceIDs, frames: frames) else { return }
    precondition(written == answer, "a tree with instances answered otherwise than the tree it stands for")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 1 else { return 0 }
    let limits = data[0] & 1 == 0 ? tightLimits : WireLimits.default
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))

    let value: JSONValue
    do {
        value = try JSONValue.parse(bytes: body, limits: limits)
    } catch {
        checkError(error, documentSize: body.count, limits: limits)
        // The one-step decoder must fail the same way.
        do {
            _ = try LayoutWire.decodeRequest(bytes: body, limits: limits)
            preconditionFailure("decodeRequest accepted a document the parser refused")
        } catch let again {
            precondition(again == error, "decodeRequest failed differently: \(again) vs \(error)")
        }
        return 0
    }

    // Write/parse round trip: the writer's output is JSON and means the same document.
    let written = value.jsonBytes()
    guard let reparsed = try? JSONValue.parse(bytes: written, limits: WireLimits(maxNodes: .max, maxDepth: 1 << 20,
                                                                                  maxStringBytes: .max, maxDocumentBytes: .max)) else {
        preconditionFailure("written document does not parse: \(String(decoding: written, as: UTF8.self))")
    }
    precondition(reparsed.jsonBytes() == written, "write/parse round trip changed the document")

    var request: LayoutRequest
    do {
        request = try LayoutWire.decodeRequest(value, limits: limits)
    } catch {
        checkError(error, documentSize: body.count, limits: limits)
        precondition(LayoutWire.decodeInOnePassFindingRepeats(bytes: body, limits: limits) == nil,
                     "the one-pass decoder, copying repeats, accepted what the two-step one refused")
        do {
            _ = try LayoutWire.decodeRequest(bytes: body, limits: limits)
            preconditionFailure("one-step decoder accepted what the two-step one refused")
        } catch let again {
            precondition(again == error, "one-step and two-step decoders disagree: \(again) vs \(error)")
        }
        return 0
    }
    guard let direct = try? LayoutWire.decodeRequest(bytes: body, limits: limits) else {
        preconditionFailure("one-step decoder refused what the two-step one accepted")
    }
    checkSameRequest(direct, request)
    // Siblings that repeat earlier ones copied instead of decoded (looked for in large trees
    // only, so in every tree here): the same request, or the one-pass decoder gave up.
    if let copied = LayoutWire.decodeInOnePassFindingRepeats(bytes: body, limits: limits) {
        checkSameRequest(copied, request)
    }
    precondition(request.tree.nodeCount <= limits.maxNodes, "decoded more nodes than the limit")
    precondition(request.ids.count == request.tree.nodeCount, "ids and nodes differ in count")
    let folded = LayoutWire.decodeInOnePassFoldingRepeats(bytes: body, limits: limits)
    request.computeLayout()
    let response = LayoutWire.encodeResponse(request)
    if var folded, folded.tree.hasInstances {
        checkInstances(&folded, against: request, answer: response)
    }
    guard (try? JSONValue.parse(bytes: response, limits: WireLimits(maxNodes: .max, maxDepth: 1 << 20,
                                                                     maxStringBytes: .max, maxDocumentBytes: .max))) != nil else {
        preconditionFailure("response is not JSON: \(String(decoding: response.prefix(400), as: UTF8.self))")
    }
    return 0
}

runFuzzer { data, size in fuzzOne(data, size) }
