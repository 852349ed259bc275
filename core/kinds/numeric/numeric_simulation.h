// A numeric question's simulated truth: a distribution or {"values": [...]}
// (numeric_truth.h) each simulated respondent's answer is drawn from, and the
// comparison of the results with the drawn answers: "truth" {mean, std_dev,
// median, lower_quartile, upper_quartile} of the answers
// (core/distribution/empirical_comparison.h) and "errors" {wasserstein1 (the
// reconstructed distribution shown vs the answers' empirical CDF, in the
// answer's units), mean, std_dev, median (absolute errors of the estimates),
// mean_covered (the mean's 95% interval holds its own target,
// interval_target.h: "population_truth"'s mean, the truth distribution's own
// from 200,000 fixed-seed draws, or for a respondents interval the simulated
// answers' mean), unbiased_mean_covered (the same for the unbiased mean's CI,
// a population interval; null when the mechanism has none)}; errors null if
// the estimator failed.
// Memory: the answers are kept (8 bytes per simulated respondent).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/kinds/numeric/numeric_question_kind.h"

namespace deniable {

Result<std::unique_ptr<TruthSampler>> ParseNumericTruthSampler(const NumericQuestionKind& kind,
                                                               const nlohmann::json& entry, const std::string& where);

// `deniable simulate`'s text for a compared result: the range, mechanism,
// epsilon, n and estimator, then truth / estimate / 95% interval per
// statistic and the errors.
std::string NumericSimulationText(const nlohmann::json& result);

}  // namespace deniable
