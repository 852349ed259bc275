// The advisor for a levels question (seed 003): the expected standard error
// of the mean for n respondents, for this question's levels mechanism and for
// the alternatives AT EQUAL TRUE EPSILON (the exact epsilon of the joint
// report, not the paper's claim): the bounded variant rescaled to it,
// Piecewise, Duchi, Hybrid and Square Wave. Answers are assumed spread evenly
// over the range (stated in the document): the levels mechanisms' variance
// depends on how answers fall into levels, the others' hardly at all.
//
// Standard errors are for the population (the results' default): the
// noise's per-respondent variance plus the answers' own ((b - a)^2 / 12,
// evenly spread), which is the same for every mechanism, so the ranking is
// the noise's. The per-respondent noise variance is (digest §3.6: Var of HierA's
// mu = 1 estimate; Var(y | x) for the unbiased mechanisms; Square Wave's
// linear mean estimate (E[y | x] = alpha + beta x) divided by beta^2).
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/numeric/levels/levels_mechanism.h"
#include "core/numeric/mean_advice.h"  // UniformMeanVariance, the rows

namespace deniable {

nlohmann::json LevelsAdvice(const LevelsMechanism& levels, std::int64_t respondents);

// The level budgets multiplied by one factor so that the variant's exact
// epsilon is `target` (bisection; the exact epsilon grows with the factor);
// nullopt when a budget would leave [0.01, 30].
std::optional<std::vector<double>> BudgetsForExactEpsilon(const LevelsMechanism& levels, LevelsVariant variant,
                                                          double target);

}  // namespace deniable
