#include "server/surveys/cache_memory.h"

#include <malloc.h>

namespace deniable::server {
namespace {

// Below this, giving heap back to the system costs more than it returns.
constexpr std::size_t kTrimAbove = std::size_t{8} << 20;

}  // namespace

bool CacheMemory::TryCharge(std::size_t bytes) {
  std::size_t used = used_.load();
  do {
    if (used + bytes > budget_) return false;
  } while (!used_.compare_exchange_weak(used, used + bytes));
  return true;
}

void CacheMemory::Release(std::size_t bytes) {
  used_ -= bytes;
  // glibc keeps freed blocks for reuse: without this a burst of large
  // documents held the server's memory after they were evicted.
  if (bytes >= kTrimAbove) malloc_trim(0);
}

std::size_t ApproximateBytes(const nlohmann::json& document) {
  constexpr std::size_t kNode = sizeof(nlohmann::json);
  switch (document.type()) {
    case nlohmann::json::value_t::object: {
      std::size_t bytes = kNode;
      for (const auto& [key, value] : document.items()) bytes += 64 + key.size() + ApproximateBytes(value);
      return bytes;
    }
    case nlohmann::json::value_t::array: {
      std::size_t bytes = kNode;
      for (const auto& value : document) bytes += ApproximateBytes(value);
      return bytes;
    }
    case nlohmann::json::value_t::string:
      return kNode + 32 + document.get_ref<const std::string&>().size();
    default:
      return kNode;
  }
}

}  // namespace deniable::server
