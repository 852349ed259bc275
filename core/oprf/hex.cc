// The wire encoding of tokens, elements, scalars and proofs: lowercase hex
// out, either case in, exact lengths, errors naming the field.
#include <string>

#include "core/oprf/ristretto_group.h"
#include "core/oprf/voprf.h"

namespace deniable::oprf {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

template <std::size_t N>
Result<std::array<std::uint8_t, N>> ArrayFromHex(std::string_view hex, std::string_view what) {
  DENIABLE_ASSIGN_OR_RETURN(const Bytes bytes, FromHex(hex, N, what));
  std::array<std::uint8_t, N> out;
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

}  // namespace

std::string ToHex(const std::uint8_t* data, std::size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * size);
  for (std::size_t i = 0; i < size; ++i) {
    hex.push_back(kDigits[data[i] >> 4]);
    hex.push_back(kDigits[data[i] & 0x0f]);
  }
  return hex;
}

Result<Bytes> FromHex(std::string_view hex, std::size_t size, std::string_view what) {
  if (hex.size() != 2 * size) {
    return MakeError(std::string(what) + ": expected " + std::to_string(2 * size) + " hexadecimal characters, got " +
                     std::to_string(hex.size()));
  }
  Bytes bytes(size);
  for (std::size_t i = 0; i < hex.size(); ++i) {
    const int digit = HexDigit(hex[i]);
    if (digit < 0) {
      return MakeError(std::string(what) + ": character " + std::to_string(i + 1) + " is not hexadecimal");
    }
    bytes[i / 2] = static_cast<std::uint8_t>(i % 2 == 0 ? digit << 4 : bytes[i / 2] | digit);
  }
  return bytes;
}

Result<Element> ElementFromHex(std::string_view hex, std::string_view what) {
  DENIABLE_ASSIGN_OR_RETURN(const Element element, ArrayFromHex<kElementBytes>(hex, what));
  DENIABLE_TRY(group::CheckElement(element, what));
  return element;
}

Result<Scalar> ScalarFromHex(std::string_view hex, std::string_view what) {
  DENIABLE_ASSIGN_OR_RETURN(const Scalar scalar, ArrayFromHex<kScalarBytes>(hex, what));
  DENIABLE_TRY(group::CheckScalar(scalar, what));
  return scalar;
}

Result<Output> OutputFromHex(std::string_view hex, std::string_view what) {
  return ArrayFromHex<kOutputBytes>(hex, what);
}

}  // namespace deniable::oprf
