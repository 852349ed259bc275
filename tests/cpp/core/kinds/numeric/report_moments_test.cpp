// The reports' moment estimates (report_moments.h): each mechanism's E[y|x]
// and E[y^2|x] against simulation, the estimator's unbiasedness, its
// variance against the delta method, the coverage of its intervals, and the
// mechanisms whose reports carry nothing about the answers' spread. Fixed
// seeds; every tolerance is a multiple of a standard error computed here.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/distribution/linear_moments.h"
#include "core/distribution/numeric_histogram.h"
#include "core/distribution/transition_matrix.h"
#include "core/kinds/numeric/report_moments.h"
#include "core/numeric/hybrid.h"
#include "core/numeric/numeric_mechanism_factory.h"

using namespace deniable;

namespace {

constexpr NumericRange kRange{10.0, 30.0};

std::shared_ptr<const NumericMechanism> Mechanism(const std::string& name, double epsilon) {
  auto mechanism = ParseNumericMechanism(nlohmann::json{{"name", name}, {"epsilon", epsilon}}, kRange, "test");
  REQUIRE_MESSAGE(mechanism, (mechanism ? "" : mechanism.error()));
  return *mechanism;
}

// A fixed population of answers: skewed (a chi-square-like pile near the low end).
std::vector<double> Answers(int n) {
  SeededRandom random(11);
  std::vector<double> answers;
  for (int i = 0; i < n; ++i) {
    const double u = UniformUnit(random);
    answers.push_back(kRange.low + 20.0 * (1.0 - std::sqrt(1.0 - u)) * (1.0 - std::sqrt(1.0 - u)));
  }
  return answers;
}

struct Truth {
  double mean;
  double sd;  // divisor n: the respondents' own
};

Truth TruthOf(const std::vector<double>& answers) {
  double sum = 0, squares = 0;
  for (double a : answers) sum += a, squares += a * a;
  const double n = static_cast<double>(answers.size());
  return {sum / n, std::sqrt(squares / n - (sum / n) * (sum / n))};
}

ReportMomentEstimates Survey(const NumericMechanism& mechanism, const std::vector<double>& answers,
                             RandomSource& random) {
  auto created = NumericHistogram::ForMechanism(mechanism);
  REQUIRE(created);
  NumericHistogram histogram = *created;
  for (double answer : answers) REQUIRE(histogram.Add(*mechanism.Perturb(answer, random)));
  auto estimates = EstimateFromReportMoments(mechanism, histogram);
  REQUIRE(estimates);
  return *estimates;
}

}  // namespace

TEST_CASE("report moments: each mechanism's E[y|x] and E[y^2|x] match simulation") {
  SeededRandom random(5);
  for (const char* name : {"laplace", "duchi", "piecewise", "hybrid", "square_wave"}) {
    const auto mechanism = Mechanism(name, 1.5);
    const auto moments = mechanism->report_moments();
    REQUIRE_MESSAGE(moments, name);
    for (double x : {10.0, 13.0, 21.5, 30.0}) {
      constexpr int kDraws = 200000;
      double sum = 0, squares = 0, fourth = 0;
      for (int i = 0; i < kDraws; ++i) {
        const double y = (*mechanism->Perturb(x, random))[0];
        sum += y, squares += y * y, fourth += y * y * y * y;
      }
      const double mean = sum / kDraws, mean_square = squares / kDraws;
      // 4.5 standard errors of each sample mean (the variances from the same draws).
      const double se_mean = std::sqrt((mean_square - mean * mean) / kDraws);
      const double se_square = std::sqrt((fourth / kDraws - mean_square * mean_square) / kDraws);
      CHECK_MESSAGE(std::abs(moments->mean(x) - mean) < 4.5 * se_mean, name, " x=", x);
      CHECK_MESSAGE(std::abs(moments->mean_square(x) - mean_square) < 4.5 * se_square, name, " x=", x);
    }
  }
}

TEST_CASE("report moments: RVNS has none (its E[y|x] is not a polynomial)") {
  auto rvns = ParseNumericMechanism(nlohmann::json{{"name", "rvns"}, {"window", 4.0}, {"values", 2}, {"window_mode", "fresh"}}, kRange, "t");
  REQUIRE(rvns);
  CHECK_FALSE((*rvns)->report_moments());
  auto histogram = NumericHistogram::ForMechanism(**rvns);
  REQUIRE(histogram);
  CHECK_FALSE(EstimateFromReportMoments(**rvns, *histogram));
}

