/// Why a request was refused. Every case maps to a status code and a stable error code;
/// the connection is closed after answering.
public struct HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case requestLineTooLong
        case headersTooLarge
        case bodyTooLarge
        case inflatedBodyTooLarge
        case invalidRequestLine
        case invalidMethod
        case invalidTarget
        case unsupportedVersion
        case bareCR
        case bareLF
        case obsFold
        case whitespaceBeforeColon
        case invalidHeaderName
        case invalidHeaderValue
        case missingHost
        case duplicateHost
        case contentLengthWithTransferEncoding
        case duplicateContentLength
        case invalidContentLength
        case transferEncodingInHTTP10
        case invalidTransferEncoding
        case unsupportedTransferEncoding
        case invalidChunkSize
        case invalidChunkExtension
        case invalidChunkTerminator
        case invalidTrailer
        case unsupportedContentEncoding
        case invalidGzipBody
        case expectationFailed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The status code this error is answered with.
    public var status: Int {
        switch kind {
        case .requestLineTooLong: return 414
        case .headersTooLarge: return 431
        case .bodyTooLarge, .inflatedBodyTooLarge: return 413
        case .unsupportedVersion: return 505
        case .unsupportedTransferEncoding: return 501
        case .unsupportedContentEncoding: return 415
        case .expectationFailed: return 417
        default: return 400
        }
    }

    public var description: String { "\(status) \(kind.rawValue): \(message)" }
}
