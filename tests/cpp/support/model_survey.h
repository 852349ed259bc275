// A survey with a linear model over two numeric questions, and a gradient
// report for it, for the tests of core/kinds/linear_regression/ (seed 003):
// x1 in [0, 10], x2 in [-5, 5], y in [0, 100]; the model "fit" of y on x1, x2.
#pragma once

#include <doctest/doctest.h>

#include <optional>

#include <nlohmann/json.hpp>

#include "core/kinds/linear_regression/regression_question_kind.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"

namespace deniable::testing {

inline nlohmann::json ModelSurvey(double epsilon, int batch, double clip, double rate = 1.0,
                                  std::optional<int> chains = std::nullopt) {
  nlohmann::json survey = {
      {"format", "deniable.survey/v1"}, {"id", "m"}, {"version", 1}, {"title", "M"},
      {"questions",
       {{{"id", "x1"}, {"text", "x1"}, {"type", "numeric"}, {"range", {0, 10}}, {"required", false},
         {"mechanism", {{"name", "duchi"}, {"epsilon", 1}}}},
        {{"id", "x2"}, {"text", "x2"}, {"type", "numeric"}, {"range", {-5, 5}}, {"required", false},
         {"mechanism", {{"name", "duchi"}, {"epsilon", 1}}}},
        {{"id", "y"}, {"text", "y"}, {"type", "numeric"}, {"range", {0, 100}}, {"required", false},
         {"mechanism", {{"name", "duchi"}, {"epsilon", 1}}}},
        {{"id", "fit"}, {"text", "fit"}, {"type", "linear_regression"}, {"target", "y"}, {"features", {"x1", "x2"}},
         {"epsilon", epsilon}, {"batch", batch}, {"clip", clip}, {"learning_rate", rate}, {"ridge", 0}}}}};
  if (chains) survey["questions"][3]["chains"] = *chains;
  return survey;
}

inline const ModelDefinition& ModelOf(const Survey& survey) {
  return static_cast<const RegressionQuestionKind&>(*survey.questions[3].kind).model();
}

// A report holding one gradient component for the model's round.
inline Report Gradient(const Survey& survey, long long round, int component, double value) {
  auto report = ParseReport(survey, nlohmann::json{{"survey", "m"}, {"version", 1},
                                                   {"responses", {{"fit", {{"round", round}, {"component", component}, {"value", value}}}}}});
  REQUIRE(report.ok());
  return *report;
}

}  // namespace deniable::testing
