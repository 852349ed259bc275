// One grid row's estimates (core/kinds/grid/grid_estimator.h), with fixed
// seeds and tolerances derived from the variance formula: the GRR inversion
// is the categorical estimator's; the mean position and the frequencies are
// unbiased; their variance is the formula's (MeanPositionVariance) for both
// interval targets; the 95% intervals cover at their rate. Each check runs
// on a broken variant too (a channel that is not the mechanism's, a variance
// without the sampling term) and must reject it.
#include <doctest/doctest.h>

#include "tests/cpp/support/stat_utils.h"

#include <cmath>

#include "core/common/seeded_random.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/grid/grid_estimator.h"

using namespace deniable;
using deniable::testing::SampleMean;
using deniable::testing::SampleVariance;

namespace {

std::shared_ptr<const GridRowMechanism> Make(GridMechanismKind kind, int levels, double epsilon) {
  auto mechanism = GridRowMechanism::Create(kind, levels, epsilon);
  REQUIRE(mechanism.ok());
  return *mechanism;
}

double MeanOf(const std::vector<double>& f) {
  double mean = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i) mean += static_cast<double>(i + 1) * f[i];
  return mean;
}

int Draw(const std::vector<double>& f, RandomSource& random) {
  double u = UniformUnit(random);
  for (std::size_t i = 0; i + 1 < f.size(); ++i) {
    if (u < f[i]) return static_cast<int>(i);
    u -= f[i];
  }
  return static_cast<int>(f.size()) - 1;
}

struct Study {
  std::vector<double> means, std_errors;
  std::vector<std::vector<double>> frequencies;
  int covered = 0;  // mean intervals covering their target
};

// `repetitions` surveys of n respondents: for the population target each
// survey draws its answers from f; for the respondents' target the answers are
// fixed (exactly n f_i of level i) and only the randomisation repeats. The
// estimates read the counts through `estimator_channel` (the mechanism's own,
// or a broken one).
Study Run(const GridRowMechanism& mechanism, const ChannelMatrix& estimator_channel, const std::vector<double>& f,
          int n, int repetitions, IntervalTarget target, std::uint64_t seed) {
  SeededRandom random(seed);
  Study study;
  const double truth = MeanOf(f);
  for (int r = 0; r < repetitions; ++r) {
    std::vector<std::int64_t> counts(f.size(), 0);
    int respondent = 0;
    for (std::size_t level = 0; level < f.size(); ++level) {
      const int fixed = static_cast<int>(std::lround(f[level] * n));
      for (int k = 0; k < fixed && target == IntervalTarget::kRespondents; ++k, ++respondent) {
        ++counts[static_cast<std::size_t>(mechanism.Perturb(static_cast<int>(level), random))];
      }
    }
    for (; target == IntervalTarget::kPopulation && respondent < n; ++respondent) {
      ++counts[static_cast<std::size_t>(mechanism.Perturb(Draw(f, random), random))];
    }
    std::vector<std::int64_t> reports(estimator_channel[0].size(), 0);
    for (std::size_t j = 0; j < reports.size(); ++j) reports[j] = counts[j];
    const RowEstimate row = EstimateRow(estimator_channel, reports, target);
    study.means.push_back(row.mean.estimate);
    study.std_errors.push_back(row.mean.std_error);
    std::vector<double> frequencies;
    for (const auto& level : row.levels) frequencies.push_back(level.estimate);
    study.frequencies.push_back(frequencies);
    study.covered += row.mean.ci_low <= truth && truth <= row.mean.ci_high ? 1 : 0;
  }
  return study;
}

// Answers uneven over the scale, with an empty level (which the inversion must
// still estimate without bias).
const std::vector<double> kAnswers = {0.1, 0.3, 0.4, 0.0, 0.2};
constexpr int kN = 400;
constexpr int kRepetitions = 3000;

}  // namespace

TEST_CASE("grid estimator: GRR's inversion is the categorical estimator's") {
  const auto grr = Make(GridMechanismKind::kGrr, 5, 1.2);
  // Counts whose unbiased estimates are a distribution (0.36, 0.14, 0.10, 0.39, 0.01): both plug in the same shares.
  const std::vector<std::int64_t> counts = {50, 36, 34, 52, 28};
  auto categorical = CreateCategoricalMechanism({CategoricalKind::kGrr, 5, 1.2, 1});
  REQUIRE(categorical.ok());
  const auto expected = EstimateFrequencies(counts, 200, (*categorical)->probabilities());
  const RowEstimate row = EstimateRow(grr->channel(), counts);
  CHECK(row.n == 200);
  for (std::size_t k = 0; k < counts.size(); ++k) {
    CHECK(row.levels[k].estimate == doctest::Approx(expected.options[k].frequency).epsilon(1e-12));
    CHECK(row.levels[k].std_error == doctest::Approx(expected.options[k].std_error).epsilon(1e-12));
    CHECK(row.levels[k].consistent == doctest::Approx(expected.options[k].consistent_frequency).epsilon(1e-12));
  }
}

