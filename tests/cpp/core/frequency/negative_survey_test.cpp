// The negative survey (negative_survey.h): pure and epsilon-bounded probabilities, exactly.
#include <doctest/doctest.h>

#include <cmath>

#include "core/frequency/categorical_mechanism.h"
#include "tests/cpp/support/make_categorical.h"

using namespace deniable;
using deniable::testing::Make;

TEST_CASE("negative survey probabilities: pure and epsilon-bounded") {
  auto pure = Make(CategoricalKind::kNegativeSurvey, 5, std::nullopt, 1);
  CHECK(pure->probabilities().p == 0.0);
  CHECK(pure->probabilities().q == doctest::Approx(0.25));
  CHECK_FALSE(pure->epsilon().has_value());
  auto pure2 = Make(CategoricalKind::kNegativeSurvey, 6, std::nullopt, 2);
  CHECK(pure2->probabilities().q == doctest::Approx(0.4));
  // Bounded, s = 1: the answer is reported e^-eps times as often as any other option.
  auto bounded = Make(CategoricalKind::kNegativeSurvey, 5, 1.0, 1);
  const auto [p, q] = bounded->probabilities();
  CHECK(p / q == doctest::Approx(std::exp(-1.0)).epsilon(1e-12));
  CHECK(p + 4 * q == doctest::Approx(1.0).epsilon(1e-12));
  // Bounded, s = 2, k = 6: P(answer in S) = w s / (w s + k - s).
  auto bounded2 = Make(CategoricalKind::kNegativeSurvey, 6, 1.5, 2);
  const double w = std::exp(-1.5);
  CHECK(bounded2->probabilities().p == doctest::Approx(2 * w / (2 * w + 4)).epsilon(1e-12));
  // Every report has exactly s options: p + (k-1) q = s.
  CHECK(bounded2->probabilities().p + 5 * bounded2->probabilities().q == doctest::Approx(2.0).epsilon(1e-12));
}
