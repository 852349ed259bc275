// One memory budget for every survey's cached results documents. Without it
// each survey kept up to 8 documents whatever their size: ~40 distinct
// cross-tab queries of one block grew the server to 1.3 GB, and a flood of
// custom option sets evicted the dashboard's default document (35.7 s to
// compute again). Now custom documents are kept only while the budget holds
// them (a cache first evicts its own least recently used custom documents;
// a document that still does not fit is served but not kept), and each
// survey's default document is pinned: charged, never evicted by custom ones.
// Thread-safe.
#pragma once

#include <atomic>
#include <cstddef>

#include <nlohmann/json.hpp>

namespace deniable::server {

class CacheMemory {
 public:
  static constexpr std::size_t kDefaultBudget = std::size_t{256} << 20;  // 256 MiB

  explicit CacheMemory(std::size_t budget_bytes = kDefaultBudget) : budget_(budget_bytes) {}

  // Charges `bytes` if the total stays within the budget; false (nothing charged) otherwise.
  bool TryCharge(std::size_t bytes);
  // Charges `bytes` whatever the budget (a pinned default document).
  void Charge(std::size_t bytes) { used_ += bytes; }
  // Gives `bytes` back; large releases also hand freed heap back to the system.
  void Release(std::size_t bytes);

  std::size_t used() const { return used_; }
  std::size_t budget() const { return budget_; }

 private:
  const std::size_t budget_;
  std::atomic<std::size_t> used_{0};
};

// What a document holds in memory, roughly (nlohmann::json's nodes and their
// text): what the budget counts. O(nodes), small beside computing the document.
std::size_t ApproximateBytes(const nlohmann::json& document);

}  // namespace deniable::server
