// Estimators with exact arithmetic: unbiased counts, variances, Norm-Sub, the
// advisor's rule and the results document.
#include <doctest/doctest.h>

#include <cmath>

#include "core/frequency/advisor.h"
#include "core/frequency/frequency_estimator.h"
#include "core/frequency/norm_sub.h"
#include "core/survey/results.h"
#include "core/kinds/categorical/categorical_results.h"

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

TEST_CASE("Norm-Sub gives the non-negative shift that sums to the total") {
  const auto result = NormSub({0.6, 0.5, -0.1, -0.2}, 1.0);
  // Keeping the top two: delta = (1 - 1.1) / 2 = -0.05.
  CHECK(result[0] == doctest::Approx(0.55));
  CHECK(result[1] == doctest::Approx(0.45));
  CHECK(result[2] == 0.0);
  CHECK(result[3] == 0.0);
  const auto already = NormSub({0.2, 0.3, 0.5}, 1.0);
  CHECK(already[0] == doctest::Approx(0.2));
  const auto shifted = NormSub({0.1, 0.1}, 1.0);
  CHECK(shifted[0] == doctest::Approx(0.5));
  const auto all_negative = NormSub({-0.5, -0.2}, 1.0);
  CHECK(all_negative[0] == doctest::Approx(0.35));
  CHECK(all_negative[1] == doctest::Approx(0.65));
}

TEST_CASE("the advisor recommends GRR exactly when k < 3e^eps + 2") {
  // At eps = 1, 3e + 2 = 10.15: GRR for k <= 10, OUE from k = 11.
  CHECK(Advise(10, 1.0, 1000)->recommended == "grr");
  CHECK(Advise(11, 1.0, 1000)->recommended == "oue");
  CHECK(Advise(2, 0.5, 1000)->recommended == "grr");
  CHECK(Advise(64, 2.0, 1000)->recommended == "oue");  // 3e^2 + 2 = 24.2
  auto advice = *Advise(5, 1.0, 2500);
  CHECK(advice.mechanisms.size() == 5);  // grr, oue, sue, negative, pure negative
  CHECK_FALSE(advice.mechanisms.back().epsilon.has_value());
  CHECK(advice.mechanisms[0].ci_half_width == doctest::Approx(kZ95 * advice.mechanisms[0].std_error));
  CHECK(Advise(1, 1.0, 10).error() == "options must be between 2 and 4096, but is 1");
  CHECK(Advise(3, 0.0, 10).error() == "epsilon must be finite and in [0.01, 30], but is 0");
  CHECK(Advise(3, 1.0, 0).error() == "respondents must be between 1 and 2147483647, but is 0");
}

TEST_CASE("the sample-size warning appears when the 95% half-width exceeds 10 points") {
  auto survey = *ParseSurvey(nlohmann::json::parse(R"({"format": "deniable.survey/v1", "id": "o", "version": 1,
    "title": "T", "questions": [{"id": "a", "text": "A?", "options": ["x", "y"],
    "mechanism": {"name": "grr", "epsilon": 1}}]})"));
  const CategoricalAggregate small{50, {30, 20}};
  const CategoricalAggregate large{5000, {3000, 2000}};
  const auto small_json = CategoricalResultToJson(CategoricalKindOf(survey.questions[0]), small);
  CHECK(small_json["warning"].get<std::string>().rfind("n = 50 is too small for useful estimates", 0) == 0);
  CHECK(CategoricalResultToJson(CategoricalKindOf(survey.questions[0]), large)["warning"].is_null());
  CHECK(CategoricalResultToJson(CategoricalKindOf(survey.questions[0]), CategoricalAggregate(0, {0, 0}))["warning"] == "no reports yet");
  CHECK(CategoricalResultToJson(CategoricalKindOf(survey.questions[0]), CategoricalAggregate(0, {0, 0}))["options"][0]["frequency"].is_null());
}

TEST_CASE("the consistent estimate has an interval that holds it and the clipped CI") {
  auto survey = *ParseSurvey(nlohmann::json::parse(R"({"format": "deniable.survey/v1", "id": "o", "version": 1,
    "title": "T", "questions": [{"id": "a", "text": "A?", "options": ["x", "y", "z"],
    "mechanism": {"name": "oue", "epsilon": 4}}]})"));
  // Counts whose unbiased estimates do not sum to 1, so Norm-Sub shifts them.
  const CategoricalAggregate aggregate{300, {290, 8, 40}};
  const auto result = CategoricalResultToJson(CategoricalKindOf(survey.questions[0]), aggregate);
  for (const auto& option : result["options"]) {
    const double low = option["consistent_ci_low"].get<double>(), high = option["consistent_ci_high"].get<double>();
    const double consistent = option["consistent_frequency"].get<double>();
    CHECK(low <= consistent);
    CHECK(consistent <= high);
    CHECK(low <= std::max(0.0, option["ci_low"].get<double>()));
    CHECK(high >= std::min(1.0, option["ci_high"].get<double>()));
    CHECK(low >= 0.0);
    CHECK(high <= 1.0);
  }
  const auto empty = CategoricalResultToJson(CategoricalKindOf(survey.questions[0]), CategoricalAggregate(0, {0, 0, 0}));
  CHECK(empty["options"][0]["consistent_ci_low"].is_null());
}
