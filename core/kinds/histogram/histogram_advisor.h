// What each way of collecting the declared consumers' histograms costs in
// accuracy, before collection: the expected count MSE per bin of each
// consumer at epsilon and n, for
//   sue, oue, tree: this question with that mechanism (one report per respondent);
//   baseline: one report per consumer over its own bins at epsilon / M (the
//     paper's SHP, the better of SUE and OUE there), the split that keeps
//     epsilon when consumers collude.
// Each is the estimator's own variance (level_estimates.h) evaluated at
// answers spread evenly over the range: exact for flat SUE and OUE summed over
// a consumer's bins whatever the answers (the bins' answers sum to n), and for
// the tree the decomposition's variance (which bounds its least-squares
// estimate). Unlike the planning variance (few answers per bin), it keeps
// OUE's p(1-p) term, which makes SUE the better flat encoding at large
// epsilon (eps = 15, {3,5,7}-fold: SUE 20 against OUE 2,738 per bin).
// CHP loses to the baseline for a coarse consumer when the fine cells are
// many and epsilon small (digest 3.5: {2, 100}-fold at eps = 1); the advice
// names the consumers for whom the baseline is better.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/kinds/histogram/histogram_question_kind.h"

namespace deniable {

// The noise-free aggregate of `answers` per fine cell: each level's expected
// respondents and bits. Its LevelEstimates give the truth and the variance.
HistogramAggregate ExpectedAggregate(const HistogramQuestionKind& kind, const std::vector<double>& answers);

nlohmann::json HistogramKindAdvice(const HistogramQuestionKind& kind, std::int64_t n);

}  // namespace deniable
