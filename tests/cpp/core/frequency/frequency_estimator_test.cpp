// The frequency estimator with exact arithmetic (frequency_estimator.h):
// unbiased counts, variances and intervals, and no reports.
#include <doctest/doctest.h>

#include <cmath>

#include "core/frequency/frequency_estimator.h"
#include "core/survey/interval_target.h"

using namespace deniable;

TEST_CASE("unbiased counts invert E[C] = n_i p + (n - n_i) q exactly") {
  // p = 0.8, q = 0.1, n = 100, true n = (50, 30, 20) -> E[C] = (45, 31, 24).
  const SupportProbabilities pq{0.8, 0.1};
  // Intervals for these respondents (the population's: tests/cpp/core/survey/interval_target_test.cpp).
  const auto estimate = EstimateFrequencies({45, 31, 24}, 100, pq, IntervalTarget::kRespondents);
  CHECK(estimate.options[0].count == doctest::Approx(50.0).epsilon(1e-12));
  CHECK(estimate.options[1].count == doctest::Approx(30.0).epsilon(1e-12));
  CHECK(estimate.options[2].frequency == doctest::Approx(0.2).epsilon(1e-12));
  // Var(f_0) = (0.5 * 0.16 + 0.5 * 0.09) / (100 * 0.49).
  const double variance = (0.5 * 0.8 * 0.2 + 0.5 * 0.1 * 0.9) / (100 * 0.49);
  CHECK(estimate.options[0].std_error == doctest::Approx(std::sqrt(variance)).epsilon(1e-12));
  CHECK(estimate.options[0].ci_low == doctest::Approx(0.5 - kZ95 * std::sqrt(variance)).epsilon(1e-12));
  CHECK(estimate.options[0].ci_high == doctest::Approx(0.5 + kZ95 * std::sqrt(variance)).epsilon(1e-12));
  CHECK(estimate.options[0].consistent_frequency == doctest::Approx(0.5).epsilon(1e-12));
}

TEST_CASE("the pure negative survey estimator is n - (k-1) C_i") {
  // p = 0, q = 1/(k-1), k = 4: n_i = n - 3 C_i.
  const auto estimate = EstimateFrequencies({10, 30, 20, 40}, 100, {0.0, 1.0 / 3.0});
  CHECK(estimate.options[0].count == doctest::Approx(70.0).epsilon(1e-12));
  CHECK(estimate.options[3].count == doctest::Approx(-20.0).epsilon(1e-12));
}

TEST_CASE("no reports: estimates are NaN (null in JSON), not zero") {
  const auto estimate = EstimateFrequencies({0, 0}, 0, {0.7, 0.3});
  CHECK(std::isnan(estimate.options[0].frequency));
  CHECK(std::isnan(estimate.options[0].std_error));
}
