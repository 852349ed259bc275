#include "server/surveys/estimation_gate.h"

#include <arpa/inet.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

namespace deniable::server {
namespace {

// How often a queued request looks whether its client is still there.
constexpr std::chrono::milliseconds kCancelPoll{50};
constexpr std::size_t kMaxWaitingCustom = 8;
constexpr std::size_t kMaxWaitingDefault = 64;

std::size_t CustomLaneRunning() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 1 ? cores - 1 : 1;
}

}  // namespace

EstimationGate::EstimationGate(std::size_t running, std::size_t waiting)
    : max_running_(std::max<std::size_t>(running, 1)), max_waiting_(waiting) {}

EstimationGate::Permit::~Permit() {
  if (gate_) gate_->Leave();
}

std::optional<EstimationGate::Permit> EstimationGate::Enter(const std::function<bool()>& cancelled) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (running_ >= max_running_) {
    if (waiting_ >= max_waiting_) return std::nullopt;
    ++waiting_;
    const auto free = [this] { return running_ < max_running_; };
    while (!free()) {
      if (cancelled) {
        turn_.wait_for(lock, kCancelPoll, free);
        if (!free() && cancelled()) {
          --waiting_;
          return std::nullopt;
        }
      } else {
        turn_.wait(lock, free);
      }
    }
    --waiting_;
  }
  ++running_;
  return std::optional<Permit>(std::in_place, this);
}

std::size_t EstimationGate::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

std::size_t EstimationGate::waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_;
}

void EstimationGate::Leave() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
  }
  turn_.notify_one();
}

ClientEstimations::Claim::~Claim() {
  if (owner_) owner_->Release(client_);
}

std::optional<ClientEstimations::Claim> ClientEstimations::TryClaim(const std::string& client) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!clients_.insert(client).second) return std::nullopt;
  return std::optional<Claim>(std::in_place, this, client);
}

std::size_t ClientEstimations::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return clients_.size();
}

void ClientEstimations::Release(const std::string& client) {
  std::lock_guard<std::mutex> lock(mutex_);
  clients_.erase(client);
}

std::string ClientKey(const std::string& remote_address) {
  if (remote_address.find(':') == std::string::npos) return remote_address;
  unsigned char bytes[16];
  if (inet_pton(AF_INET6, remote_address.c_str(), bytes) != 1) return remote_address;
  const bool mapped = std::all_of(bytes, bytes + 10, [](unsigned char b) { return b == 0; }) && bytes[10] == 0xff &&
                      bytes[11] == 0xff;
  char text[64];
  if (mapped) {
    std::snprintf(text, sizeof text, "%u.%u.%u.%u", bytes[12], bytes[13], bytes[14], bytes[15]);
    return text;
  }
  std::snprintf(text, sizeof text, "%02x%02x:%02x%02x:%02x%02x:%02x%02x::/64", bytes[0], bytes[1], bytes[2], bytes[3],
                bytes[4], bytes[5], bytes[6], bytes[7]);
  return text;
}

EstimationLimits::EstimationLimits()
    : custom(CustomLaneRunning(), kMaxWaitingCustom),
      defaults(1, kMaxWaitingDefault),
      exports(1, 1),
      workers(WorkerPool::DefaultHelpers()) {}

}  // namespace deniable::server
