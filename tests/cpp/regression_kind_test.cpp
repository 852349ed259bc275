// The linear_regression kind (seed 003 §5): the clipped gradient, the
// coefficients' units, one sampled component per report, per-round sums that
// merge in any order, and convergence to the least-squares coefficients when
// the gradients are (nearly) noise-free.
#include <doctest/doctest.h>

#include <cmath>

#include "core/common/seeded_random.h"
#include "core/kinds/regression/model_gradient.h"
#include "core/kinds/regression/model_results.h"
#include "core/kinds/regression/model_rounds.h"
#include "core/kinds/regression/regression_question_kind.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

json ModelSurvey(double epsilon, int batch, double clip, double rate = 1.0) {
  return {{"format", "deniable.survey/v1"}, {"id", "m"}, {"version", 1}, {"title", "M"},
          {"questions",
           {{{"id", "x1"}, {"text", "x1"}, {"type", "numeric"}, {"range", {0, 10}}, {"required", false},
             {"mechanism", {{"name", "duchi"}, {"epsilon", 1}}}},
            {{"id", "x2"}, {"text", "x2"}, {"type", "numeric"}, {"range", {-5, 5}}, {"required", false},
             {"mechanism", {{"name", "duchi"}, {"epsilon", 1}}}},
            {{"id", "y"}, {"text", "y"}, {"type", "numeric"}, {"range", {0, 100}}, {"required", false},
             {"mechanism", {{"name", "duchi"}, {"epsilon", 1}}}},
            {{"id", "fit"}, {"text", "fit"}, {"type", "linear_regression"}, {"target", "y"}, {"features", {"x1", "x2"}},
             {"epsilon", epsilon}, {"batch", batch}, {"clip", clip}, {"learning_rate", rate}, {"ridge", 0}}}}};
}

const ModelDefinition& ModelOf(const Survey& survey) {
  return static_cast<const RegressionQuestionKind&>(*survey.questions[3].kind).model();
}

}  // namespace

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

TEST_CASE("regression: coefficients convert between the normalised scale and the variables' units") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 10, 1.0));
  const ModelDefinition& model = ModelOf(*survey);
  const std::vector<double> normalised = {0.1, -0.3, 0.7};
  const std::vector<double> raw = RawCoefficients(model, normalised);
  // Prediction at x = (2, -1) agrees on both scales.
  const double x1 = 2.0, x2 = -1.0;
  const double predicted_normalised = normalised[0] + normalised[1] * (2 * x1 / 10 - 1) + normalised[2] * (2 * (x2 + 5) / 10 - 1);
  CHECK(raw[0] + raw[1] * x1 + raw[2] * x2 == doctest::Approx(0 + (predicted_normalised + 1) * 50));
  const std::vector<double> back = NormalisedCoefficients(model, raw);
  for (int j = 0; j < 3; ++j) CHECK(back[j] == doctest::Approx(normalised[j]));
}

TEST_CASE("regression: each report carries one uniformly drawn component; rounds merge in any order") {
  auto survey = ParseSurvey(ModelSurvey(2.0, 30, 1.0));
  REQUIRE(survey.ok());
  SeededRandom random(4);
  SurveyAggregate all(*survey), odd(*survey), even(*survey);
  std::vector<int> components(3, 0);
  for (int i = 0; i < 300; ++i) {
    const json answers = WithPublicStates(*survey, all, json{{"fit", {{"features", {i % 10, (i % 7) - 3}}, {"target", (i * 13) % 100}}}});
    auto wire = PerturbAnswers(*survey, answers, random);
    REQUIRE(wire.ok());
    ++components[(*wire)["responses"]["fit"]["component"].get<int>()];
    auto report = ParseReport(*survey, *wire);
    REQUIRE(report.ok());
    REQUIRE(all.Admits(*survey, *report).ok());
    all.Add(*report);
    (i % 2 ? odd : even).Add(*report);
  }
  for (int count : components) CHECK(std::abs(count - 100) < 4 * std::sqrt(300 * (1.0 / 3) * (2.0 / 3)));
  REQUIRE(odd.Merge(even).ok());
  // Equal up to the rounding of sums added in another order.
  const json merged = PublicStatesToJson(*survey, odd)["questions"]["fit"];
  const json sequential = PublicStatesToJson(*survey, all)["questions"]["fit"];
  CHECK(merged["round"] == sequential["round"]);
  for (int j = 0; j < 3; ++j) {
    CHECK(merged["coefficients"][j].get<double>() == doctest::Approx(sequential["coefficients"][j].get<double>()).epsilon(1e-12));
  }
  CHECK(sequential["rounds_completed"] == 10);
}

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

TEST_CASE("regression: reports counted together are admitted in order, so a round never takes more than its batch") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 3, 1.0));
  REQUIRE(survey.ok());
  SurveyAggregate aggregate(*survey);
  auto gradient = [&](long long round, int component) {
    auto report = ParseReport(*survey, json{{"survey", "m"}, {"version", 1},
                                            {"responses", {{"fit", {{"round", round}, {"component", component}, {"value", 0.5}}}}}});
    REQUIRE(report.ok());
    return *report;
  };
  aggregate.Add(gradient(1, 0));
  // Four reports for round 1, each admitted alone (two places left): counted together, the first two fill it.
  const std::vector<Report> batch = {gradient(1, 1), gradient(1, 2), gradient(1, 0), gradient(1, 1)};
  for (const Report& report : batch) CHECK(aggregate.Admits(*survey, report).ok());
  std::vector<const Report*> pointers;
  for (const Report& report : batch) pointers.push_back(&report);
  const std::vector<Status> admitted = aggregate.AdmitInOrder(*survey, pointers);
  REQUIRE(admitted.size() == 4);
  CHECK(admitted[0].ok());
  CHECK(admitted[1].ok());
  REQUIRE_FALSE(admitted[2].ok());
  CHECK(admitted[2].error() == "questions.fit: round 1 is closed; the current round is 2: fetch the model's state again and prepare a new report");
  CHECK_FALSE(admitted[3].ok());
  // The aggregate itself is unchanged by the judgement.
  CHECK(PublicStatesToJson(*survey, aggregate)["questions"]["fit"]["reports_in_round"] == 1);
}
