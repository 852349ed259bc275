// The operating system's randomness (os_random.h): getentropy, values differ.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>

#include "core/common/os_random.h"

using namespace deniable;

TEST_CASE("OsRandom draws from getentropy: values differ") {
  OsRandom random;
  std::set<std::uint64_t> values;
  for (int i = 0; i < 100; ++i) values.insert(random.NextU64());  // crosses a buffer refill (32 words)
  CHECK(values.size() == 100);
}
