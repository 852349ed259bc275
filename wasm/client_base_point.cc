// The client module's scalar * generator, through libsodium's variable-base
// multiplication instead of its fixed-base one (linked only into
// deniable_client.wasm, with -Wl,--wrap=crypto_scalarmult_ristretto255_base).
//
// Why: libsodium's fixed-base path reads a precomputed table of 256 points
// (30,807 bytes of data that brotli cannot shrink: 27 KiB of the survey
// page's 150 KiB budget, issue 32), while the page multiplies the generator
// once per token (verifying the issuer's DLEQ proof). The variable-base path
// computes the same point (both clear the scalar's top bit, multiply, encode
// and return -1 for the identity), only a little slower, so the reports and
// the vectors are unchanged. The full module and the server keep the table.
#include <sodium.h>

namespace {

// The ristretto255 encoding of the generator (RFC 9496, section 4.4 / libsodium's
// ed25519 base point).
const unsigned char kGenerator[crypto_core_ristretto255_BYTES] = {
    0xe2, 0xf2, 0xae, 0x0a, 0x6a, 0xbc, 0x4e, 0x71, 0xa8, 0x84, 0xa9, 0x61, 0xc5, 0x00, 0x51, 0x5f,
    0x58, 0xe3, 0x0b, 0x6a, 0xa5, 0x82, 0xdd, 0x8d, 0xb6, 0xa6, 0x59, 0x45, 0xe0, 0x8d, 0x2d, 0x76};

}  // namespace

extern "C" int __wrap_crypto_scalarmult_ristretto255_base(unsigned char* q, const unsigned char* n) {
  return crypto_scalarmult_ristretto255(q, n, kGenerator);
}