TEST_CASE("report moments: unbiased mean and sd, variance as the delta method says, intervals cover") {
  const std::vector<double> answers = Answers(3000);
  const Truth truth = TruthOf(answers);
  constexpr int kSurveys = 400;
  for (const char* name : {"laplace", "piecewise", "hybrid", "square_wave"}) {
    const auto mechanism = Mechanism(name, 4.0);
    SeededRandom random(17);
    double mean_sum = 0, mean_squares = 0, variance_sum = 0, variance_squares = 0;
    int mean_covered = 0, sd_covered = 0;
    std::vector<double> reported_variances;
    for (int s = 0; s < kSurveys; ++s) {
      const auto estimates = Survey(*mechanism, answers, random);
      REQUIRE(estimates.spread_identifiable);
      const MomentInterval& sd = *estimates.standard_deviation;
      mean_sum += estimates.mean.value, mean_squares += estimates.mean.value * estimates.mean.value;
      const double variance = estimates.variance;  // unclipped: the unbiased one
      CHECK(sd.value == doctest::Approx(std::sqrt(std::max(0.0, variance))));
      variance_sum += variance, variance_squares += variance * variance;
      mean_covered += estimates.mean.low <= truth.mean && truth.mean <= estimates.mean.high;
      sd_covered += sd.low <= truth.sd && truth.sd <= sd.high;
      CHECK(estimates.mean.low <= estimates.mean.value);
      CHECK(estimates.mean.value <= estimates.mean.high);
      CHECK(sd.low <= sd.value);
      CHECK(sd.value <= sd.high);
      // The delta method's sd of the mean, from this survey's interval.
      reported_variances.push_back(std::pow((estimates.mean.high - estimates.mean.low) / (2.0 * 1.959963984540054), 2));
    }
    const double mean_of_means = mean_sum / kSurveys;
    const double sd_of_means = std::sqrt(mean_squares / kSurveys - mean_of_means * mean_of_means);
    const double mean_of_variances = variance_sum / kSurveys;
    const double sd_of_variances = std::sqrt(variance_squares / kSurveys - mean_of_variances * mean_of_variances);
    INFO(name);
    // Unbiased: within 4 standard errors of the truth.
    CHECK(std::abs(mean_of_means - truth.mean) < 4.0 * sd_of_means / std::sqrt(kSurveys));
    CHECK(std::abs(mean_of_variances - truth.sd * truth.sd) < 4.0 * sd_of_variances / std::sqrt(kSurveys));
    // The interval's implied variance of the mean is the reports' sample
    // variance over n: the perturbation noise (the surveys' own spread here,
    // where the answers are fixed) plus the answers' own variance over n (the
    // respondents differ), so it is conservative for these respondents by
    // exactly that. Within 25% (the sampling sd of a variance from 400 draws
    // is about 7%).
    double average_reported = 0;
    for (double v : reported_variances) average_reported += v / kSurveys;
    const double expected = sd_of_means * sd_of_means + truth.sd * truth.sd / static_cast<double>(answers.size());
    CHECK(average_reported / expected == doctest::Approx(1.0).epsilon(0.25));
    // Coverage: at least 95% minus 3 binomial standard errors (400 surveys: 3.3 points).
    const double floor = 0.95 - 3.0 * std::sqrt(0.95 * 0.05 / kSurveys);
    CHECK(mean_covered >= floor * kSurveys);
    CHECK(sd_covered >= floor * kSurveys);
  }
}

TEST_CASE("report moments: the mean's interval for these respondents has the randomisation's variance alone") {
  // The same answers surveyed again and again: the estimates' own spread is
  // the randomisation's, which the respondents' interval must match (the
  // population interval adds the answers' variance over n, issue 26).
  const std::vector<double> answers = Answers(3000);
  const Truth truth = TruthOf(answers);
  constexpr int kSurveys = 400;
  // At epsilon 8 the answers' variance over n is comparable to the
  // randomisation's, so an interval counting both fails the first check.
  for (const char* name : {"laplace", "piecewise", "hybrid", "square_wave"}) {
    INFO(name);
    const auto mechanism = Mechanism(name, 8.0);
    SeededRandom random(29);
    double sum = 0, squares = 0, implied = 0, population_implied = 0;
    int covered = 0;
    for (int s = 0; s < kSurveys; ++s) {
      const auto estimates = Survey(*mechanism, answers, random);
      REQUIRE(estimates.respondents_mean);
      const MomentInterval& mean = *estimates.respondents_mean;
      CHECK(mean.value == doctest::Approx(estimates.mean.value));
      CHECK(mean.low <= mean.value);
      CHECK(mean.value <= mean.high);
      sum += mean.value, squares += mean.value * mean.value;
      covered += mean.low <= truth.mean && truth.mean <= mean.high;
      implied += std::pow((mean.high - mean.low) / (2.0 * 1.959963984540054), 2) / kSurveys;
      population_implied += std::pow((estimates.mean.high - estimates.mean.low) / (2.0 * 1.959963984540054), 2) / kSurveys;
    }
    const double average = sum / kSurveys;
    const double variance = squares / kSurveys - average * average;  // the randomisation's, measured
    // Within 25%: the sampling sd of a variance from 400 draws is about 7%.
    CHECK(implied / variance == doctest::Approx(1.0).epsilon(0.25));
    // The population's adds the answers' variance over n.
    CHECK((population_implied - implied) / (truth.sd * truth.sd / answers.size()) == doctest::Approx(1.0).epsilon(0.25));
    const double floor = 0.95 - 3.0 * std::sqrt(0.95 * 0.05 / kSurveys);
    CHECK(covered >= floor * kSurveys);
  }
  // Duchi's reports carry nothing about the spread, so the answers' part of
  // the variance cannot be told apart: the respondents' interval is the population's.
  SeededRandom random(31);
  const auto duchi = Survey(*Mechanism("duchi", 8.0), answers, random);
  REQUIRE(duchi.respondents_mean);
  CHECK(duchi.respondents_mean->high - duchi.respondents_mean->low ==
        doctest::Approx(duchi.mean.high - duchi.mean.low).epsilon(0.01));
}

