#include "server/surveys/results_cache.h"

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

ResultsCache::~ResultsCache() {
  std::lock_guard<std::mutex> lock(mutex_);
  while (!slots_.empty()) Erase(slots_.begin());
}

void ResultsCache::UseMemory(std::shared_ptr<CacheMemory> memory) {
  std::lock_guard<std::mutex> lock(mutex_);
  memory_ = std::move(memory);
}

ResultsCache::Lookup ResultsCache::GetOrCompute(std::int64_t respondents, const std::string& key,
                                                const std::function<nlohmann::json()>& compute, bool pinned) {
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
    const auto custom = std::count_if(slots_.begin(), slots_.end(), [](const auto& slot) { return !slot.second.pinned; });
    if (!pinned && static_cast<std::size_t>(custom) >= kMaxEntries) EvictLeastRecentlyUsed();
    id = ++clock_;
    slots_.emplace(key, Slot{promise.get_future().share(), id, id, pinned, 0});
  }
  try {
    Document document = std::make_shared<const nlohmann::json>(compute());
    promise.set_value(document);
    Keep(key, id, *document);
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
    while (!slots_.empty()) Erase(slots_.begin());  // waiters keep their own copy of the shared future
    respondents_ = respondents;
  }
  return true;
}

bool ResultsCache::EvictLeastRecentlyUsed(const std::string& keep) {
  auto oldest = slots_.end();
  for (auto it = slots_.begin(); it != slots_.end(); ++it) {
    if (it->second.pinned || it->first == keep) continue;
    if (oldest == slots_.end() || it->second.last_used < oldest->second.last_used) oldest = it;
  }
  if (oldest == slots_.end()) return false;
  Erase(oldest);
  return true;
}

void ResultsCache::Erase(std::map<std::string, Slot>::iterator slot) {
  if (memory_ != nullptr && slot->second.bytes > 0) memory_->Release(slot->second.bytes);
  slots_.erase(slot);
}

void ResultsCache::EraseFailed(const std::string& key, std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = slots_.find(key);
  if (it != slots_.end() && it->second.id == id) Erase(it);
}

void ResultsCache::Keep(const std::string& key, std::uint64_t id, const nlohmann::json& document) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = slots_.find(key);
  if (it == slots_.end() || it->second.id != id || memory_ == nullptr) return;  // evicted meanwhile, or unbounded
  const std::size_t bytes = ApproximateBytes(document);
  if (it->second.pinned) {
    memory_->Charge(bytes);
  } else {
    while (!memory_->TryCharge(bytes)) {
      if (!EvictLeastRecentlyUsed(key)) {
        slots_.erase(it);  // served to its requests, but not kept: the budget cannot hold it
        return;
      }
    }
  }
  it->second.bytes = bytes;
}

}  // namespace deniable::server
