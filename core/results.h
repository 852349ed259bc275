// From aggregates to the results document the dashboard and `simulate` show:
// per question, n, epsilon (or "no formal epsilon"), the mechanism, each
// option's unbiased estimate with SE and 95% CI, the Norm-Sub consistent
// frequencies, and a warning when n is too small for useful estimates.
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

#include "core/aggregate.h"
#include "core/frequency_estimator.h"
#include "core/numeric_results.h"
#include "core/survey.h"

namespace deniable {

// Categorical questions: a question's estimates are flagged when the expected 95% half-width of a
// frequency (planning variance, as the advisor) exceeds this: +-10 points.
inline constexpr double kUsefulHalfWidth = 0.10;

FrequencyEstimate EstimateQuestion(const Question& question, const QuestionAggregate& aggregate);

nlohmann::json QuestionResultToJson(const Question& question, const QuestionAggregate& aggregate);
// Numeric questions use `numeric` (estimator, grid, bin width, bootstrap); a
// numeric question whose estimation fails carries {"error": message}.
// `cancelled` (optional) is polled during numeric estimation; once it returns
// true the remaining estimation stops at once and the document is incomplete
// (numeric entries with the error kEstimationCancelled): discard it.
nlohmann::json SurveyResultsToJson(const Survey& survey, const SurveyAggregate& aggregate,
                                   const NumericEstimateOptions& numeric = {},
                                   const std::function<bool()>& cancelled = {});
// Whether the document needs numeric estimation (a numeric question with at
// least one report); without it a document costs microseconds.
bool ResultsNeedEstimation(const Survey& survey, const SurveyAggregate& aggregate);

}  // namespace deniable
