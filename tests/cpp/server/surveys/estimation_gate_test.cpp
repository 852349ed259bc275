// EstimationGate (permits, the bounded queue, cancellation while queued),
// ClientEstimations (one claim per client) and ClientKey (who a client is).
#include "server/surveys/estimation_gate.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "test_sync.h"

namespace deniable::server {
namespace {

using testing::WaitUntil;
using std::chrono::milliseconds;

bool Ready(const std::future<std::optional<EstimationGate::Permit>>& future, milliseconds bound = milliseconds(2000)) {
  return future.wait_for(bound) == std::future_status::ready;
}

// Enter() answered nullopt without queueing. Bounded: a gate that queues
// instead (the failure this looks for) is given up on after a second.
bool RefusedAtOnce(EstimationGate& gate) {
  std::atomic<bool> give_up{false};
  auto entered = std::async(std::launch::async, [&] { return gate.Enter([&give_up] { return give_up.load(); }); });
  const bool answered = entered.wait_for(milliseconds(1000)) == std::future_status::ready;
  give_up = true;
  return answered && !entered.get().has_value();
}

}  // namespace

TEST_CASE("estimation gate: `running` permits at once, then nullopt at once when no queue place is left") {
  EstimationGate gate(2, 0);
  CHECK(gate.max_running() == 2);
  auto first = gate.Enter();
  auto second = gate.Enter();
  REQUIRE(first.has_value());
  REQUIRE(second.has_value());
  CHECK(gate.running() == 2);
  CHECK(RefusedAtOnce(gate));  // no waiting place: refused without waiting
  CHECK(gate.running() == 2);
  CHECK(gate.waiting() == 0);
  first.reset();  // a permit is released when destroyed
  CHECK(gate.running() == 1);
  auto third = gate.Enter();
  CHECK(third.has_value());
  CHECK(gate.running() == 2);
}

TEST_CASE("estimation gate: at least one computation runs, whatever the configuration") {
  EstimationGate gate(0, 0);
  CHECK(gate.max_running() == 1);
  auto permit = gate.Enter();
  CHECK(permit.has_value());
  CHECK(RefusedAtOnce(gate));
}

TEST_CASE("estimation gate: a moved permit is released once, by its last holder") {
  EstimationGate gate(1, 0);
  {
    auto permit = gate.Enter();
    REQUIRE(permit.has_value());
    EstimationGate::Permit moved(std::move(*permit));
    permit.reset();  // the moved-from permit releases nothing
    CHECK(gate.running() == 1);
    CHECK(RefusedAtOnce(gate));
  }
  CHECK(gate.running() == 0);
  CHECK(gate.Enter().has_value());
}

TEST_CASE("estimation gate: a full gate queues up to `waiting` requests, refuses more, and hands a released turn on") {
  EstimationGate gate(1, 1);
  auto held = gate.Enter();
  REQUIRE(held.has_value());
  auto queued = std::async(std::launch::async, [&gate] { return gate.Enter(); });
  REQUIRE(WaitUntil([&gate] { return gate.waiting() == 1; }));
  CHECK(queued.wait_for(milliseconds(20)) == std::future_status::timeout);  // it waits for a turn
  CHECK(RefusedAtOnce(gate));  // the queue is full: busy at once
  CHECK(gate.waiting() == 1);
  held.reset();
  REQUIRE(Ready(queued));
  auto turn = queued.get();
  CHECK(turn.has_value());
  CHECK(gate.running() == 1);
  CHECK(gate.waiting() == 0);
}

TEST_CASE("estimation gate: a queued request whose client has gone leaves the queue within one poll") {
  EstimationGate gate(1, 1);
  auto held = gate.Enter();
  REQUIRE(held.has_value());
  std::atomic<bool> gone{false};
  auto queued = std::async(std::launch::async, [&] { return gate.Enter([&gone] { return gone.load(); }); });
  REQUIRE(WaitUntil([&gate] { return gate.waiting() == 1; }));
  const auto cancelled_at = std::chrono::steady_clock::now();
  gone = true;
  REQUIRE(Ready(queued));
  // Polled every 50 ms: it notices within about that.
  CHECK(std::chrono::steady_clock::now() - cancelled_at < milliseconds(1000));
  CHECK_FALSE(queued.get().has_value());
  CHECK(gate.waiting() == 0);  // its queue place is free again
  CHECK(gate.running() == 1);
  auto next = std::async(std::launch::async, [&gate] { return gate.Enter(); });
  REQUIRE(WaitUntil([&gate] { return gate.waiting() == 1; }));
  held.reset();
  REQUIRE(Ready(next));
  CHECK(next.get().has_value());
}

TEST_CASE("estimation gate: cancellation is only polled while waiting; a free turn is taken") {
  EstimationGate gate(1, 0);
  auto permit = gate.Enter([] { return true; });
  CHECK(permit.has_value());
}

TEST_CASE("client estimations: one claim per client at a time, released when the claim is destroyed") {
  ClientEstimations clients;
  auto a = clients.TryClaim("192.0.2.1");
  REQUIRE(a.has_value());
  CHECK_FALSE(clients.TryClaim("192.0.2.1").has_value());
  auto b = clients.TryClaim("192.0.2.2");
  CHECK(b.has_value());
  CHECK(clients.size() == 2);
  {
    ClientEstimations::Claim moved(std::move(*a));
    a.reset();  // the moved-from claim releases nothing
    CHECK(clients.size() == 2);
    CHECK_FALSE(clients.TryClaim("192.0.2.1").has_value());
  }
  CHECK(clients.size() == 1);
  CHECK(clients.TryClaim("192.0.2.1").has_value());
  CHECK(clients.size() == 1);  // that claim was a temporary, released at once
}

TEST_CASE("client key: IPv4 as it is, IPv6 by its /64, IPv4-mapped IPv6 as IPv4") {
  CHECK(ClientKey("") == "");
  CHECK(ClientKey("192.0.2.7") == "192.0.2.7");
  CHECK(ClientKey("2001:db8:1:2:3:4:5:6") == "2001:0db8:0001:0002::/64");
  CHECK(ClientKey("2001:db8:1:2:ffff::1") == ClientKey("2001:db8:1:2:3:4:5:6"));  // one host's /64
  CHECK(ClientKey("2001:db8:1:3::1") != ClientKey("2001:db8:1:2::1"));
  CHECK(ClientKey("::1") == "0000:0000:0000:0000::/64");
  CHECK(ClientKey("::ffff:192.0.2.7") == "192.0.2.7");
  CHECK(ClientKey("not:an:address") == "not:an:address");  // unparsable: itself
}

TEST_CASE("estimation limits: custom sets leave one core; the default lane and exports run one at a time") {
  EstimationLimits limits;
  const unsigned cores = std::thread::hardware_concurrency();
  CHECK(limits.custom.max_running() == (cores > 1 ? cores - 1 : 1));
  CHECK(limits.defaults.max_running() == 1);
  CHECK(limits.exports.max_running() == 1);
  // Exports: one runs and one more may wait; a third is refused at once.
  auto running = limits.exports.Enter();
  REQUIRE(running.has_value());
  auto queued = std::async(std::launch::async, [&limits] { return limits.exports.Enter(); });
  REQUIRE(WaitUntil([&limits] { return limits.exports.waiting() == 1; }));
  CHECK(RefusedAtOnce(limits.exports));
  running.reset();
  REQUIRE(Ready(queued));
  CHECK(queued.get().has_value());
}

}  // namespace deniable::server
