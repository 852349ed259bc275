// The ristretto255-SHA512 suite of RFC 9497 section 4.1 in VOPRF mode: its
// context string and the two hashes into the group, plus the length-prefixed
// encoding every transcript of the protocol uses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/oprf/voprf.h"

namespace deniable::oprf {

inline constexpr std::uint8_t kModeVoprf = 0x01;

// "OPRFV1-" || I2OSP(mode, 1) || "-" || "ristretto255-SHA512" (RFC 9497
// section 3.1): every domain separation tag ends with it, so another mode,
// suite or protocol version never shares a hash with this one.
std::string ContextString(std::uint8_t mode = kModeVoprf);

// HashToGroup: hash_to_ristretto255 of RFC 9380 (64 bytes of
// expand_message_xmd with DST "HashToGroup-" || contextString, then the
// ristretto255 one-way map). The identity is possible in principle: callers
// refuse it. `input` is at most 65535 bytes (callers check).
Element HashToGroup(const Bytes& input, std::uint8_t mode = kModeVoprf);

// HashToScalar: 64 bytes of expand_message_xmd under `dst`, read as a
// little-endian integer and reduced modulo the group order.
Scalar HashToScalarWithDst(const Bytes& message, std::string_view dst);
// With the suite's DST "HashToScalar-" || contextString.
Scalar HashToScalar(const Bytes& message, std::uint8_t mode = kModeVoprf);

// Appends I2OSP(len(data), 2) || data (data at most 65535 bytes).
void AppendWithLength(Bytes& out, const std::uint8_t* data, std::size_t size);
void AppendText(Bytes& out, std::string_view text);

}  // namespace deniable::oprf
