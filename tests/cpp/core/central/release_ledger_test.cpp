// A question's release ledger (release_ledger.h): sequential composition,
// refusal past the budget, and its JSON round trip.
#include <doctest/doctest.h>

#include <string>

#include "core/central/release_ledger.h"
#include "core/central/release_request.h"
#include "core/common/seeded_random.h"

using namespace deniable;

TEST_CASE("central: the ledger composes releases sequentially, refuses one past the budget, and round-trips") {
  ReleaseLedger ledger(1.0);
  auto release = [](double epsilon) {
    LedgerRelease r;
    r.request = *ParseReleaseRequest({{"method", "dp_base"}, {"epsilon", epsilon}});
    r.created_at = "2026-11-25T00:00:00Z";
    r.respondents = 10;
    r.values = {1.5, 2.0};
    r.groups = {{0}, {1}};
    return r;
  };
  REQUIRE(ledger.Add(release(0.1)).ok());
  REQUIRE(ledger.Add(release(0.2)).ok());
  CHECK(ledger.spent() == doctest::Approx(0.3));
  const auto refused = ledger.Add(release(0.8));
  REQUIRE(!refused.ok());
  CHECK(refused.error() == "a release of epsilon 0.8 would exceed this question's budget of 1: 0.3 is spent, 0.7 is left");
  // Filling the budget exactly is allowed despite binary rounding (0.1 + 0.2 + 0.7 > 1 by 2e-16).
  REQUIRE(ledger.Add(release(0.7)).ok());
  CHECK(ledger.left() == doctest::Approx(0.0));
  CHECK(ledger.releases()[2].id == "r3");
  CHECK(!ledger.CanSpend(0.01).ok());
  const auto stored = ledger.ToJson();
  const auto restored = ReleaseLedger::FromJson(stored);
  REQUIRE(restored.ok());
  CHECK(restored->ToJson() == stored);
  // A stored ledger that claims more than its budget is refused, as are malformed releases.
  auto over = stored;
  over["budget"] = 0.5;
  CHECK(!ReleaseLedger::FromJson(over).ok());
  auto malformed = stored;
  malformed["releases"][0]["values"] = "x";
  CHECK(!ReleaseLedger::FromJson(malformed).ok());
}
