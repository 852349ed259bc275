// The computed results documents of one survey, keyed by (respondent count,
// numeric options). Estimating a numeric question costs 0.1-0.5 s and the
// dashboard polls every 2 s, so identical requests between two reports are
// served from here; a new report changes the respondent count, which drops
// every older document. Concurrent identical requests compute once: the first
// reserves the slot and computes outside the lock, the others wait for it.
// At most kMaxEntries custom documents (option sets) are kept, least recently
// used evicted, and only while the server-wide memory budget holds them
// (cache_memory.h); the default options' document is pinned. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "server/surveys/cache_memory.h"

namespace deniable::server {

class ResultsCache {
 public:
  using Document = std::shared_ptr<const nlohmann::json>;
  static constexpr std::size_t kMaxEntries = 8;

  ResultsCache() = default;
  ~ResultsCache();
  ResultsCache(const ResultsCache&) = delete;
  ResultsCache& operator=(const ResultsCache&) = delete;

  // The server-wide budget this cache's documents are charged to (none: unbounded, for tests of the cache alone).
  void UseMemory(std::shared_ptr<CacheMemory> memory);

  struct Lookup {
    Document document;
    bool computed = false;  // false: served from the cache (or waited for another request's computation)
  };

  // The document cached for (respondents, key), waiting if it is being
  // computed; nullptr when absent.
  Document Find(std::int64_t respondents, const std::string& key);

  // The document for (respondents, key), calling `compute` (outside the lock)
  // only when no caller has computed or is computing it. An exception from
  // `compute` reaches every waiting caller and nothing is cached. A request
  // whose respondent count is older than the cache's is computed, not cached.
  // `pinned`: the default options' document, never evicted for custom ones.
  Lookup GetOrCompute(std::int64_t respondents, const std::string& key,
                      const std::function<nlohmann::json()>& compute, bool pinned = false);

  std::size_t size() const;

 private:
  struct Slot {
    std::shared_future<Document> document;
    std::uint64_t last_used = 0;
    std::uint64_t id = 0;  // tells a failed computation's own slot from a later one
    bool pinned = false;
    std::size_t bytes = 0;  // charged to the memory budget once computed
  };

  // Drops every document when the respondent count moves on. Needs mutex_.
  bool AdvanceTo(std::int64_t respondents);
  // Evicts the least recently used custom document other than `keep`; false when there is none. Needs mutex_.
  bool EvictLeastRecentlyUsed(const std::string& keep = {});
  void Erase(std::map<std::string, Slot>::iterator slot);  // releases its bytes; needs mutex_
  void EraseFailed(const std::string& key, std::uint64_t id);
  // Charges a computed document to the budget, or drops its slot when the budget cannot hold it.
  void Keep(const std::string& key, std::uint64_t id, const nlohmann::json& document);

  mutable std::mutex mutex_;
  std::int64_t respondents_ = -1;
  std::uint64_t clock_ = 0;
  std::map<std::string, Slot> slots_;
  std::shared_ptr<CacheMemory> memory_;
};

}  // namespace deniable::server
