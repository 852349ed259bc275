#include "server/base/sha256.h"

#include <openssl/evp.h>

#include <cstdlib>

#include "server/base/text_encoding.h"

namespace deniable::server {

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  // EVP_Digest only fails on allocation failure; a wrong hash would silently
  // break invitation codes, so fail closed.
  if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr) != 1) std::abort();
  return HexEncode(std::string_view(reinterpret_cast<const char*>(digest), length));
}

}  // namespace deniable::server
