// Blind tokens for invitation surveys: RFC 9497's verifiable oblivious PRF
// (VOPRF, mode 0x01) with the ristretto255-SHA512 suite, over libsodium's
// ristretto255 group (natively Debian's libsodium; in WebAssembly the same
// libsodium version compiled from Debian's source by wasm/build-libsodium.sh).
//
// The protocol (the page is the client, the server holds the survey's key):
//   page:   input = 32 random bytes; (blind, blinded_element) = Blind(input)
//   server: spends the invitation code; (evaluated_element, proof) = BlindEvaluate(key, blinded_element)
//   page:   output = Finalize(input, blind, evaluation, public_key)  (checks the proof: one key for everyone)
//   page:   sends its report with the token (input, output)
//   server: Evaluate(secret_key, input) == output, and input's hash not spent: stores both in one commit
// The server sees blinded_element = blind * HashToGroup(input) at issuance and
// input at redemption: without the blind the two are independent, so no log,
// file or key pairs a code with a report.
//
// VOPRF rather than OPRF: the page checks each evaluation against the survey's
// published public key, so a server cannot evaluate each invitee under a key
// of their own and recognise their token at redemption.
//
// Pure computation: no I/O, no globals. Randomness only through RandomSource
// (never libsodium's randombytes). Every input from outside (bytes on the
// wire, a stored key) is validated here: a non-canonical element or scalar,
// the identity element, or a zero scalar is an error naming what is wrong.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/random_source.h"
#include "core/common/result.h"

namespace deniable::oprf {

inline constexpr std::size_t kElementBytes = 32;
inline constexpr std::size_t kScalarBytes = 32;
inline constexpr std::size_t kOutputBytes = 64;
// The token input the page draws (RFC 9497 allows any length up to 2^16 - 1).
inline constexpr std::size_t kTokenInputBytes = 32;

using Bytes = std::vector<std::uint8_t>;
using Scalar = std::array<std::uint8_t, kScalarBytes>;
using Element = std::array<std::uint8_t, kElementBytes>;
using Output = std::array<std::uint8_t, kOutputBytes>;

struct KeyPair {
  Scalar secret_key{};
  Element public_key{};
};

struct Proof {
  Scalar c{};
  Scalar s{};
};

struct BlindedInput {
  Scalar blind{};
  Element blinded_element{};
};

struct Evaluation {
  Element evaluated_element{};
  Proof proof;
};

// --- keys
// A fresh key pair: 64 bytes from `random` reduced modulo the group order
// (a zero scalar is drawn again).
KeyPair GenerateKeyPair(RandomSource& random);
// RFC 9497 section 3.2.1 DeriveKeyPair(seed, info): the test vectors' keys.
Result<KeyPair> DeriveKeyPair(const Bytes& seed, const Bytes& info);
// The pair of a stored secret key; refused unless a canonical non-zero scalar.
Result<KeyPair> KeyPairFromSecret(const Scalar& secret_key);

// --- the page (client)
// A fresh token input: kTokenInputBytes bytes from `random`.
Bytes RandomTokenInput(RandomSource& random);
Result<BlindedInput> Blind(const Bytes& input, RandomSource& random);
// With a given blind (the test vectors; a broken blind in the attack tests).
Result<BlindedInput> BlindWith(const Bytes& input, const Scalar& blind);
// Verifies the proof against public_key (refused if it fails), then unblinds
// and hashes: the PRF output.
Result<Output> Finalize(const Bytes& input, const BlindedInput& blinded, const Evaluation& evaluation,
                        const Element& public_key);

// --- the server
// The evaluation of a blinded element with a proof; refused when the element
// is not a valid non-identity ristretto255 encoding.
Result<Evaluation> BlindEvaluate(const KeyPair& key, const Element& blinded_element, RandomSource& random);
// With the proof's random scalar given (the test vectors).
Result<Evaluation> BlindEvaluateWith(const KeyPair& key, const Element& blinded_element, const Scalar& proof_random);
// The PRF output of an input, computed directly (redemption).
Result<Output> Evaluate(const Scalar& secret_key, const Bytes& input);
// Constant-time comparison of two outputs.
bool SameOutput(const Output& a, const Output& b);

// --- encodings on the wire: lowercase hex
std::string ToHex(const std::uint8_t* data, std::size_t size);
template <std::size_t N>
std::string ToHex(const std::array<std::uint8_t, N>& bytes) {
  return ToHex(bytes.data(), bytes.size());
}
inline std::string ToHex(const Bytes& bytes) { return ToHex(bytes.data(), bytes.size()); }
// Exactly `size` bytes of hex (either case), or an error naming `what`.
Result<Bytes> FromHex(std::string_view hex, std::size_t size, std::string_view what);
// Also refused: an element that is not a canonical encoding or is the identity.
Result<Element> ElementFromHex(std::string_view hex, std::string_view what);
// Also refused: a scalar not below the group order (zero is accepted here).
Result<Scalar> ScalarFromHex(std::string_view hex, std::string_view what);
Result<Output> OutputFromHex(std::string_view hex, std::string_view what);

}  // namespace deniable::oprf
