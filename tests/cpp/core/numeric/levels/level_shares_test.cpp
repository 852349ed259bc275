// The shares of the levels (level_shares.h): the GRR inverted, and the results
// section's mean in data units.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>
#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/numeric/levels/level_shares.h"
#include "core/numeric/levels/levels_mechanism.h"

using namespace deniable;
using nlohmann::json;

TEST_CASE("levels: shares of the levels invert the GRR; the results section states the mean in data units") {
  auto made = CreateLevels({0.0, 100.0}, {50.0}, {2.0, 1.0});
  REQUIRE(made.ok());
  const auto& levels = **made;
  SeededRandom random(5);
  std::vector<std::int64_t> counts(levels.report_atoms().size(), 0);
  const auto atoms = levels.report_atoms();
  const int n = 40000;
  double true_mean = 0.0;
  for (int i = 0; i < n; ++i) {
    const double answer = i % 4 == 0 ? 75.0 : 25.0;  // 25% in the upper (strict) level
    true_mean += answer / n;
    const double y = levels.Perturb(answer, random).value()[0];
    ++counts[std::lower_bound(atoms.begin(), atoms.end(), y) - atoms.begin()];
  }
  const auto section = levels.EstimateFromAtoms(counts, {});
  REQUIRE(section.ok());
  const json& mean = (*section)["mean"];
  CHECK(mean["ci_low"].get<double>() <= true_mean);
  CHECK(mean["ci_high"].get<double>() >= true_mean);
  const json& upper = (*section)["levels"][1];
  CHECK(upper["epsilon"] == 1.0);
  CHECK(std::abs(upper["share_unclipped"].get<double>() - 0.25) < 4.0 * upper["std_error"].get<double>());
  CHECK(upper["intervals"][0]["low"] == 50.0);
  CHECK(upper["intervals"][0]["closed_high"] == true);
  // Clamped (the paper's mode) with a clamped column: no interval, and it says why.
  std::vector<std::int64_t> lopsided(atoms.size(), 0);
  lopsided[levels.AtomIndex(1, +1)] = 3;
  const auto clamped = levels.EstimateFromAtoms(lopsided, {1, true});
  REQUIRE(clamped.ok());
  CHECK((*clamped)["mean"]["ci_low"].is_null());
  CHECK((*clamped)["mean"]["note"].get<std::string>().find("no honest interval") != std::string::npos);
}
