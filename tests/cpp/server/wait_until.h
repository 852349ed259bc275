// Bounded waiting for the server tests that involve threads: a test waits for
// a condition another thread brings about, never for a fixed time, and fails
// (instead of hanging) when it does not come within the bound.
#pragma once

#include <chrono>
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

}  // namespace deniable::server::testing
