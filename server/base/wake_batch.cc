#include "server/base/wake_batch.h"

#include <algorithm>

namespace deniable::server {
namespace {

thread_local WakeBatch* current_batch = nullptr;

}  // namespace

WakeBatch::WakeBatch() : outer_(current_batch) {
  if (outer_ == nullptr) current_batch = this;
}

WakeBatch::~WakeBatch() {
  if (outer_ != nullptr) return;
  current_batch = nullptr;
  for (auto& [target, wake] : wakes_) wake();
}

bool WakeBatch::Defer(const void* target, std::function<void()> wake) {
  WakeBatch* batch = current_batch;
  if (batch == nullptr) return false;
  const bool known = std::any_of(batch->wakes_.begin(), batch->wakes_.end(),
                                 [target](const auto& kept) { return kept.first == target; });
  if (!known) batch->wakes_.emplace_back(target, std::move(wake));
  return true;
}

}  // namespace deniable::server
