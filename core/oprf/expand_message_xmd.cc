#include "core/oprf/expand_message_xmd.h"

#include <sodium.h>

#include <array>
#include <cstdint>
#include <string>

namespace deniable::oprf {
namespace {

using Digest = std::array<std::uint8_t, kXmdHashBytes>;

// DST_prime = DST || I2OSP(len(DST), 1): ends every hash of the expansion.
void UpdateWithDstPrime(crypto_hash_sha512_state& state, std::string_view dst) {
  crypto_hash_sha512_update(&state, reinterpret_cast<const unsigned char*>(dst.data()), dst.size());
  const unsigned char dst_length = static_cast<unsigned char>(dst.size());
  crypto_hash_sha512_update(&state, &dst_length, 1);
}

// b_0 = H(Z_pad || msg || I2OSP(len_in_bytes, 2) || I2OSP(0, 1) || DST_prime).
Digest FirstBlock(const Bytes& message, std::string_view dst, std::size_t length) {
  crypto_hash_sha512_state state;
  crypto_hash_sha512_init(&state);
  const std::array<unsigned char, kXmdBlockBytes> zero_pad{};
  crypto_hash_sha512_update(&state, zero_pad.data(), zero_pad.size());
  crypto_hash_sha512_update(&state, message.data(), message.size());
  const std::array<unsigned char, 3> length_and_zero{static_cast<unsigned char>(length >> 8),
                                                     static_cast<unsigned char>(length & 0xff), 0};
  crypto_hash_sha512_update(&state, length_and_zero.data(), length_and_zero.size());
  UpdateWithDstPrime(state, dst);
  Digest digest;
  crypto_hash_sha512_final(&state, digest.data());
  return digest;
}

// b_i = H(strxor(b_0, b_(i-1)) || I2OSP(i, 1) || DST_prime); b_1 takes b_0
// alone (strxor with the empty b_0 of the RFC is b_0 itself).
Digest NextBlock(const Digest& b0, const Digest& previous, std::size_t index, std::string_view dst) {
  Digest mixed;
  for (std::size_t i = 0; i < mixed.size(); ++i) mixed[i] = index == 1 ? b0[i] : b0[i] ^ previous[i];
  crypto_hash_sha512_state state;
  crypto_hash_sha512_init(&state);
  crypto_hash_sha512_update(&state, mixed.data(), mixed.size());
  const unsigned char counter = static_cast<unsigned char>(index);
  crypto_hash_sha512_update(&state, &counter, 1);
  UpdateWithDstPrime(state, dst);
  Digest digest;
  crypto_hash_sha512_final(&state, digest.data());
  return digest;
}

}  // namespace

Result<Bytes> ExpandMessageXmdSha512(const Bytes& message, std::string_view dst, std::size_t length) {
  const std::size_t blocks = (length + kXmdHashBytes - 1) / kXmdHashBytes;
  if (blocks > 255 || length > 65535) {
    return MakeError("expand_message_xmd: " + std::to_string(length) + " bytes is more than it can produce");
  }
  if (dst.size() > 255) return MakeError("expand_message_xmd: the domain separation tag is longer than 255 bytes");
  const Digest b0 = FirstBlock(message, dst, length);
  Bytes uniform;
  uniform.reserve(blocks * kXmdHashBytes);
  Digest block{};
  for (std::size_t i = 1; i <= blocks; ++i) {
    block = NextBlock(b0, block, i, dst);
    uniform.insert(uniform.end(), block.begin(), block.end());
  }
  uniform.resize(length);
  return uniform;
}

}  // namespace deniable::oprf
