import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TLS could not be set up (bad certificate or key).
public struct TLSError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ operation: String) {
        var text = operation
        let code = ERR_get_error()
        if code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            text += ": " + String(cString: buffer)
        }
        ERR_clear_error()
        description = text
    }
}

/// A server TLS context (OpenSSL 3): certificate chain and key, TLS 1.2 or newer, no
/// renegotiation, no compression.
final class TLSContext: @unchecked Sendable {
    private let context: OpaquePointer

    init(certificatePath: String, keyPath: String) throws {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSError("SSL_CTX_new") }
        self.context = context
        _ = copenssl_ctx_set_min_proto_version(context, TLS1_2_VERSION)
        copenssl_ctx_harden(context)
        guard SSL_CTX_use_certificate_chain_file(context, certificatePath) == 1 else {
            throw TLSError("loading the certificate chain \(certificatePath)")
        }
        guard SSL_CTX_use_PrivateKey_file(context, keyPath, SSL_FILETYPE_PEM) == 1 else {
            throw TLSError("loading the private key \(keyPath)")
        }
        guard SSL_CTX_check_private_key(context) == 1 else { throw TLSError("the key does not match the certificate") }
    }

    deinit { SSL_CTX_free(context) }

    func makeSession(fd: Int32) -> TLSSession? {
        guard let ssl = SSL_new(context) else { return nil }
        guard SSL_set_fd(ssl, fd) == 1 else { SSL_free(ssl); return nil }
        SSL_set_accept_state(ssl)
        // Our output buffer may move between retries of a partial write.
        _ = copenssl_set_mode(ssl, copenssl_mode_partial_moving())
        return TLSSession(ssl: ssl)
    }
}

/// One connection's TLS state; used only on the connection's queue.
final class TLSSession {
    enum Result {
        case bytes(Int)
        case wantRead
        case wantWrite
        case closed
        case failed
    }

    private let ssl: OpaquePointer
    private(set) var handshakeDone = false

    init(ssl: OpaquePointer) { self.ssl = ssl }
    deinit { SSL_free(ssl) }

    /// Decrypted bytes OpenSSL holds that the socket will not signal again.
    var pendingBytes: Int { Int(SSL_pending(ssl)) }

    func handshake() -> Result {
        ERR_clear_error()
        let status = SSL_do_handshake(ssl)
        if status == 1 { handshakeDone = true; return .bytes(0) }
        return classify(status)
    }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Result {
        ERR_clear_error()
        let count = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
        return count > 0 ? .bytes(Int(count)) : classify(count)
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Result {
        ERR_clear_error()
        let count = SSL_write(ssl, bytes.baseAddress, Int32(clamping: bytes.count))
        return count > 0 ? .bytes(Int(count)) : classify(count)
    }

    /// Sends close_notify if it can go out now; never blocks.
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
    }

    private func classify(_ status: Int32) -> Result {
        switch SSL_get_error(ssl, status) {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN: return .closed
        case SSL_ERROR_SYSCALL: return errno == 0 || status == 0 ? .closed : .failed
        default: return .failed
        }
    }
}
