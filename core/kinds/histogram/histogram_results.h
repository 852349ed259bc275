// A histogram question's results: the fine cells' unbiased frequencies, each
// consumer's histogram (bins as sums of fine cells, with the exact variance,
// 95% intervals and a consistent version), bins asked for after collection
// (custom_bins.h), and the CDF and quartiles with intervals.
//
// Consistency: Norm-Sub on the fine cells (frequency_estimator.h: non-negative,
// summing to 1), then every consumer's bins summed from those, so each
// consumer's histogram sums to 1 and two consumers agree on every union of
// fine cells they share: the paper's consistency without its LS step.
//
// CDF at each fine boundary: the sum of the cells below it (a bin of h cells),
// its 95% interval from the same variance, clipped to [0, 1]. Quartiles
// invert it: the value where the CDF reaches q (linear within the cell), the
// interval from where the band's upper limit reaches q to where its lower
// limit does, at cell boundaries. Cost: O(cells x consumers), whatever n.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/kinds/histogram/histogram_estimate_options.h"
#include "core/kinds/histogram/histogram_question_kind.h"

namespace deniable {

nlohmann::json HistogramResultToJson(const HistogramQuestionKind& kind, const HistogramAggregate& aggregate,
                                     const HistogramEstimateOptions& options);

// A row per consumer bin ("<name> [low, high)") and per custom bin, then the quartiles.
std::vector<CsvRow> HistogramCsvRows(const nlohmann::json& result);

}  // namespace deniable
