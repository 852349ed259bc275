// Bounds the CPU that results estimation takes, and who can take it.
//
// EstimationGate: at most `running` computations at once and `waiting` more
// queued for a turn. Beyond that Enter() refuses (the request answers 503),
// so a burst of expensive option sets can neither hold every HTTP worker
// thread nor starve report intake. A queued request whose client hangs up
// leaves the queue.
//
// ClientEstimations: at most one computation per client (address) at a time,
// running or queued, so anonymous clients from one address cannot hold every
// slot of the gate (a second one answers 429).
//
// EstimationLimits puts them together (survey_registry.h says who passes
// which): documents without numeric estimation pass no gate; the default
// options have their own lane, so they never queue behind custom option sets;
// custom options take the other lane and one claim per client address.
// Cache hits never pass through a gate. Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "server/surveys/worker_pool.h"

namespace deniable::server {

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

  // Waits for a turn; nullopt at once when `waiting` requests already wait,
  // or as soon as `cancelled` (polled while waiting) returns true.
  std::optional<Permit> Enter(const std::function<bool()>& cancelled = {});

  std::size_t max_running() const { return max_running_; }
  // Permits held and requests queued now (for tests and diagnostics).
  std::size_t running() const;
  std::size_t waiting() const;

 private:
  void Leave();

  const std::size_t max_running_;
  const std::size_t max_waiting_;
  mutable std::mutex mutex_;
  std::condition_variable turn_;
  std::size_t running_ = 0;
  std::size_t waiting_ = 0;
};

class ClientEstimations {
 public:
  // The client's claim, released when destroyed.
  class Claim {
   public:
    Claim(ClientEstimations* owner, std::string client) : owner_(owner), client_(std::move(client)) {}
    Claim(Claim&& other) noexcept : owner_(other.owner_), client_(std::move(other.client_)) { other.owner_ = nullptr; }
    Claim& operator=(Claim&&) = delete;
    Claim(const Claim&) = delete;
    Claim& operator=(const Claim&) = delete;
    ~Claim();

   private:
    ClientEstimations* owner_;
    std::string client_;
  };

  // nullopt when `client` already holds a claim.
  std::optional<Claim> TryClaim(const std::string& client);
  std::size_t size() const;

 private:
  void Release(const std::string& client);

  mutable std::mutex mutex_;
  std::set<std::string> clients_;
};

// The client a remote address counts as: an IPv4 address as it is; an IPv6
// address by its /64 prefix (one host usually has a whole /64), IPv4-mapped
// IPv6 as the IPv4 address. "" for "" (unknown: not limited per client).
std::string ClientKey(const std::string& remote_address);

struct EstimationLimits {
  // Custom option sets: one core is left for everything else (the default
  // lane, categorical results, reports), and 8 more may queue.
  EstimationGate custom;
  // The default options: computed once per (survey, respondent count) and
  // cached; their own lane, so custom sets cannot delay them.
  EstimationGate defaults;
  ClientEstimations clients;
  // Exports of stored reports (report_export.h), each a pass over a survey's
  // reports: one at a time, one more may wait; they never take an
  // estimation lane.
  EstimationGate exports;
  // Helps a permit holder run its estimation's independent pieces (bootstrap
  // replicates): one thread less than the cores, made once and shared by
  // both lanes, so a burst of requests never adds threads (worker_pool.h).
  WorkerPool workers;

  EstimationLimits();
};

}  // namespace deniable::server
