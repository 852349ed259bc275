#include "server/results_cache.h"

#include <algorithm>

namespace deniable::server {

ResultsCache::Document ResultsCache::Find(std::int64_t respondents, const std::string& key) {
  std::shared_future<Document> pending;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (respondents != respondents_) return nullptr;
    const auto it = slots_.find(key);
    if (it == slots_.end()) return nullptr;
    it->second.last_used = ++clock_;
    pending = it->second.document;
  }
  return pending.get();  // rethrows the computation's exception
}

ResultsCache::Lookup ResultsCache::GetOrCompute(std::int64_t respondents, const std::string& key,
                                                const std::function<nlohmann::json()>& compute) {
  std::promise<Document> promise;
  std::uint64_t id = 0;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!AdvanceTo(respondents)) {
      lock.unlock();
      return {std::make_shared<const nlohmann::json>(compute()), true};
    }
    const auto it = slots_.find(key);
    if (it != slots_.end()) {
      it->second.last_used = ++clock_;
      std::shared_future<Document> pending = it->second.document;
      lock.unlock();
      return {pending.get(), false};
    }
    if (slots_.size() >= kMaxEntries) EvictLeastRecentlyUsed();
    id = ++clock_;
    slots_.emplace(key, Slot{promise.get_future().share(), id, id});
  }
  try {
    Document document = std::make_shared<const nlohmann::json>(compute());
    promise.set_value(document);
    return {std::move(document), true};
  } catch (...) {
    promise.set_exception(std::current_exception());
    EraseFailed(key, id);
    throw;
  }
}

std::size_t ResultsCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return slots_.size();
}

bool ResultsCache::AdvanceTo(std::int64_t respondents) {
  if (respondents < respondents_) return false;
  if (respondents > respondents_) {
    slots_.clear();  // waiters keep their own copy of the shared future
    respondents_ = respondents;
  }
  return true;
}

void ResultsCache::EvictLeastRecentlyUsed() {
  const auto oldest = std::min_element(slots_.begin(), slots_.end(), [](const auto& a, const auto& b) {
    return a.second.last_used < b.second.last_used;
  });
  if (oldest != slots_.end()) slots_.erase(oldest);
}

void ResultsCache::EraseFailed(const std::string& key, std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = slots_.find(key);
  if (it != slots_.end() && it->second.id == id) slots_.erase(it);
}

}  // namespace deniable::server
