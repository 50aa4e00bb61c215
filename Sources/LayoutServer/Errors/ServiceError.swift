import HTTPServer
import LayoutWire

/// An error as the service answers it: an HTTP status, a stable machine-readable `code`, a
/// message for people, and where (a JSON pointer, a byte offset, the conflicting constraints).
///
/// The service's errors have this one owner: wire errors map here (`init(_: WireError)`), the
/// service's own refusals (404, 405, 415, 503, ...) are built here, and `jsonBytes` is the one
/// writer of the error body every error answer carries, a batch item's included:
/// `{"error":{"status":..,"code":..,"message":..,"pointer":..,"offset":..,"parameter":..,"conflicts":[..]}}`
/// (pointer, offset, parameter and conflicts only when known).
public struct ServiceError: Error, Hashable, Sendable {
    public var status: Int
    public var code: String
    public var message: String
    /// RFC 6901 pointer to the offending value of the request body.
    public var pointer: String?
    /// Byte offset into the body, for syntax errors.
    public var offset: Int?
    /// For `unsatisfiable-constraints`: a pointer to each conflicting constraint.
    public var conflicts: [String]?
    /// For a refused query parameter (or header, as `Accept`): its name.
    public var parameter: String?

    public init(status: Int, code: String, message: String, pointer: String? = nil, offset: Int? = nil,
                conflicts: [String]? = nil, parameter: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.pointer = pointer
        self.offset = offset
        self.conflicts = conflicts
        self.parameter = parameter
    }

    /// A wire error at the status its kind maps to: 400 not JSON, 413 over a limit, 422 not a
    /// valid layout.
    public init(_ error: WireError) {
        self.init(status: Self.status(of: error.kind), code: error.code, message: error.message,
                  pointer: error.pointer, offset: error.offset, conflicts: error.conflicts)
    }

    /// The HTTP status of each kind of wire error.
    public static func status(of kind: WireError.Kind) -> Int {
        switch kind {
        case .malformed: return 400
        case .overLimit: return 413
        case .invalid: return 422
        }
    }

    /// The error body.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("error" as StaticString)
        writer.beginObject()
        writer.key("status" as StaticString); writer.integer(status)
        writer.key("code" as StaticString); writer.string(code)
        writer.key("message" as StaticString); writer.string(message)
        if let pointer { writer.key("pointer" as StaticString); writer.string(pointer) }
        if let offset { writer.key("offset" as StaticString); writer.integer(offset) }
        if let parameter { writer.key("parameter" as StaticString); writer.string(parameter) }
        if let conflicts {
            writer.key("conflicts" as StaticString)
            writer.beginArray()
            for conflict in conflicts { writer.string(conflict) }
            writer.endArray()
        }
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }

    /// The error as an HTTP answer: its status, a JSON body, and `headers` besides.
    func response(adding headers: HTTPHeaders = [:]) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: JSONBody.headers, body: jsonBytes)
        for field in headers { response.headers.add(name: field.name, value: field.value) }
        return response
    }
}

// MARK: - The service's own refusals

extension ServiceError {
    static func notFound(path: String) -> ServiceError {
        ServiceError(status: 404, code: "not-found", message: "no route for \(path)")
    }

    /// 405, with the `Allow` field listing `allowed`.
    static func methodNotAllowed(method: String, allowed: [String]) -> HTTPResponse {
        ServiceError(status: 405, code: "method-not-allowed",
                     message: "\(method) is not allowed here; use \(allowed.joined(separator: " or "))")
            .response(adding: ["Allow": allowed.joined(separator: ", ")])
    }

    static func unsupportedMediaType(_ contentType: String?) -> ServiceError {
        let given = contentType.map { "not \($0)" } ?? "and none was given"
        return ServiceError(status: 415, code: "unsupported-media-type",
                            message: "the body must be application/json, \(given)")
    }

    /// Seconds a client is told to wait (`Retry-After`) after a 503 `overloaded`: about how
    /// long a full compute budget takes to drain on a couple of cores.
    static let overloadedRetryAfterSeconds = 1

    /// 503: the compute budget (`--max-pending-compute-bytes`) is full; nothing was computed.
    static func overloaded(pendingLimitBytes: Int) -> HTTPResponse {
        ServiceError(status: 503, code: "overloaded",
                     message: "layout work pending exceeds \(pendingLimitBytes) bytes of request bodies; retry later",
                     pointer: "")
            .response(adding: ["Retry-After": String(overloadedRetryAfterSeconds)])
    }

    /// 503: large layouts waiting for the compute memory budget (`--max-compute-memory-bytes`)
    /// already fill it; nothing was computed.
    static func overloaded(memoryLimitBytes: Int) -> HTTPResponse {
        ServiceError(status: 503, code: "overloaded",
                     message: "large layouts waiting exceed \(memoryLimitBytes) bytes of estimated working memory; retry later",
                     pointer: "")
            .response(adding: ["Retry-After": String(overloadedRetryAfterSeconds)])
    }
}
