// CacheMemory (the server-wide budget of cached results documents) and
// ApproximateBytes (what a document is charged).
#include "server/surveys/cache_memory.h"

#include <doctest/doctest.h>

namespace deniable::server {

TEST_CASE("cache memory: TryCharge charges only within the budget; Charge always; Release gives back") {
  CHECK(CacheMemory().budget() == std::size_t{256} * 1024 * 1024);
  CacheMemory memory(100);
  CHECK(memory.used() == 0);
  CHECK(memory.TryCharge(60));
  CHECK(memory.used() == 60);
  CHECK_FALSE(memory.TryCharge(41));  // would be 101: nothing charged
  CHECK(memory.used() == 60);
  CHECK(memory.TryCharge(40));  // exactly the budget
  CHECK(memory.used() == 100);
  CHECK_FALSE(memory.TryCharge(1));
  memory.Charge(50);  // a pinned document: over the budget, charged anyway
  CHECK(memory.used() == 150);
  CHECK_FALSE(memory.TryCharge(0));  // over the budget: not even nothing fits
  memory.Release(150);
  CHECK(memory.used() == 0);
  CHECK(memory.TryCharge(100));
}

TEST_CASE("cache memory: a document is charged one node per value, plus its text and 64 bytes per object key") {
  constexpr std::size_t kNode = sizeof(nlohmann::json);
  CHECK(ApproximateBytes(nlohmann::json()) == kNode);
  CHECK(ApproximateBytes(nlohmann::json(1.5)) == kNode);
  CHECK(ApproximateBytes(nlohmann::json(true)) == kNode);
  CHECK(ApproximateBytes(nlohmann::json("abc")) == kNode + 32 + 3);
  CHECK(ApproximateBytes(nlohmann::json::array({1, 2})) == 3 * kNode);
  CHECK(ApproximateBytes(nlohmann::json::object()) == kNode);
  CHECK(ApproximateBytes(nlohmann::json{{"ab", 1}}) == kNode + 64 + 2 + kNode);
  CHECK(ApproximateBytes(nlohmann::json{{"k", nlohmann::json::array({"xy", nullptr})}}) == kNode + 64 + 1 + kNode + (kNode + 32 + 2) + kNode);
}

}  // namespace deniable::server
