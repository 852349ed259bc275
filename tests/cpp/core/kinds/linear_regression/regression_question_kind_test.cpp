// The linear_regression kind end to end (regression_question_kind.h, seed 003
// §5): with (nearly) noise-free gradients, SGD through the survey path reaches
// the least-squares coefficients. Its units have their own tests beside this one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_truth.h"
#include "core/kinds/linear_regression/model_gradient.h"
#include "core/kinds/linear_regression/model_results.h"
#include "core/kinds/linear_regression/model_rounds.h"
#include "core/kinds/linear_regression/regression_question_kind.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/model_survey.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("regression: with nearly noise-free gradients (epsilon 30) SGD reaches the least-squares coefficients") {
  // y = 20 + 3 x1 + 4 x2 exactly; clip 8 never binds; small batches, many rounds.
  auto survey = ParseSurvey(ModelSurvey(30.0, 30, 8.0, 0.5));
  REQUIRE(survey.ok());
  SurveyAggregate aggregate(*survey);
  SeededRandom random(7);
  for (int i = 0; i < 60000; ++i) {
    const double x1 = 10.0 * UniformUnit(random), x2 = -5.0 + 10.0 * UniformUnit(random);
    const json answers = WithPublicStates(
        *survey, aggregate, json{{"fit", {{"features", {x1, x2}}, {"target", 20 + 3 * x1 + 4 * x2 + 20}}}});
    auto report = ParseReport(*survey, *PerturbAnswers(*survey, answers, random));
    REQUIRE(report.ok());
    aggregate.Add(*report);
  }
  const json result = SurveyResultsToJson(*survey, aggregate)["questions"][3];
  const auto raw = result["coefficients"]["raw"].get<std::vector<double>>();
  MESSAGE("coefficients after " << result["rounds_completed"] << " rounds: " << raw[0] << ", " << raw[1] << ", " << raw[2]);
  CHECK(raw[0] == doctest::Approx(40.0).epsilon(0.05));
  CHECK(raw[1] == doctest::Approx(3.0).epsilon(0.05));
  CHECK(raw[2] == doctest::Approx(4.0).epsilon(0.05));
}
