#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>

// Function-like macros that Swift cannot import.
static inline long copenssl_set_mode(SSL *ssl, long mode) { return SSL_set_mode(ssl, mode); }
static inline long copenssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}
// No renegotiation, no TLS compression (CRIME).
static inline void copenssl_ctx_harden(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
}
static inline long copenssl_mode_partial_moving(void) {
    return SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER;
}
#endif
