// ResultsCache: hits and misses by (respondent count, options key), one
// computation for concurrent identical requests, failures cached nowhere,
// least-recently-used eviction of custom documents, the pinned default
// document, and the documents' charge to the shared CacheMemory budget.
#include "server/surveys/results_cache.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "test_sync.h"

namespace deniable::server {
namespace {

using testing::Latch;

// A compute function that counts its calls and returns {"key": key}.
struct Counter {
  std::atomic<int> calls{0};
  std::function<nlohmann::json()> For(const std::string& key) {
    return [this, key] {
      ++calls;
      return nlohmann::json{{"key", key}};
    };
  }
};

const std::string kKey = "options-a";

std::string CustomKey(int i) { return "options-" + std::to_string(i); }

}  // namespace

TEST_CASE("results cache: computed once per (respondents, key), then served; other keys and counts miss") {
  ResultsCache cache;
  Counter counter;
  const ResultsCache::Lookup first = cache.GetOrCompute(3, kKey, counter.For(kKey));
  CHECK(first.computed);
  REQUIRE(first.document != nullptr);
  CHECK(*first.document == nlohmann::json{{"key", kKey}});
  const ResultsCache::Lookup second = cache.GetOrCompute(3, kKey, counter.For(kKey));
  CHECK_FALSE(second.computed);
  CHECK(second.document == first.document);  // the same document, not a copy
  CHECK(counter.calls == 1);
  CHECK(cache.Find(3, kKey) == first.document);
  CHECK(cache.Find(3, "options-b") == nullptr);
  CHECK(cache.Find(2, kKey) == nullptr);
  CHECK(cache.Find(4, kKey) == nullptr);
  // Another option set is another document.
  const ResultsCache::Lookup other = cache.GetOrCompute(3, "options-b", counter.For("options-b"));
  CHECK(other.computed);
  CHECK(counter.calls == 2);
  CHECK(cache.size() == 2);
}

TEST_CASE("results cache: a new respondent count drops every older document; an older count is computed, not kept") {
  ResultsCache cache;
  Counter counter;
  cache.GetOrCompute(3, kKey, counter.For(kKey));
  cache.GetOrCompute(3, "options-b", counter.For("options-b"));
  REQUIRE(cache.size() == 2);
  CHECK(cache.GetOrCompute(4, kKey, counter.For(kKey)).computed);
  CHECK(cache.size() == 1);
  CHECK(cache.Find(3, kKey) == nullptr);
  CHECK(cache.Find(4, "options-b") == nullptr);
  // A request that read the survey before the last report: computed for it,
  // and the newer document stays.
  const auto newer = cache.Find(4, kKey);
  const ResultsCache::Lookup late = cache.GetOrCompute(3, kKey, counter.For(kKey));
  CHECK(late.computed);
  CHECK(late.document != newer);
  CHECK(counter.calls == 4);
  CHECK(cache.size() == 1);
  CHECK(cache.Find(4, kKey) == newer);
  CHECK(cache.Find(3, kKey) == nullptr);
}

TEST_CASE("results cache: a failed computation throws to its caller and leaves nothing cached") {
  ResultsCache cache;
  CHECK_THROWS_WITH_AS(cache.GetOrCompute(1, kKey, []() -> nlohmann::json { throw std::runtime_error("estimation failed"); }),
                       "estimation failed", std::runtime_error);
  CHECK(cache.size() == 0);
  CHECK(cache.Find(1, kKey) == nullptr);
  Counter counter;
  CHECK(cache.GetOrCompute(1, kKey, counter.For(kKey)).computed);  // computed again, not the failure
  CHECK(counter.calls == 1);
}

TEST_CASE("results cache: concurrent identical requests compute once; the others wait and share the document") {
  ResultsCache cache;
  Latch release;
  std::atomic<int> calls{0};
  std::atomic<bool> started{false};
  const auto compute = [&] {
    ++calls;
    started = true;
    CHECK(release.Wait());
    return nlohmann::json{{"key", kKey}};
  };
  auto first = std::async(std::launch::async, [&] { return cache.GetOrCompute(7, kKey, compute); });
  REQUIRE(testing::WaitUntil([&] { return started.load(); }));
  std::vector<std::future<ResultsCache::Lookup>> waiters;
  for (int i = 0; i < 3; ++i) {
    waiters.push_back(std::async(std::launch::async, [&] { return cache.GetOrCompute(7, kKey, compute); }));
  }
  auto found = std::async(std::launch::async, [&] { return cache.Find(7, kKey); });
  // They are all waiting for the one computation (none has an answer of its own).
  CHECK(found.wait_for(std::chrono::milliseconds(30)) == std::future_status::timeout);
  release.Open();
  const ResultsCache::Lookup computed = first.get();
  CHECK(computed.computed);
  for (auto& waiter : waiters) {
    const ResultsCache::Lookup lookup = waiter.get();
    CHECK_FALSE(lookup.computed);
    CHECK(lookup.document == computed.document);
  }
  CHECK(found.get() == computed.document);
  CHECK(calls == 1);
}

TEST_CASE("results cache: a computation's failure reaches the requests waiting for it; the next request computes") {
  ResultsCache cache;
  Latch release;
  std::atomic<bool> started{false};
  const auto failing = [&]() -> nlohmann::json {
    started = true;
    CHECK(release.Wait());
    throw std::runtime_error("the client disconnected");
  };
  auto first = std::async(std::launch::async, [&] { return cache.GetOrCompute(7, kKey, failing); });
  REQUIRE(testing::WaitUntil([&] { return started.load(); }));
  Counter counter;
  auto waiter = std::async(std::launch::async, [&] { return cache.GetOrCompute(7, kKey, counter.For(kKey)); });
  CHECK(waiter.wait_for(std::chrono::milliseconds(30)) == std::future_status::timeout);
  release.Open();
  CHECK_THROWS_WITH_AS(first.get(), "the client disconnected", std::runtime_error);
  CHECK_THROWS_WITH_AS(waiter.get(), "the client disconnected", std::runtime_error);
  CHECK(counter.calls == 0);
  CHECK(cache.size() == 0);
  CHECK(cache.GetOrCompute(7, kKey, counter.For(kKey)).computed);
  CHECK(counter.calls == 1);
}

TEST_CASE("results cache: at most kMaxEntries custom documents, the least recently used evicted; the pinned one stays") {
  REQUIRE(ResultsCache::kMaxEntries == 8);
  ResultsCache cache;
  Counter counter;
  CHECK(cache.GetOrCompute(1, "defaults", counter.For("defaults"), /*pinned=*/true).computed);
  for (int i = 0; i < 8; ++i) cache.GetOrCompute(1, CustomKey(i), counter.For(CustomKey(i)));
  CHECK(cache.size() == 9);  // the pinned document does not count against the custom ones
  // Touch options-0 (by a lookup) and options-1 (by a hit): options-2 is now the least recently used.
  CHECK(cache.Find(1, CustomKey(0)) != nullptr);
  CHECK_FALSE(cache.GetOrCompute(1, CustomKey(1), counter.For(CustomKey(1))).computed);
  CHECK(cache.GetOrCompute(1, CustomKey(8), counter.For(CustomKey(8))).computed);
  CHECK(cache.size() == 9);
  CHECK(cache.Find(1, CustomKey(2)) == nullptr);
  for (int i : {0, 1, 3, 4, 5, 6, 7, 8}) {
    CAPTURE(i);
    CHECK(cache.Find(1, CustomKey(i)) != nullptr);
  }
  // A flood of custom option sets never evicts the pinned default document.
  for (int i = 9; i < 30; ++i) cache.GetOrCompute(1, CustomKey(i), counter.For(CustomKey(i)));
  CHECK(cache.size() == 9);
  CHECK(cache.Find(1, "defaults") != nullptr);
  CHECK(counter.calls == 1 + 8 + 1 + 21);
}

TEST_CASE("results cache: documents are charged to the memory budget and given back when dropped") {
  auto memory = std::make_shared<CacheMemory>(1 << 20);
  const nlohmann::json document{{"key", kKey}};
  const std::size_t bytes = ApproximateBytes(document);
  {
    ResultsCache cache;
    cache.UseMemory(memory);
    cache.GetOrCompute(1, kKey, [&] { return document; });
    CHECK(memory->used() == bytes);
    cache.GetOrCompute(1, kKey, [&] { return document; });  // a hit charges nothing more
    CHECK(memory->used() == bytes);
    cache.GetOrCompute(1, "defaults", [&] { return document; }, /*pinned=*/true);
    CHECK(memory->used() == 2 * bytes);
    cache.GetOrCompute(2, kKey, [&] { return document; });  // a new count drops both
    CHECK(memory->used() == bytes);
    // Evicted past kMaxEntries: still one charge per kept document.
    for (int i = 0; i < 12; ++i) cache.GetOrCompute(2, CustomKey(i), [&] { return document; });
    CHECK(cache.size() == 8);
    CHECK(memory->used() == 8 * bytes);
  }
  CHECK(memory->used() == 0);  // a destroyed cache gives everything back
  // Without a budget (tests of the cache alone) nothing is charged.
  ResultsCache unbounded;
  unbounded.GetOrCompute(1, kKey, [&] { return document; });
  CHECK(memory->used() == 0);
}

TEST_CASE("results cache: under the budget a cache evicts its own least recently used custom documents; "
          "a document that cannot fit is served but not kept") {
  const nlohmann::json small{{"key", "s"}};
  const std::size_t bytes = ApproximateBytes(small);
  auto memory = std::make_shared<CacheMemory>(3 * bytes);
  ResultsCache survey_a;
  ResultsCache survey_b;
  survey_a.UseMemory(memory);
  survey_b.UseMemory(memory);
  survey_a.GetOrCompute(1, "a0", [&] { return small; });
  survey_b.GetOrCompute(1, "b0", [&] { return small; });
  survey_b.GetOrCompute(1, "b1", [&] { return small; });
  CHECK(memory->used() == 3 * bytes);
  // The budget is full: survey b evicts its own oldest document, never a's.
  survey_b.GetOrCompute(1, "b2", [&] { return small; });
  CHECK(memory->used() == 3 * bytes);
  CHECK(survey_b.Find(1, "b0") == nullptr);
  CHECK(survey_b.Find(1, "b1") != nullptr);
  CHECK(survey_b.Find(1, "b2") != nullptr);
  CHECK(survey_a.Find(1, "a0") != nullptr);
  // A pinned default document is charged even over the budget, and evicts nothing.
  survey_a.GetOrCompute(1, "defaults", [&] { return small; }, /*pinned=*/true);
  CHECK(memory->used() == 4 * bytes);
  CHECK(survey_a.size() == 2);
  CHECK(survey_b.size() == 2);
  // A custom document larger than the budget: survey a's own custom documents
  // are evicted trying to make room, then it is served and dropped.
  nlohmann::json large = nlohmann::json::array();
  for (int i = 0; i < 10; ++i) large.push_back(small);
  REQUIRE(ApproximateBytes(large) > 3 * bytes);
  const ResultsCache::Lookup served = survey_a.GetOrCompute(1, "large", [&] { return large; });
  CHECK(served.computed);
  CHECK(*served.document == large);
  CHECK(survey_a.Find(1, "large") == nullptr);
  CHECK(survey_a.Find(1, "a0") == nullptr);
  CHECK(survey_a.Find(1, "defaults") != nullptr);
  CHECK(survey_a.size() == 1);
  CHECK(memory->used() == 3 * bytes);  // the pinned default and b's two
}

}  // namespace deniable::server
