// Byte strings to text: lowercase hex, and lowercase base32 (RFC 4648
// alphabet, no padding) for invitation codes people may have to type.
#pragma once

#include <string>
#include <string_view>

namespace deniable::server {

std::string HexEncode(std::string_view bytes);
std::string Base32Encode(std::string_view bytes);

bool IsLowercaseHex(std::string_view text);
bool IsLowercaseBase32(std::string_view text);

}  // namespace deniable::server
