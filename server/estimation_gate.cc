#include "server/estimation_gate.h"

#include <algorithm>

namespace deniable::server {

EstimationGate::EstimationGate(std::size_t running, std::size_t waiting)
    : max_running_(std::max<std::size_t>(running, 1)), max_waiting_(waiting) {}

EstimationGate::Permit::~Permit() {
  if (gate_) gate_->Leave();
}

std::optional<EstimationGate::Permit> EstimationGate::Enter() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (running_ >= max_running_) {
    if (waiting_ >= max_waiting_) return std::nullopt;
    ++waiting_;
    turn_.wait(lock, [this] { return running_ < max_running_; });
    --waiting_;
  }
  ++running_;
  return std::optional<Permit>(std::in_place, this);
}

void EstimationGate::Leave() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
  }
  turn_.notify_one();
}

}  // namespace deniable::server
