// HierA on the levels' counts (hiera_estimator.h, seed 003): unbiased unclamped
// with the variance formula, every record counted mu times, clamping reported,
// and its 95% interval's coverage on hard shapes at small n.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/distribution/bootstrap.h"
#include "core/numeric/levels/hiera_estimator.h"
#include "tests/cpp/support/paper_levels.h"

using namespace deniable;
using namespace deniable::testing;

TEST_CASE("levels: HierA is unbiased unclamped and its variance matches the formula, for mu = 1 and 2") {
  const auto levels = PaperLevels(1.0);
  const auto keep = Keeps(*levels);
  const int n = 2000, trials = 1500;
  SeededRandom random(99);
  std::vector<double> answers(n);
  for (int i = 0; i < n; ++i) answers[i] = -1.0 + 2.0 * (i + 0.5) / n;  // uniform on [-1, 1], mean 0
  for (int reuse : {1, 2}) {
    double sum = 0.0, sum_squares = 0.0, estimated_variance = 0.0;
    for (int trial = 0; trial < trials; ++trial) {
      const auto counts = CountReports(*levels, answers, random);
      const auto estimate = EstimateHierA(counts, keep, {reuse, false}, random);
      REQUIRE(estimate.ok());
      sum += estimate->mean;
      sum_squares += estimate->mean * estimate->mean;
      estimated_variance += estimate->variance;
    }
    const double analytic = UniformHierAVariance(*levels, reuse) / n;
    const double mean = sum / trials;
    const double mse = sum_squares / trials;  // the truth is 0
    MESSAGE("mu " << reuse << ": n*MSE " << n * mse << ", analytic " << n * analytic);
    CHECK(std::abs(mean) < 4.0 * std::sqrt(analytic / trials));
    // The MSE of `trials` draws has relative standard error sqrt(2/trials) = 3.7%.
    CHECK(std::abs(mse / analytic - 1.0) < 4.0 * std::sqrt(2.0 / trials));
    // The reports' own variance estimate targets a sample from a population: it adds the answers' own spread
    // (1/3 on [-1, 1] for these uniform answers), which fixed answers do not have: conservative by exactly that.
    const double with_spread = analytic + (1.0 / 3.0) / n;
    CHECK(std::abs(estimated_variance / trials / with_spread - 1.0) < 0.02);
  }
  // The digest's analytic table (§5.6 a), uniform, base 1: 1.276 (mu 1) and 1.443 (mu 2); base 0.1: 113.5, 132.4.
  CHECK(UniformHierAVariance(*levels, 1) == doctest::Approx(1.276).epsilon(2e-3));
  CHECK(UniformHierAVariance(*levels, 2) == doctest::Approx(1.443).epsilon(2e-3));
  const auto small = PaperLevels(0.1);
  CHECK(UniformHierAVariance(*small, 1) == doctest::Approx(113.5).epsilon(2e-3));
  CHECK(UniformHierAVariance(*small, 2) == doctest::Approx(132.4).epsilon(2e-3));
}

TEST_CASE("levels: every record counts mu times (compensation), so constant answers give the exact mean noise-free") {
  // With keep probabilities all 1 - tiny the bits are the discretised answers; all +1 bits: the mean is 1 for any mu.
  const std::vector<double> keep = {0.999999, 0.99999, 0.9999};
  const LevelBitCounts counts{{100, 50, 25}, {0, 0, 0}};
  SeededRandom random(1);
  for (int reuse = 1; reuse <= 5; ++reuse) {
    const auto estimate = EstimateHierA(counts, keep, {reuse, false}, random);
    REQUIRE(estimate.ok());
    double size = 0.0;
    for (const auto& column : estimate->columns) size += column.size;
    CHECK(size == reuse * 175.0);
    CHECK(estimate->mean == doctest::Approx(1.0).epsilon(1e-3));
  }
}

TEST_CASE("levels: clamping bounds each column's mean to [-1, 1] and is reported") {
  const std::vector<double> keep = {0.6, 0.55};
  const LevelBitCounts counts{{10, 0}, {0, 10}};  // column 0 debiases to 10/0.2 = 50 > N
  SeededRandom random(1);
  const auto clamped = EstimateHierA(counts, keep, {1, true}, random);
  REQUIRE(clamped.ok());
  CHECK(clamped->clamped_any);
  CHECK(clamped->columns[0].sum == 10.0);
  CHECK(clamped->columns[1].sum == -10.0);
  const auto free = EstimateHierA(counts, keep, {1, false}, random);
  CHECK(!free->clamped_any);
  CHECK(free->columns[0].sum == doctest::Approx(50.0));
}

TEST_CASE("levels: HierA's 95% interval covers on hard shapes at small n (concentrated, discrete, skewed)") {
  // n = 300 respondents, 2000 trials per shape; the interval uses the reports' own variance estimate, which
  // includes the answers' spread, so it may over-cover; it must not under-cover beyond chance (4 binomial SE).
  const auto levels = PaperLevels(0.5);
  const auto keep = Keeps(*levels);
  const int n = 300, trials = 2000;
  std::vector<std::pair<std::string, std::vector<double>>> shapes;
  shapes.push_back({"concentrated at a boundary", std::vector<double>(n, -0.2)});
  std::vector<double> two_points, skewed;
  for (int i = 0; i < n; ++i) {
    two_points.push_back(i % 10 == 0 ? 1.0 : -1.0);
    skewed.push_back(std::min(1.0, -1.0 + 0.3 * -std::log(1.0 - (i + 0.5) / n)));
  }
  shapes.push_back({"two points, 10% at the top", two_points});
  shapes.push_back({"skewed (exponential from -1)", skewed});
  SeededRandom random(31);
  for (const auto& [name, answers] : shapes) {
    double truth = 0.0;
    for (double x : answers) truth += x / n;
    int covered = 0;
    for (int trial = 0; trial < trials; ++trial) {
      const auto estimate = EstimateHierA(CountReports(*levels, answers, random), keep, {1, false}, random).value();
      covered += std::abs(estimate.mean - truth) <= 1.959963984540054 * std::sqrt(estimate.variance);
    }
    const double coverage = static_cast<double>(covered) / trials;
    MESSAGE(name << ": coverage " << coverage);
    CHECK(coverage >= 0.95 - 4.0 * std::sqrt(0.95 * 0.05 / trials));
  }
}
