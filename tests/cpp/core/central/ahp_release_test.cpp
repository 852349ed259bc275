// AHP (ahp_release.h, seed 001): plateaus of sorted values, one draw per cluster.
#include <doctest/doctest.h>

#include <vector>

#include "core/central/ahp_release.h"
#include "core/central/discrete_laplace.h"
#include "core/common/seeded_random.h"

using namespace deniable;

TEST_CASE("central: AHP clusters plateaus of sorted values and publishes one draw per cluster") {
  // Two plateaus far apart: with a small noise term (large epsilon_2) each plateau is one cluster.
  const std::vector<double> sorted = {0, 0, 0, 0, 500, 500, 500};
  CHECK(AhpClusterEnds(sorted, 2.0) == std::vector<std::size_t>{3, 6});
  // A huge noise term (tiny epsilon_2) pools everything.
  CHECK(AhpClusterEnds({0, 1, 2, 3, 4}, 1e6) == std::vector<std::size_t>{4});
  const std::vector<std::int64_t> counts = {0, 1000, 0, 3, 990, 0, 2};
  SeededRandom random(4);
  const auto release = ReleaseAhp(counts, {1.0, 0.85, 0.35, 1}, random);
  REQUIRE(release.ok());
  for (const auto& group : release->groups) {
    std::int64_t sum = 0;
    for (std::size_t bin : group.bins) sum += counts[bin];
    for (std::size_t bin : group.bins) {
      CHECK(release->values[bin] == static_cast<double>(sum + group.noise) / static_cast<double>(group.bins.size()));
    }
  }
  CHECK(!ReleaseAhp(counts, {1.0, 1.5, 0.35, 1}, random).ok());
}
