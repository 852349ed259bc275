#include "server/base/text_encoding.h"

#include <algorithm>
#include <cstdint>

namespace deniable::server {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr char kBase32Alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";

}  // namespace

std::string HexEncode(std::string_view bytes) {
  std::string text;
  text.reserve(bytes.size() * 2);
  for (unsigned char byte : bytes) {
    text.push_back(kHexDigits[byte >> 4]);
    text.push_back(kHexDigits[byte & 0x0f]);
  }
  return text;
}

std::string Base32Encode(std::string_view bytes) {
  std::string text;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char byte : bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text.push_back(kBase32Alphabet[(buffer >> (bits - 5)) & 0x1f]);
      bits -= 5;
    }
  }
  if (bits > 0) text.push_back(kBase32Alphabet[(buffer << (5 - bits)) & 0x1f]);
  return text;
}

bool IsLowercaseHex(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool IsLowercaseBase32(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '2' && c <= '7'); });
}

}  // namespace deniable::server
