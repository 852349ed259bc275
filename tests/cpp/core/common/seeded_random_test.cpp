// The randomness seam: the seeded generator is the reference algorithm, and the
// derived draws are uniform and exact.
#include <doctest/doctest.h>

#include <set>

#include "core/common/os_random.h"
#include "core/common/seeded_random.h"
#include "tests/cpp/support/stat_utils.h"

using namespace deniable;

TEST_CASE("SeededRandom is xoshiro256** seeded by SplitMix64 (reference values)") {
  // SplitMix64 from 0 gives e220a8397b1dcdaf, 6e789e6aa1b965f4, 06c45d188009454f,
  // f88bb8a8724c81ec; the first xoshiro256** output is rotl(s1 * 5, 7) * 9.
  SeededRandom random(0);
  const std::uint64_t s1 = 0x6e789e6aa1b965f4ULL * 5;
  CHECK(random.NextU64() == ((s1 << 7) | (s1 >> 57)) * 9);
  SeededRandom a(12345), b(12345), c(12346);
  const auto first = a.NextU64();
  CHECK(first == b.NextU64());
  CHECK(first != c.NextU64());
}

TEST_CASE("UniformBelow is uniform (chi-square) and in range") {
  SeededRandom random(3);
  for (std::uint64_t bound : {2ULL, 3ULL, 7ULL, 1000ULL}) {
    std::vector<std::int64_t> counts(bound, 0);
    const std::int64_t draws = 200 * static_cast<std::int64_t>(bound) + 100000;
    for (std::int64_t i = 0; i < draws; ++i) ++counts[UniformBelow(random, bound)];
    // Threshold: p < 1e-6 rejects; a correct sampler fails with probability 1e-6.
    CHECK(testing::ChiSquarePValue(counts, std::vector<double>(bound, 1.0 / bound)) > 1e-6);
  }
  CHECK(UniformBelow(random, 1) == 0);
}

TEST_CASE("UniformUnit has 53 bits in [0, 1) and Bernoulli has the right rate") {
  SeededRandom random(4);
  std::int64_t hits = 0;
  const std::int64_t draws = 1000000;
  for (std::int64_t i = 0; i < draws; ++i) {
    const double u = UniformUnit(random);
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    hits += Bernoulli(random, 0.3);
  }
  // sd = sqrt(0.3 * 0.7 / 1e6) = 4.6e-4; 5 sd.
  CHECK(std::abs(hits / 1e6 - 0.3) < 5 * 4.6e-4);
  CHECK_FALSE(Bernoulli(random, 0.0));
  CHECK(Bernoulli(random, 1.0));
}
