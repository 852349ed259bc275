// SHA-256 from OpenSSL's libcrypto (already a dependency of cpp-httplib).
#pragma once

#include <string>
#include <string_view>

namespace deniable::server {

// Lowercase hex digest of the bytes.
std::string Sha256Hex(std::string_view data);

}  // namespace deniable::server
