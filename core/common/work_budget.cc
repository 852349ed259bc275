#include "core/common/work_budget.h"

#include <algorithm>

namespace deniable {

WorkBudget::WorkBudget(std::int64_t units, std::function<bool()> cancelled)
    : remaining_(std::max<std::int64_t>(units, 0)), cancelled_callback_(std::move(cancelled)) {}

WorkBudget::WorkBudget(WorkBudget& parent, std::int64_t units)
    : parent_(&parent), remaining_(std::clamp<std::int64_t>(units, 0, parent.remaining())) {}

bool WorkBudget::Cancelled() {
  if (cancelled_) return true;
  if (parent_ != nullptr) {
    cancelled_ = parent_->Cancelled();
  } else if (cancelled_callback_) {
    cancelled_ = cancelled_callback_();
  }
  return cancelled_;
}

std::int64_t WorkBudget::remaining() const {
  return parent_ == nullptr ? remaining_ : std::min(remaining_, parent_->remaining());
}

bool WorkBudget::Spend(std::int64_t units) {
  if (Cancelled()) return false;
  units = std::max<std::int64_t>(units, 0);
  if (units > remaining()) {
    for (WorkBudget* budget = this; budget != nullptr; budget = budget->parent_) {
      if (units > budget->remaining_) budget->exhausted_ = true;
    }
    exhausted_ = true;
    return false;
  }
  for (WorkBudget* budget = this; budget != nullptr; budget = budget->parent_) {
    budget->remaining_ -= units;
    budget->spent_ += units;
  }
  return true;
}

}  // namespace deniable
