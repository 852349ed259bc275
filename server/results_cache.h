// The computed results documents of one survey, keyed by (respondent count,
// numeric options). Estimating a numeric question costs 0.1-0.5 s and the
// dashboard polls every 2 s, so identical requests between two reports are
// served from here; a new report changes the respondent count, which drops
// every older document. Concurrent identical requests compute once: the first
// reserves the slot and computes outside the lock, the others wait for it.
// At most kMaxEntries documents (option sets) are kept, least recently used
// evicted. Thread-safe.
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

namespace deniable::server {

class ResultsCache {
 public:
  using Document = std::shared_ptr<const nlohmann::json>;
  static constexpr std::size_t kMaxEntries = 8;

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
  Lookup GetOrCompute(std::int64_t respondents, const std::string& key,
                      const std::function<nlohmann::json()>& compute);

  std::size_t size() const;

 private:
  struct Slot {
    std::shared_future<Document> document;
    std::uint64_t last_used = 0;
    std::uint64_t id = 0;  // tells a failed computation's own slot from a later one
  };

  // Drops every document when the respondent count moves on. Needs mutex_.
  bool AdvanceTo(std::int64_t respondents);
  void EvictLeastRecentlyUsed();  // needs mutex_
  void EraseFailed(const std::string& key, std::uint64_t id);

  mutable std::mutex mutex_;
  std::int64_t respondents_ = -1;
  std::uint64_t clock_ = 0;
  std::map<std::string, Slot> slots_;
};

}  // namespace deniable::server
