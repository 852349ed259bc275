#include "server/base/random_bytes.h"

#include <cstdint>

namespace deniable::server {

std::string RandomBytes(RandomSource& random, std::size_t count) {
  std::string bytes;
  bytes.reserve(count);
  while (bytes.size() < count) {
    std::uint64_t word = random.NextU64();
    for (int i = 0; i < 8 && bytes.size() < count; ++i, word >>= 8) {
      bytes.push_back(static_cast<char>(word & 0xff));
    }
  }
  return bytes;
}

}  // namespace deniable::server
