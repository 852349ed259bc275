// Bounds the CPU that results estimation takes: at most `running`
// computations at once and `waiting` more queued for a turn. Beyond that
// Enter() refuses (the request answers 503), so a burst of expensive option
// sets can neither hold every HTTP worker thread nor starve report intake.
// Cache hits never pass through the gate. Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <stdexcept>

namespace deniable::server {

// Thrown out of a results computation the gate refused.
class EstimationBusy : public std::runtime_error {
 public:
  EstimationBusy() : std::runtime_error("results estimation is busy") {}
};

class EstimationGate {
 public:
  EstimationGate(std::size_t running, std::size_t waiting);

  // A turn to estimate, released when destroyed.
  class Permit {
   public:
    explicit Permit(EstimationGate* gate) : gate_(gate) {}
    Permit(Permit&& other) noexcept : gate_(other.gate_) { other.gate_ = nullptr; }
    Permit& operator=(Permit&&) = delete;
    Permit(const Permit&) = delete;
    Permit& operator=(const Permit&) = delete;
    ~Permit();

   private:
    EstimationGate* gate_;
  };

  // Waits for a turn; nullopt at once when `waiting` requests already wait.
  std::optional<Permit> Enter();

 private:
  void Leave();

  const std::size_t max_running_;
  const std::size_t max_waiting_;
  std::mutex mutex_;
  std::condition_variable turn_;
  std::size_t running_ = 0;
  std::size_t waiting_ = 0;
};

}  // namespace deniable::server