TEST_CASE("report moments: Duchi's and low-epsilon Hybrid's reports say nothing about the spread") {
  const std::vector<double> answers = Answers(500);
  SeededRandom random(3);
  const auto duchi = Survey(*Mechanism("duchi", 1.0), answers, random);
  CHECK_FALSE(duchi.spread_identifiable);
  CHECK_FALSE(duchi.standard_deviation);
  CHECK(duchi.mean.low <= duchi.mean.value);
  // Hybrid at or below its epsilon* is Duchi's mechanism.
  const auto hybrid = Survey(*Mechanism("hybrid", 0.5 * kHybridThresholdEpsilon), answers, random);
  CHECK_FALSE(hybrid.spread_identifiable);
  // Above it the Piecewise half makes E[y^2|x] depend on x^2.
  const auto above = Survey(*Mechanism("hybrid", 2.0), answers, random);
  CHECK(above.spread_identifiable);
}

TEST_CASE("report moments: fewer than 2 reports give none") {
  const auto laplace = Mechanism("laplace", 1.0);
  auto created = NumericHistogram::ForMechanism(*laplace);
  REQUIRE(created);
  NumericHistogram histogram = *created;
  CHECK_FALSE(EstimateFromReportMoments(*laplace, histogram));
  REQUIRE(histogram.Add({12.0}));
  CHECK_FALSE(EstimateFromReportMoments(*laplace, histogram));
  REQUIRE(histogram.Add({14.0}));
  CHECK(EstimateFromReportMoments(*laplace, histogram));
}

TEST_CASE("linear moments (RVNS): within the bias bound of the truth, and the intervals cover") {
  // Answers piled against the low end, where RVNS's window says least.
  const std::vector<double> answers = Answers(2000);
  const Truth truth = TruthOf(answers);
  auto parsed = ParseNumericMechanism(
      nlohmann::json{{"name", "rvns"}, {"window", 2.0}, {"values", 2}, {"window_mode", "fresh"}}, kRange, "t");
  REQUIRE(parsed);
  const NumericMechanism& rvns = **parsed;
  auto transition = TransitionMatrix::ForMechanism(rvns, 100, kDefaultHistogramCells);
  REQUIRE(transition);
  constexpr int kSurveys = 200;
  SeededRandom random(23);
  int mean_covered = 0, sd_covered = 0, mean_covered_without_bias = 0;
  double mean_sum = 0, mean_squares = 0, bias_bound = 0;
  for (int s = 0; s < kSurveys; ++s) {
    auto created = NumericHistogram::ForMechanism(rvns);
    REQUIRE(created);
    NumericHistogram histogram = *created;
    for (double answer : answers) REQUIRE(histogram.Add(*rvns.Perturb(answer, random)));
    auto linear = EstimateLinearMoments(*transition, histogram.counts_as_doubles(), histogram.reports());
    REQUIRE(linear);
    const auto estimates = EstimateFromReportMoments(rvns, histogram, &*transition);
    REQUIRE(estimates);
    CHECK_FALSE(estimates->closed_form);
    mean_covered += estimates->mean.low <= truth.mean && truth.mean <= estimates->mean.high;
    sd_covered += estimates->standard_deviation->low <= truth.sd && truth.sd <= estimates->standard_deviation->high;
    // The same interval without its bias bound: what a plain CLT interval would claim.
    const double se = kRange.width() * linear->raw[0].standard_error;
    mean_covered_without_bias += std::abs(estimates->mean.value - truth.mean) <= 1.959963984540054 * se;
    mean_sum += estimates->mean.value, mean_squares += estimates->mean.value * estimates->mean.value;
    bias_bound = kRange.width() * linear->raw[0].bias_bound;
  }
  const double average = mean_sum / kSurveys;
  const double spread = std::sqrt(mean_squares / kSurveys - average * average);
  // |E[estimate] - truth| <= bias bound, up to 4 standard errors of the average.
  CHECK(std::abs(average - truth.mean) <= bias_bound + 4.0 * spread / std::sqrt(kSurveys));
  const double floor = 0.95 - 3.0 * std::sqrt(0.95 * 0.05 / kSurveys);
  CHECK(mean_covered >= floor * kSurveys);
  CHECK(sd_covered >= floor * kSurveys);
  MESSAGE("RVNS linear mean: bias bound " << bias_bound << ", covered " << mean_covered << "/" << kSurveys
                                          << ", without the bias bound " << mean_covered_without_bias);
}
