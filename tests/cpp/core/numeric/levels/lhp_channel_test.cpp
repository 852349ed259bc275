// The LHP channel (lhp_channel.h, seed 003): the GRR and RR rates and the PLC
// flip probabilities against the digest's vectors, and the PLC law.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/distribution/bootstrap.h"
#include "core/numeric/levels/lhp_channel.h"
#include "tests/cpp/support/paper_levels.h"

using namespace deniable;
using namespace deniable::testing;

TEST_CASE("levels: GRR and RR probabilities match the digest's vectors (§5.6 c)") {
  const auto levels = PaperLevels(1.0);
  const LhpChannel& channel = levels->channel();
  const double keep_level[] = {0.973756, 0.931738, 0.833925, 0.648786, 0.404610};
  const double other_level[] = {0.006561, 0.017065, 0.041519, 0.087804, 0.148848};
  const double keep_bit[] = {0.993307, 0.982014, 0.952574, 0.880797, 0.731059};
  const double calibration[] = {1.013567, 1.037315, 1.104791, 1.313035, 2.163953};
  for (int t = 0; t < 5; ++t) {
    CHECK(channel.LevelProbability(t, t) == doctest::Approx(keep_level[t]).epsilon(2e-6));
    CHECK(channel.LevelProbability(t, (t + 1) % 5) == doctest::Approx(other_level[t]).epsilon(2e-5));
    CHECK(channel.KeepProbability(t) == doctest::Approx(keep_bit[t]).epsilon(2e-6));
    CHECK(channel.Calibration(t) == doctest::Approx(calibration[t]).epsilon(2e-6));
  }
  const auto half = PaperLevels(0.5);
  const double keep_half[] = {0.752819, 0.648786, 0.528396, 0.404610, 0.291875};
  for (int t = 0; t < 5; ++t) CHECK(half->channel().LevelProbability(t, t) == doctest::Approx(keep_half[t]).epsilon(2e-6));
  CHECK(ConversionFlipProbability(half->channel().KeepProbability(0), half->channel().KeepProbability(4)) ==
        doctest::Approx(0.355639).epsilon(2e-6));
  CHECK(ConversionFlipProbability(half->channel().KeepProbability(3), half->channel().KeepProbability(4)) ==
        doctest::Approx(0.235004).epsilon(2e-6));
}

TEST_CASE("levels: PLC flip probabilities match the digest; a converted bit looks perturbed at eps_j; i->j->l = i->l") {
  const auto levels = PaperLevels(1.0);
  const auto keep = Keeps(*levels);
  const double flips[4][5] = {{0, 0.011447, 0.041286, 0.114037, 0.265807},
                              {0, 0, 0.030538, 0.104994, 0.260320},
                              {0, 0, 0, 0.079299, 0.244728},
                              {0, 0, 0, 0, 0.196612}};
  for (int i = 0; i < 4; ++i) {
    for (int j = i + 1; j < 5; ++j) CHECK(ConversionFlipProbability(keep[i], keep[j]) == doctest::Approx(flips[i][j]).epsilon(1e-5));
  }
  // Composition: two conversions flip with f_ij + f_jl - 2 f_ij f_jl, which is f_il exactly.
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 4; ++j) {
      for (int l = j + 1; l < 5; ++l) {
        const double a = ConversionFlipProbability(keep[i], keep[j]);
        const double b = ConversionFlipProbability(keep[j], keep[l]);
        CHECK(a + b - 2 * a * b == doctest::Approx(ConversionFlipProbability(keep[i], keep[l])).epsilon(1e-12));
      }
    }
  }
  // Sampled: n true +1 bits perturbed at level 1, converted to level 4 (directly and via 2), keep +1 at rate p_4.
  SeededRandom random(7);
  const std::int64_t n = 1000000;
  const std::int64_t kept = SampleBinomial(n, keep[0], random);
  const auto direct = ConvertLevel(kept, n - kept, keep[0], keep[3], random);
  const auto step = ConvertLevel(kept, n - kept, keep[0], keep[1], random);
  const auto via = ConvertLevel(step.first, step.second, keep[1], keep[3], random);
  const double se = std::sqrt(keep[3] * (1 - keep[3]) / n);
  CHECK(std::abs(direct.first / double(n) - keep[3]) < 4 * se);
  CHECK(std::abs(via.first / double(n) - keep[3]) < 4 * se);
}
