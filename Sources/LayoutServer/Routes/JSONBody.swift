import HTTPServer

/// The `Content-Type` check of the routes that take a JSON body.
enum JSONBody {
    /// Whether `request` says its body is JSON; if not, answers 415 and returns false.
    static func accepts(_ request: HTTPRequest, _ responder: Responder) -> Bool {
        let contentType = request.headers["Content-Type"]
        guard isJSON(contentType) else {
            responder(ServiceError.unsupportedMediaType(contentType).response())
            return false
        }
        return true
    }

    /// `application/json`, with or without parameters, in any letter case.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        // Compared on the UTF-8 bytes in place: no substring, no copy per request.
        return contentType.utf8.withContiguousStorageIfAvailable(isJSON)
            ?? Array(contentType.utf8).withUnsafeBufferPointer(isJSON)
    }

    private static func isJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard end - start == mediaType.count else { return false }
        for offset in 0..<mediaType.count {
            let byte = bytes[start + offset]
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            if lower != mediaType[offset] { return false }
        }
        return true
    }

    private static let mediaType: [UInt8] = Array(contentType.utf8)

    /// The media type of JSON bodies, as sent.
    static let contentType = "application/json"

    /// The headers of a JSON answer.
    static let headers: HTTPHeaders = ["Content-Type": contentType]
}
