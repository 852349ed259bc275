// A categorical question's results document (categorical_results.h): the
// sample-size warning and the consistent estimate's interval.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "core/kinds/categorical/categorical_results.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"

using namespace deniable;

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
