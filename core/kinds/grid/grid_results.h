// A rating grid's results: per item its distribution over the scale (each
// level's frequency, unbiased with its interval, and consistent) and its mean
// position on 1..L with its interval (grid_estimator.h), and the CSV rows.
//   {"mechanism", "privacy", "n", "interval_for", "scale": [labels],
//    "items": [{"label", "mean": {"estimate", "std_error", "ci_low", "ci_high",
//               "consistent", "consistent_ci_low", "consistent_ci_high"},
//               "levels": [{"label", "frequency", "std_error", "ci_low", "ci_high",
//                           "consistent_frequency", "consistent_ci_low", "consistent_ci_high"}]}],
//    "advice": the advisor at this n (grid_advice.h), "warning": null or why not yet}
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/kinds/grid/grid_question_kind.h"
#include "core/survey/interval_target.h"

namespace deniable {

nlohmann::json GridResultToJson(const GridQuestionKind& kind, const GridAggregate& aggregate, IntervalTarget target);

// Per item: its mean position's row, then one frequency row per level
// (variables: item and level).
std::vector<CsvRow> GridCsvRows(const nlohmann::json& result);

}  // namespace deniable
