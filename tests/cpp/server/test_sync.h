// Bounded waiting for the server tests that involve threads: a test waits for
// a condition another thread brings about, never for a fixed time, and fails
// (instead of hanging) when it does not come within the bound.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace deniable::server::testing {

// Polls `condition` every millisecond; false if it is still false after `bound`.
template <typename Condition>
bool WaitUntil(Condition condition, std::chrono::milliseconds bound = std::chrono::milliseconds(2000)) {
  const auto give_up = std::chrono::steady_clock::now() + bound;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// Holds a computation (on another thread) until the test opens it, so that
// other requests can arrive meanwhile.
class Latch {
 public:
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    opened_.notify_all();
  }
  // False if not opened within two seconds (the test then fails instead of hanging).
  bool Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    return opened_.wait_for(lock, std::chrono::seconds(2), [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

}  // namespace deniable::server::testing
