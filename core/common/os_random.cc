#include "core/common/os_random.h"

#include <unistd.h>

#include <cstdlib>

namespace deniable {

void OsRandom::Refill() {
  if (getentropy(buffer_.data(), sizeof(buffer_)) != 0) std::abort();
  next_ = 0;
}

std::uint64_t OsRandom::NextU64() {
  if (next_ == buffer_.size()) Refill();
  return buffer_[next_++];
}

}  // namespace deniable
