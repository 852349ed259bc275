// The model's client (model_gradient.h, seed 003): the gradient of the squared
// error, clipped per component and scaled by the clip.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/kinds/linear_regression/model_gradient.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/model_survey.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("regression: the gradient of the squared error, clipped per component and scaled by the clip") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 10, 1.0));
  REQUIRE(survey.ok());
  const ModelDefinition& model = ModelOf(*survey);
  CHECK(model.feature_ranges[1].low == -5.0);
  // x = (5, 0) -> normalised (0, 0); y = 75 -> 0.5. At b = 0 the residual is -0.5: g = 2 * -0.5 * (1, 0, 0).
  CHECK(ClippedGradient(model, {{5.0, 0.0}, 75.0}, {0, 0, 0}) == std::vector<double>{-1.0, 0.0, 0.0});
  // x = (10, 5) -> (1, 1), y = 0 -> -1, b = (0.5, 0, 0): residual 1.5, g = (3, 3, 3) clipped to 1.
  CHECK(ClippedGradient(model, {{10.0, 5.0}, 0.0}, {0.5, 0, 0}) == std::vector<double>{1.0, 1.0, 1.0});
  auto wide = ParseSurvey(ModelSurvey(1.0, 10, 4.0));
  CHECK(ClippedGradient(ModelOf(*wide), {{10.0, 5.0}, 0.0}, {0.5, 0, 0}) == std::vector<double>{0.75, 0.75, 0.75});
  // Answers outside a variable's range are refused by name.
  const auto& kind = *survey->questions[3].kind;
  SeededRandom random(1);
  const auto bad = kind.Perturb(json{{"features", {11, 0}}, {"target", 5}, {"state", {{"round", 1}, {"coefficients", {0, 0, 0}}}}}, random);
  REQUIRE(!bad.ok());
  CHECK(bad.error() == "features[0] (x1) must be a number in [0, 10], but is 11");
  const auto stateless = kind.Perturb(json{{"features", {1, 0}}, {"target", 5}}, random);
  CHECK(stateless.error().find("state: the model's current state is needed") == 0);
}