TEST_CASE("grid estimator: exact report shares give back the answers' distribution and mean") {
  for (GridMechanismKind kind : {GridMechanismKind::kGrr, GridMechanismKind::kOrdinal, GridMechanismKind::kDuchi}) {
    const auto mechanism = Make(kind, 5, 0.7);
    // counts = 10^6 x (channel^T f), rounded: the inversion returns f up to the rounding.
    std::vector<std::int64_t> counts;
    for (int j = 0; j < mechanism->outputs(); ++j) {
      double lambda = 0.0;
      for (int i = 0; i < 5; ++i) lambda += kAnswers[i] * mechanism->channel()[i][j];
      counts.push_back(std::llround(1e9 * lambda));
    }
    const RowEstimate row = EstimateRow(mechanism->channel(), counts);
    CHECK(row.levels.size() == (mechanism->estimates_distribution() ? 5u : 0u));
    for (std::size_t k = 0; k < row.levels.size(); ++k) CHECK(row.levels[k].estimate == doctest::Approx(kAnswers[k]).epsilon(1e-6));
    CHECK(row.mean.estimate == doctest::Approx(MeanOf(kAnswers)).epsilon(1e-8));
  }
  const RowEstimate none = EstimateRow(Make(GridMechanismKind::kOrdinal, 3, 1.0)->channel(), {0, 0, 0});
  CHECK(std::isnan(none.mean.estimate));
}

TEST_CASE("grid estimator: unbiased mean position and frequencies, variance as the formula, intervals cover") {
  for (GridMechanismKind kind : {GridMechanismKind::kGrr, GridMechanismKind::kOrdinal, GridMechanismKind::kDuchi}) {
    for (IntervalTarget target : {IntervalTarget::kPopulation, IntervalTarget::kRespondents}) {
     for (double epsilon : {1.0, 4.0}) {
      const auto mechanism = Make(kind, 5, epsilon);
      INFO(GridMechanismName(kind) << " at " << epsilon << " for " << IntervalTargetName(target));
      const Study study = Run(*mechanism, mechanism->channel(), kAnswers, kN, kRepetitions, target, 101);
      const double variance = MeanPositionVariance(mechanism->channel(), kAnswers, kN, target);
      const double sd = std::sqrt(variance);
      // Unbiased: the average of R estimates is within 4 standard errors sd / sqrt(R) of the truth.
      CHECK(std::fabs(SampleMean(study.means) - MeanOf(kAnswers)) < 4.0 * sd / std::sqrt(kRepetitions));
      for (std::size_t k = 0; k < kAnswers.size() && mechanism->estimates_distribution(); ++k) {
        std::vector<double> level;
        for (const auto& frequencies : study.frequencies) level.push_back(frequencies[k]);
        const double level_sd = std::sqrt(SampleVariance(level));
        CHECK(std::fabs(SampleMean(level) - kAnswers[k]) < 4.0 * level_sd / std::sqrt(kRepetitions));
      }
      // Variance: the sample variance of R near-normal estimates has relative sd sqrt(2 / (R - 1)); 4 of them.
      const double tolerance = 4.0 * std::sqrt(2.0 / (kRepetitions - 1));
      CHECK(SampleVariance(study.means) / variance == doctest::Approx(1.0).epsilon(tolerance));
      // The reported standard errors (plug-in) agree with the formula on average; duchi's for these respondents
      // are the population's, by design (conservative: the reports do not give the answers' spread).
      const bool conservative = !mechanism->estimates_distribution() && target == IntervalTarget::kRespondents;
      const double reported = conservative ? std::sqrt(MeanPositionVariance(mechanism->channel(), kAnswers, kN)) : sd;
      CHECK(SampleMean(study.std_errors) / reported == doctest::Approx(1.0).epsilon(0.05));
      // Coverage: 95% within 4 binomial standard deviations (at least 95%, for the conservative interval).
      const double coverage = static_cast<double>(study.covered) / kRepetitions;
      MESSAGE(GridMechanismName(kind) << " " << IntervalTargetName(target) << ": sd " << sd << ", coverage "
                                      << coverage);
      const double binomial = 4.0 * std::sqrt(0.95 * 0.05 / kRepetitions);
      if (conservative) CHECK(coverage > 0.95 - binomial);
      else CHECK(std::fabs(coverage - 0.95) < binomial);
     }
    }
  }
}

TEST_CASE("grid estimator: the checks reject a wrong channel and a variance without sampling") {
  const auto mechanism = Make(GridMechanismKind::kOrdinal, 5, 1.0);
  // Canary 1: reports read through the channel at epsilon 1.5: biased, caught by the unbiasedness check.
  const auto wrong = Make(GridMechanismKind::kOrdinal, 5, 1.5);
  const Study biased = Run(*mechanism, wrong->channel(), kAnswers, kN, kRepetitions, IntervalTarget::kPopulation, 103);
  const double sd = std::sqrt(MeanPositionVariance(mechanism->channel(), kAnswers, kN));
  CHECK(std::fabs(SampleMean(biased.means) - MeanOf(kAnswers)) > 4.0 * sd / std::sqrt(kRepetitions));
  // Canary 2: the population study against the respondents' variance (no sampling term): caught where the
  // sampling's share is large enough to see (epsilon 4: 1.49 / n of about 5.1 / n).
  const auto sharp = Make(GridMechanismKind::kOrdinal, 5, 4.0);
  const Study population = Run(*sharp, sharp->channel(), kAnswers, kN, kRepetitions,
                               IntervalTarget::kPopulation, 105);
  const double respondents = MeanPositionVariance(sharp->channel(), kAnswers, kN, IntervalTarget::kRespondents);
  const double tolerance = 4.0 * std::sqrt(2.0 / (kRepetitions - 1));
  CHECK(std::fabs(SampleVariance(population.means) / respondents - 1.0) > tolerance);
}
