// A consumer's bins as sums of fine cells (consumer_bins.h): the exact variance (m times a cell's for SUE, the
// data-dependent form for OUE), and by simulation through the real mechanisms: unbiased, variance as the formula,
// 95% intervals covering.
#include <doctest/doctest.h>

#include <cmath>

#include "core/common/seeded_random.h"
#include "core/frequency/categorical_mechanism.h"
#include "core/kinds/histogram/consumer_bins.h"
#include "core/kinds/histogram/level_estimates.h"
#include "core/kinds/histogram/fine_partition.h"

using namespace deniable;

TEST_CASE("consumer bins: a bin of m SUE cells has m times a cell's variance, m N sigma^2(eps)") {
  auto sue = CreateCategoricalMechanism({CategoricalKind::kSue, 13, 2.0, 1});
  REQUIRE(sue.ok());
  const SupportProbabilities pq = (*sue)->probabilities();
  // sigma^2(2) = e / (e - 1)^2 = 0.920674 (digest section 3.1's table).
  CHECK(BinCountVariance(pq, 0.0, 1, 1.0) == doctest::Approx(0.920674).epsilon(1e-5));
  CHECK(BinCountVariance(pq, 400.0, 3, 1000.0) == doctest::Approx(3 * 1000 * 0.920674).epsilon(1e-5));
  CHECK(BinCountVariance(pq, 0.0, 3, 1000.0) == doctest::Approx(BinCountVariance(pq, 1000.0, 3, 1000.0)));
  // OUE: p = 1/2, q = 1/(e^eps + 1); the bin's own count enters.
  auto oue = CreateCategoricalMechanism({CategoricalKind::kOue, 13, 2.0, 1});
  const SupportProbabilities o = (*oue)->probabilities();
  const double q = 1.0 / (std::exp(2.0) + 1.0);
  CHECK(BinCountVariance(o, 400.0, 3, 1000.0) ==
        doctest::Approx((400 * 0.25 + (3000 - 400) * q * (1 - q)) / ((0.5 - q) * (0.5 - q))));
}

TEST_CASE("consumer bins: unbiased, variance as the formula, intervals cover (SUE and OUE, 300 surveys)") {
  const FinePartition partition =
      *FinePartition::Merge({0, 1}, {EqualBinBoundaries(3), EqualBinBoundaries(5), EqualBinBoundaries(7)});
  REQUIRE(partition.cells() == 13);
  const std::vector<int> bins = partition.BinStarts(EqualBinBoundaries(3));
  // A fixed, skewed population of 1000 answers.
  std::vector<int> answers;
  for (int i = 0; i < 1000; ++i) answers.push_back(partition.CellOf(std::pow((i + 0.5) / 1000.0, 3.0)));
  std::vector<double> truth(3, 0.0);
  for (int cell : answers) {
    for (std::size_t b = 0; b < 3; ++b) truth[b] += (cell >= bins[b] && cell < bins[b + 1]) ? 1.0 : 0.0;
  }
  for (CategoricalKind kind : {CategoricalKind::kSue, CategoricalKind::kOue}) {
    INFO(CategoricalKindName(kind));
    auto mechanism = CreateCategoricalMechanism({kind, partition.cells(), 2.0, 1});
    REQUIRE(mechanism.ok());
    const SupportProbabilities pq = (*mechanism)->probabilities();
    SeededRandom random(2026 + static_cast<int>(kind));
    constexpr int kSurveys = 300;
    std::vector<double> sum(3, 0.0), squares(3, 0.0);
    int covered = 0;
    for (int s = 0; s < kSurveys; ++s) {
      std::vector<std::int64_t> support(static_cast<std::size_t>(partition.cells()), 0);
      for (int cell : answers) {
        const Support report = *(*mechanism)->Perturb(cell, random);
        for (std::size_t k = 0; k < report.size(); ++k) support[k] += report[k];
      }
      // A flat report is the one-level tree over the fine cells (level_estimates.h).
      const LevelEstimates estimates({partition.cells(), 1}, pq, partition.cells(), {{1000, support}},
                                     IntervalTarget::kRespondents);  // fixed answers: these respondents
      for (std::size_t b = 0; b < 3; ++b) {
        const RangeEstimate range = estimates.Range(bins[b], bins[b + 1]);
        const double count = range.frequency * 1000, half_width = 1.959963984540054 * std::sqrt(range.variance) * 1000;
        sum[b] += count;
        squares[b] += count * count;
        covered += count - half_width <= truth[b] && truth[b] <= count + half_width ? 1 : 0;
      }
    }
    for (std::size_t b = 0; b < 3; ++b) {
      const double variance = BinCountVariance(pq, truth[b], bins[b + 1] - bins[b], 1000.0);
      const double mean = sum[b] / kSurveys;
      const double sample_variance = (squares[b] - kSurveys * mean * mean) / (kSurveys - 1);
      CHECK(std::fabs(mean - truth[b]) <= 4.0 * std::sqrt(variance / kSurveys));  // unbiased
      // The sample variance of 300 near-normal estimates: relative SE sqrt(2/299) = 8.2%; 4 SE.
      CHECK(sample_variance == doctest::Approx(variance).epsilon(4.0 * std::sqrt(2.0 / (kSurveys - 1))));
    }
    // 900 intervals at 95%: SE 0.73 points; 4 SE either side.
    CHECK(covered / 900.0 == doctest::Approx(0.95).epsilon(0.03));
  }
}
