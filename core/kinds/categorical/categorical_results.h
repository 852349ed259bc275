// A categorical question's results: n, epsilon (or "no formal epsilon"), the
// mechanism, each option's unbiased estimate with SE and 95% CI (for the
// population by default, or for these respondents; "interval_for" says which:
// frequency_estimator.h), the Norm-Sub
// consistent frequencies, and a warning when n is too small for useful
// estimates; and its rows of the CSV export.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/frequency/frequency_estimator.h"
#include "core/kinds/categorical/categorical_question_kind.h"

namespace deniable {

// A question's estimates are flagged when the expected 95% half-width of a
// frequency (the advisor's planning variance: the population's at small f)
// exceeds this: +-10 points.
inline constexpr double kUsefulHalfWidth = 0.10;

FrequencyEstimate EstimateCategorical(const CategoricalQuestionKind& kind, const CategoricalAggregate& aggregate,
                                      IntervalTarget target = IntervalTarget::kPopulation);

// The result without id, text and type (the survey adds them).
nlohmann::json CategoricalResultToJson(const CategoricalQuestionKind& kind, const CategoricalAggregate& aggregate,
                                       IntervalTarget target = IntervalTarget::kPopulation);

// One row per option: its count, frequency, SE, CI and consistent frequency.
std::vector<CsvRow> CategoricalCsvRows(const nlohmann::json& result);

}  // namespace deniable
