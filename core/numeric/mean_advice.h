// The expected precision of a numeric question's mean before collection, for
// n respondents, under one mechanism: what the numeric advisors (a numeric
// question's, levels_advice.h's) tabulate for every mechanism they compare.
//
// The mean's estimate averages one unbiased per-respondent estimate (the
// mechanism's MeanEstimateVariance: Var(y | x) for unbiased reports, Square
// Wave's linear mean estimate divided by its slope squared, HierA for levels).
// For the population (the results' default interval target), by the law of
// total variance its variance per respondent is
//   E[noise variance at the answer] + Var(answer),
// so the standard error is sqrt(that / n) and the 95% half-width 1.96 times it.
// Two spreads of answers are given:
//   - evenly spread over [a, b] (the advice's headline): the noise averaged
//     over the range and Var(answer) = (b - a)^2 / 12;
//   - the worst case for the range (an upper bound whatever the answers): the
//     noise's largest value on [a, b] and Var(answer) <= (b - a)^2 / 4 (half
//     the answers at each end).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"

namespace deniable {

// The per-respondent variance of the mechanism's mean estimate averaged over
// answers spread evenly over its range; nullopt when it has no linear mean.
std::optional<double> UniformMeanVariance(const NumericMechanism& mechanism);
// Its largest value on the range (a fine grid, ends included); nullopt as above.
std::optional<double> WorstMeanVariance(const NumericMechanism& mechanism);
// Its smallest value on the range (same grid); nullopt as above.
std::optional<double> LeastMeanVariance(const NumericMechanism& mechanism);

// One advisor row: {"mechanism", "description", "epsilon", "std_error",
// "ci_half_width", "respondents_for_5_percent" (n for a 95% half-width of 5%
// of the range), "ci_half_width_worst"}; the numbers null when `mechanism` is
// null (it could not be built) or has no linear mean estimate.
nlohmann::json MeanAdviceRow(const std::string& name, const std::string& description,
                             const NumericMechanism* mechanism, std::int64_t respondents);

// The name of the row with the smallest standard error ("" when none has one).
std::string BestMeanRow(const nlohmann::json& rows);

}  // namespace deniable
