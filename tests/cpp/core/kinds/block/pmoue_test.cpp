// PMOUE (pmoue.h, seed 002): the true option's bit is 1 half the time, every
// other at q(share).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/kinds/block/pmoue.h"
#include "tests/cpp/support/block_population.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("block PMOUE: the true option's bit is 1 half the time, every other at q(share)") {
  const BlockDefinition block = Block({4, 3}, 1.0);
  SeededRandom random(5);
  const std::int64_t trials = 200000;
  std::vector<std::int64_t> ones(7, 0);
  for (std::int64_t t = 0; t < trials; ++t) {
    const BlockReport report = PerturbBlock(block, {2, 0}, {0.4, 1.6}, random);
    for (int b = 0; b < 4; ++b) ones[static_cast<std::size_t>(b)] += report.bits[0][static_cast<std::size_t>(b)];
    for (int b = 0; b < 3; ++b) ones[static_cast<std::size_t>(4 + b)] += report.bits[1][static_cast<std::size_t>(b)];
  }
  const std::vector<double> expected = {OueQ(0.4), OueQ(0.4), 0.5, OueQ(0.4), 0.5, OueQ(1.6), OueQ(1.6)};
  for (std::size_t b = 0; b < expected.size(); ++b) {
    // Each rate within 4.5 binomial SEs (7 checks: a false alarm has probability below 1e-4).
    const double se = std::sqrt(expected[b] * (1 - expected[b]) / trials);
    CHECK(std::abs(static_cast<double>(ones[b]) / trials - expected[b]) < 4.5 * se);
  }
}
