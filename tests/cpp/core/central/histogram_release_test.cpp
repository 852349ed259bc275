// SReB_GCA and DP_BASE releases (histogram_release.h, seed 001): one draw per
// group, a partition from the noisy counts only, and a stochastic DP test on
// neighbouring histograms (in the style of Google's stochastic tester) with an
// insufficient-noise canary it must catch.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "core/central/discrete_laplace.h"
#include "core/central/greedy_grouping.h"
#include "core/central/histogram_release.h"
#include "core/common/seeded_random.h"
#include "tests/cpp/support/stat_utils.h"

using namespace deniable;
using deniable::testing::HistogramReleaser;
using deniable::testing::StochasticEpsilonLowerBound;

TEST_CASE("central: SReB_GCA draws one noise per group, groups from the noisy counts only, publishes in bin order") {
  const std::vector<std::int64_t> counts = {0, 0, 1, 3, 0, 250, 2, 0, 7, 240, 0, 1};
  SeededRandom random(9);
  const auto release = ReleaseSrebGca(counts, {1.0, 0.2, 1.0, 1}, random);
  REQUIRE(release.ok());
  // The partition is exactly GGS on the phase-1 noisy counts (lambda = 1/epsilon_2).
  const auto expected = PartitionFromNoisy(release->first_phase, 1.0 / 0.8, 1.0);
  REQUIRE(release->groups.size() == expected.size());
  std::vector<int> seen(counts.size(), 0);
  for (std::size_t g = 0; g < expected.size(); ++g) {
    CHECK(release->groups[g].bins == expected[g]);
    std::int64_t sum = 0;
    for (std::size_t bin : release->groups[g].bins) sum += counts[bin], ++seen[bin];
    // Every member publishes (true sum + the group's ONE draw)/m.
    const double value = static_cast<double>(sum + release->groups[g].noise) / release->groups[g].bins.size();
    for (std::size_t bin : release->groups[g].bins) CHECK(release->values[bin] == value);
  }
  for (int count : seen) CHECK(count == 1);
  // The same phase-1 output with other true counts gives the same partition (it never reads them).
  CHECK(PartitionFromNoisy(release->first_phase, 1.25, 1.0) == expected);
  const auto base = ReleaseDpBase(counts, 1.0, 1, random);
  REQUIRE(base.ok());
  CHECK(base->groups.size() == counts.size());
  CHECK(!ReleaseSrebGca(counts, {1.0, 1.0, 1.0, 1}, random).ok());
  CHECK(!ReleaseSrebGca({}, {}, random).ok());
}

TEST_CASE("central: the whole SReB_GCA release is epsilon-DP on neighbouring histograms; a canary is caught") {
  // Three bins with small counts (they group), neighbours differ by one record in bin 1.
  const std::vector<std::int64_t> a = {1, 2, 0}, b = {1, 3, 0};
  const double epsilon = 1.0;
  const HistogramReleaser correct = [&](const std::vector<std::int64_t>& h, RandomSource& random) {
    return ReleaseSrebGca(h, {epsilon, 0.5, 1.0, 1}, random).value().values;
  };
  const double measured = StochasticEpsilonLowerBound(correct, a, b, 400000, 77);
  MESSAGE("SReB_GCA epsilon 1: stochastic lower bound " << measured);
  CHECK(measured <= epsilon);
  // Canary: phase 2 with a draw per member (the literal reading of Algorithm 1 line 10, digest P3) at a tenth of
  // the noise: the tester must see more than epsilon.
  const HistogramReleaser broken = [&](const std::vector<std::int64_t>& h, RandomSource& random) {
    auto release = ReleaseSrebGca(h, {epsilon, 0.5, 1.0, 1}, random).value();
    const auto loud = DiscreteLaplace::Create(5.0).value();
    std::vector<double> values(h.size());
    for (const auto& group : release.groups) {
      std::int64_t sum = 0;
      for (std::size_t bin : group.bins) sum += h[bin];
      for (std::size_t bin : group.bins) values[bin] = static_cast<double>(sum + loud.Draw(random)) / group.bins.size();
    }
    return values;
  };
  const double caught = StochasticEpsilonLowerBound(broken, a, b, 400000, 77);
  MESSAGE("canary: stochastic lower bound " << caught);
  CHECK(caught > epsilon);
}
