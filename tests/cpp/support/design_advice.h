// A question's design advice in a test (each kind's DesignAdvice, issue 27
// item 11): a survey around questions, a numeric question, and the advice one
// of them gives for n respondents, through the survey's own parser.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/survey/survey.h"

namespace deniable::testing {

// The two-sided 95% normal quantile, written out so the tests do not read core's.
inline constexpr double kZ = 1.959963984540054;

inline nlohmann::json SurveyOf(nlohmann::json questions) {
  return {{"format", "deniable.survey/v1"}, {"id", "advice"}, {"version", 1}, {"title", "A"}, {"questions", questions}};
}

inline nlohmann::json Numeric(const std::string& id, double low, double high, nlohmann::json mechanism) {
  return {{"id", id}, {"text", id}, {"type", "numeric"}, {"range", {low, high}}, {"mechanism", mechanism}};
}

inline nlohmann::json AdviceOf(const nlohmann::json& definition, const std::string& id, std::int64_t n) {
  auto survey = ParseSurvey(definition);
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  for (const auto& question : survey->questions) {
    if (question.id == id) {
      auto advice = question.kind->DesignAdvice(n);
      return advice ? *advice : nlohmann::json(nullptr);
    }
  }
  FAIL("no question " << id);
  return nullptr;
}

}  // namespace deniable::testing
